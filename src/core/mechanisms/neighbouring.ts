import type { Neighbouring } from '../privacy/query-sensitivity';
import type { Schema } from '../table/types';
import type { MechanismMeta, PublicContext } from './types';

export type { Neighbouring } from '../privacy/query-sensitivity';

/** The relations a run can choose, the default first. */
export const NEIGHBOURING_CHOICES: readonly Neighbouring[] = ['replace-one', 'add-remove'];

/** The default relation: one row replaced, n public (DESIGN.md §3 rule 1). */
export const DEFAULT_NEIGHBOURING: Neighbouring = 'replace-one';

/** What each relation protects, one sentence each (CLI help, studio's Mechanism step, README). */
export const NEIGHBOURING_PROTECTS: Record<Neighbouring, string> = {
  'replace-one':
    'replace one row: hides what a person’s row says; the number of rows n is public (the synthetic data has n rows).',
  'add-remove':
    'add or remove one row: hides whether a person is in the table at all; n is private and only estimated with noise.',
};

/** The run's relation from a context (absent: replace-one). */
export function relationOf(context?: Pick<PublicContext, 'neighbouring'>): Neighbouring {
  return context?.neighbouring ?? DEFAULT_NEIGHBOURING;
}

/** The relations a mechanism supports (absent: replace-one only). */
export function supportedRelations(
  meta: Pick<MechanismMeta, 'supportsNeighbouring'>,
): readonly Neighbouring[] {
  return meta.supportsNeighbouring ?? [DEFAULT_NEIGHBOURING];
}

/** Reads a relation from user text; undefined when it is neither name. */
export function parseNeighbouring(text: string): Neighbouring | undefined {
  return (NEIGHBOURING_CHOICES as readonly string[]).includes(text) ? (text as Neighbouring) : undefined;
}

/**
 * Why a mechanism cannot run under the context's relation, as sentences (empty when it can): a
 * mechanism that does not list the relation, and, under add/remove, a schema with facts learned with DP
 * (those steps were accounted under replace-one with n public, so their composition with an add/remove
 * run would state no single relation).
 */
export function relationProblems(
  meta: Pick<MechanismMeta, 'id' | 'supportsNeighbouring'>,
  schema: Schema,
  context?: Pick<PublicContext, 'neighbouring'>,
): string[] {
  const relation = relationOf(context);
  if (relation === DEFAULT_NEIGHBOURING) return [];
  const problems: string[] = [];
  if (!supportedRelations(meta).includes(relation)) {
    problems.push(
      `${meta.id} runs only with replace-one neighbours (n public): its sensitivities, budget split or row count ` +
        'are derived for that relation only. Choose replace-one, or mst, aim, dp-marginals or laplace-histogram for add/remove.',
    );
  }
  if ((schema.domainBudget?.steps ?? []).length > 0) {
    problems.push(
      'the schema has facts learned with DP under replace-one neighbours (n public): declare them, or run with replace-one.',
    );
  }
  return problems;
}

/**
 * The row count a plan may read: n under replace-one (public), undefined under add/remove (private), so
 * a domain, a default or a sentence computed from it cannot depend on n.
 */
export function publicRows(context?: Pick<PublicContext, 'n' | 'neighbouring'>): number | undefined {
  if (context === undefined) return undefined;
  return relationOf(context) === 'add-remove' ? undefined : context.n;
}

/**
 * The row count the default binning uses: n under replace-one; under add/remove, where n is private, a
 * fixed reference of 1,000 rows, so Scott's rule ceil(6·n^(1/3)/3.49) gives 18 bins per numeric column
 * (and lowers them for the cell limit from the schema alone), whatever the table. Undefined without a
 * context (a check before n is known).
 */
export const ADD_REMOVE_BINNING_ROWS = 1000;

export function binningRows(context?: Pick<PublicContext, 'n' | 'neighbouring'>): number | undefined {
  if (context === undefined) return undefined;
  return relationOf(context) === 'add-remove' ? ADD_REMOVE_BINNING_ROWS : context.n;
}

/**
 * The sentences a claim under add/remove adds (none under replace-one): how the row count is read (`rows`,
 * a phrase), and, when the schema has numeric columns, that the default binning does not use n.
 */
export function addRemoveAssumptions(
  context: Pick<PublicContext, 'neighbouring' | 'schema'>,
  rows: string,
): string[] {
  if (relationOf(context) !== 'add-remove') return [];
  const sentences = [
    `The number of rows n is private (add/remove neighbours): ${rows}; nothing else reads n, and no public ` +
      'fact (domain, bins, defaults) depends on it.',
  ];
  if (context.schema.columns.some((column) => column.type === 'numeric')) {
    sentences.push(
      `Numeric columns under the default binning (bins = 0) follow Scott's rule at a fixed ${ADD_REMOVE_BINNING_ROWS.toLocaleString('en-US')} ` +
        'rows (18 bins), not at n.',
    );
  }
  return sentences;
}
