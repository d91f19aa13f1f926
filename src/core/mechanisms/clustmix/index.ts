import { checkCompleteColumns } from '../../table/complete-columns';
import { throwIfAborted } from '../../abort';
import type { ZcdpAccountant } from '../../privacy/zcdp-accountant';
import type { Schema, Table } from '../../table/types';
import { WHOLE_TABLES, type DatasetForm } from '../common/rows/dataset-form';
import { columnRows } from '../release-blocks';
import { defineMechanism, type Drawn } from '../shape/define-mechanism';
import type { Mechanism, ParamValues, RunContext } from '../types';
import { adaptMixture, drawFrequencies, releaseMoments } from './adapt';
import { releaseClusterStatistics, type ClusterGeometry } from './cluster-statistics';
import { encodeRows } from './encoding';
import { clustmixMeta, mixtureOf, type ClustmixSpecPlan } from './meta';
import { initialCentroids, mixtureFromRelease, updateCentroids } from './mixture';
import { RESIDUAL_GRID, type ClustmixSteps } from './plan';
import { sampleRows, uniformBoxMixture } from './sample-rows';

export { clustmixMeta } from './meta';

/** ClustMix's public diagnostics: the encoding's size, the mixture's settings and what the noisy releases kept. */
export interface ClustmixDiagnostics {
  dimension: number;
  clusters: number;
  minClusterSize: number;
  clipRadius: number;
  centroidsRedrawnPerIteration: number[];
  componentsKept: number;
  noClusterKept: boolean;
  adapt?: Record<string, unknown>;
}

/**
 * ClustMix's draw, after every step is reserved: K centroids uniformly in the box (and the random
 * frequencies), T noisy Lloyd iterations, the final noisy release → mixture, the optional DP-KIP
 * adaptation of the centres from noisy random-feature moments, then M tables sampled from the one mixture.
 */
async function drawClustmix<D>(
  table: Table,
  specPlan: ClustmixSpecPlan,
  handles: ClustmixSteps,
  ctx: RunContext,
  form: DatasetForm<D>,
): Promise<Drawn<D, ClustmixDiagnostics>> {
  const plan = mixtureOf(specPlan);
  const { schema } = specPlan;
  const { encoding, settings, budget } = plan;
  const rng = ctx.rng;
  const geometry: ClusterGeometry = {
    centroids: initialCentroids(plan.clusters, encoding.boxUpper, rng),
    clusters: plan.clusters,
    clustersPerClass: plan.clustersPerClass,
    dimension: encoding.dimension,
    clipRadius: plan.clipRadius,
    grid: RESIDUAL_GRID,
    numericCoordinates: encoding.numericCoordinates,
  };
  const frequencies = plan.adapt ? drawFrequencies(plan, rng) : null;
  const steps = settings.iterations + 2 + (plan.adapt ? 1 : 0);
  ctx.progress(0, 'encoding rows');
  const rows = encodeRows(table, encoding);
  throwIfAborted(ctx.signal);
  const redrawn: number[] = [];
  if (budget.iterationNoise) {
    for (let t = 1; t <= settings.iterations; t++) {
      ctx.progress((t - 1) / steps, `iteration ${t} of ${settings.iterations}`);
      const step = handles.iterations[t - 1]!;
      const released = releaseClusterStatistics(step, rows, geometry, budget.iterationNoise, rng, ctx.signal);
      redrawn.push(updateCentroids(geometry, released, plan.minClusterSize, encoding.boxUpper, rng));
    }
  }
  ctx.progress(settings.iterations / steps, 'final release');
  const final = releaseClusterStatistics(handles.final, rows, geometry, budget.finalNoise, rng, ctx.signal);
  const released = mixtureFromRelease(geometry, final, plan.minClusterSize, encoding.boxUpper);
  let mixture = released ?? uniformBoxMixture(encoding);
  let adaptDiagnostics: Record<string, unknown> | null = null;
  if (plan.adapt && frequencies && budget.momentNoise && handles.moments) {
    ctx.progress((settings.iterations + 1) / steps, 'random-feature moments');
    const moments = releaseMoments(
      handles.moments,
      rows,
      frequencies,
      encoding.classes,
      budget.momentNoise,
      rng,
      ctx.signal,
    );
    if (released) {
      const adapted = adaptMixture(mixture, moments, frequencies, plan, {
        signal: ctx.signal,
        onStep: (step, total) =>
          ctx.progress((settings.iterations + 1 + step / total) / steps, `adapt step ${step} of ${total}`),
      });
      mixture = adapted.mixture;
      adaptDiagnostics = { initialLoss: adapted.initialLoss, finalLoss: adapted.finalLoss };
    }
  }
  const datasets: D[] = [];
  for (let m = 0; m < ctx.releases; m++) {
    ctx.progress((steps - 1 + m / ctx.releases) / steps, `drawing table ${m + 1} of ${ctx.releases}`);
    datasets.push(
      asDataset(form, sampleRows(mixture, encoding, schema, ctx.n, settings.spread, rng, ctx.signal)),
    );
  }
  ctx.progress(1, 'done');
  return {
    datasets,
    diagnostics: {
      dimension: encoding.dimension,
      clusters: plan.clusters,
      minClusterSize: plan.minClusterSize,
      clipRadius: plan.clipRadius,
      centroidsRedrawnPerIteration: redrawn,
      componentsKept: released ? released.components : 0,
      noClusterKept: released === null,
      ...(adaptDiagnostics ? { adapt: adaptDiagnostics } : {}),
    },
  };
}

/** A table sampled whole (sampleRows) as a dataset of the run's form. */
function asDataset<D>(form: DatasetForm<D>, table: Table): D {
  return form.dataset(
    table.nRows,
    table.columns.map((column) => ({
      whole: column,
      block: (_, start, end) => columnRows(column, start, end),
    })),
  );
}

const defined = defineMechanism(clustmixMeta, {
  // A missing value in a column the schema declares complete: refused before anything is reserved or drawn.
  read: (table, plan) => {
    checkCompleteColumns(table, plan.schema);
    return table;
  },
  draw: drawClustmix,
});

/**
 * ClustMix (3A's Approximate and Anonymize, optionally Adapt), re-derived for replace-one neighbours.
 * It samples each table whole from the mixture, so it offers no run in blocks.
 */
export const clustmix: Mechanism & Omit<typeof defined, 'runInBlocks'> = (({
  runInBlocks: _blocks,
  ...run
}) => run)(defined);

/** The run on whole tables, optionally on a given accountant (tests record its reservations). */
export function runClustmix(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  given?: ZcdpAccountant,
) {
  return defined.drawFromTable(table, schema, params, ctx, WHOLE_TABLES, given);
}
