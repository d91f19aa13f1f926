import { throwIfAborted } from '../../../abort';
import type { Accountant } from '../../../privacy/accountant';
import { meteredPriorUrnDraws } from '../../../privacy/metered/prior-urn-draws';
import type { Schema, Table } from '../../../table/types';
import { defineMechanism, type DefinedMechanism, type Drawn } from '../../shape/define-mechanism';
import type { ParamValues, RunContext } from '../../types';
import { refuseUnplannedRun } from '../binning/binned-mechanism';
import { datasetFromCells, WHOLE_TABLES, type DatasetForm } from '../rows/dataset-form';
import type { PriorDraw } from '../../../privacy/dirichlet-prior';
import { cellOfEveryRow } from '../coding/encode-rows';
import { countRowsPerCell, type SparseCellCounts } from '../../../cells/sparse-cell-counts';
import type { PriorDrawMeta, PriorDrawPlan, ReleasePlan } from './plan';

/** The cells of the cross-tabulation partition the rows by a rule fixed by the schema. */
const PARTITION = { kind: 'partition-counts' } as const;

/** The words of a release's progress. */
const PROGRESS: Record<PriorDraw, string> = {
  posterior: 'posterior draw',
  'posterior-mean': 'drawing rows',
};

/** The public diagnostics of this family: the domain's cells and each release's prior weight α per cell. */
export interface PriorDrawDiagnostics {
  domainCells: number;
  /** Per release, α rounded up (a public function of n and ε/M). */
  priorPerCell: number[];
}

/**
 * The draw after ε/M is reserved for every release: per release n cells through the metered
 * prior-weighted draw (α per cell plus one ball per real row: a Pólya urn for `posterior`,
 * π* ~ Dirichlet(α + counts) and cells ~ Multinomial(n, π*); independent rows with
 * P(k) = (n_k + α)/(n + Kα) for `posterior-mean`), then cells decoded to values (uniform within
 * numeric bins).
 */
async function drawPriorDrawReleases<D>(
  draw: PriorDraw,
  counts: SparseCellCounts,
  { domain }: PriorDrawPlan,
  plans: ReleasePlan[],
  ctx: RunContext,
  form: DatasetForm<D>,
): Promise<Drawn<D, PriorDrawDiagnostics>> {
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
    diagnostics: {
      domainCells: domain.domainCells,
      priorPerCell: priors.map((prior) => prior.toNumberUp()),
    },
  };
}

/** A mechanism of this family as workers and the CLI run it. */
export type PriorDrawMechanism = DefinedMechanism<Accountant, SparseCellCounts, PriorDrawDiagnostics>;

/** The mechanism as workers and the CLI run it, from its catalogue entry and its draw: the cell counts, then the draws. */
export function priorDrawMechanism(meta: PriorDrawMeta, draw: PriorDraw): PriorDrawMechanism {
  return defineMechanism(meta, {
    read: (table, { domain }, ctx) => {
      refuseUnplannedRun(meta.id, domain, table, ctx);
      return countRowsPerCell(cellOfEveryRow(table, domain.codings));
    },
    draw: (counts, plan, plans, ctx, form) => drawPriorDrawReleases(draw, counts, plan, plans, ctx, form),
  });
}

/** A run of the family on whole tables with the accountant made explicit (tests record its reservations). */
export function runPriorDraw(
  mechanism: PriorDrawMechanism,
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant?: Accountant,
) {
  return mechanism.drawFromTable(table, schema, params, ctx, WHOLE_TABLES, accountant);
}
