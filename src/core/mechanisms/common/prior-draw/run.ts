import { throwIfAborted } from '../../../abort';
import { Accountant } from '../../../privacy/accountant';
import { parseBudget } from '../../../privacy/budget';
import { meteredPriorUrnDraws } from '../../../privacy/metered/prior-urn-draws';
import { InputError } from '../../../table/errors';
import type { Schema, Table } from '../../../table/types';
import { blockRowsOf } from '../../release-blocks';
import type { Mechanism, ParamValues, Release, RunContext } from '../../types';
import { datasetFromCells, rowBlocks, WHOLE_TABLES, type DatasetForm, type ReleaseOf } from '../dataset-form';
import type { PriorDraw } from '../dirichlet-prior';
import { cellOfEveryRow } from '../encode-rows';
import { countRowsPerCell } from '../sparse-cell-counts';
import {
  planPriorDrawDomain,
  priorDrawAssumptions,
  reservePriorDrawReleases,
  type BudgetReserver,
} from './plan';

/** The cells of the cross-tabulation partition the rows by a rule fixed by the schema. */
const PARTITION = { kind: 'partition-counts' } as const;

/** The words of a release's progress. */
const PROGRESS: Record<PriorDraw, string> = {
  posterior: 'posterior draw',
  'posterior-mean': 'drawing rows',
};

/**
 * The run with its datasets in the given form (whole tables, or row blocks decoded when read): validate,
 * reserve ε/M for every release, then per release draw n cells through the metered prior-weighted draw
 * (α per cell plus one ball per real row: a Pólya urn for `posterior`, π* ~ Dirichlet(α + counts) and
 * cells ~ Multinomial(n, π*); independent rows with P(k) = (n_k + α)/(n + Kα) for `posterior-mean`),
 * and decode cells to values (uniform within numeric bins).
 */
export async function drawPriorDrawRelease<D>(
  id: string,
  draw: PriorDraw,
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant: BudgetReserver,
  form: DatasetForm<D>,
): Promise<ReleaseOf<D>> {
  const domain = planPriorDrawDomain(schema, params, ctx.n);
  if (domain.problems.length > 0) throw new InputError(`${id} cannot run: ${domain.problems.join(' ')}`);
  if (table.nRows !== ctx.n)
    throw new Error(`${id}: the table has ${table.nRows} rows but the context says n = ${ctx.n}.`);
  const budget = parseBudget(ctx.epsilon, ctx.delta);
  const plans = reservePriorDrawReleases(
    accountant,
    draw,
    budget.epsilon,
    ctx.releases,
    ctx.n,
    domain.domainCells,
  );
  const counts = countRowsPerCell(cellOfEveryRow(table, domain.codings));
  const datasets: D[] = [];
  const priors = [];
  for (let release = 0; release < ctx.releases; release++) {
    throwIfAborted(ctx.signal);
    ctx.progress(release / ctx.releases, `release ${release + 1} of ${ctx.releases}: ${PROGRESS[draw]}`);
    const { epsilon, step } = plans[release]!;
    // α is derived from ε/M inside the primitive, which charges ε/M to the release's step.
    const drawn = meteredPriorUrnDraws(
      step,
      PARTITION,
      counts,
      { domainCells: domain.domainCells, rows: ctx.n, draw, epsilon },
      ctx.rng,
      ctx.signal,
    );
    priors.push(drawn.prior);
    datasets.push(datasetFromCells(form, ctx.rng, drawn.cells, domain.codings));
  }
  ctx.progress(1, 'done');
  return {
    datasets,
    claim: accountant.claim(priorDrawAssumptions(draw, domain, ctx)),
    diagnostics: {
      domainCells: domain.domainCells,
      priorPerCell: priors.map((prior) => prior.toNumberUp()),
    },
    dataHolderDiagnostics: {},
  };
}

/** The run of one synthesizer of the family, whole tables, with the accountant made explicit (tests pass a recorder). */
export function runPriorDraw(
  id: string,
  draw: PriorDraw,
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant: BudgetReserver = new Accountant(parseBudget(ctx.epsilon, ctx.delta), ctx.meter),
): Promise<Release> {
  return drawPriorDrawRelease(id, draw, table, schema, params, ctx, accountant, WHOLE_TABLES);
}

/** The mechanism as workers and the CLI run it, from its catalogue entry and its draw. */
export function priorDrawMechanism(meta: Omit<Mechanism, 'run'>, draw: PriorDraw): Mechanism {
  return {
    ...meta,
    run: (table, schema, params, ctx) => runPriorDraw(meta.id, draw, table, schema, params, ctx),
    runInBlocks: (table, schema, params, ctx, options) =>
      drawPriorDrawRelease(
        meta.id,
        draw,
        table,
        schema,
        params,
        ctx,
        new Accountant(parseBudget(ctx.epsilon, ctx.delta), ctx.meter),
        rowBlocks(blockRowsOf(options)),
      ),
  };
}
