import { checkCompleteColumns } from '../../table/complete-columns';
import { InputError } from '../../table/errors';
import { throwIfAborted } from '../../abort';
import type { Schema, Table } from '../../table/types';
import type { Mechanism, ParamValues, Release, RunContext } from '../types';
import { adaptMixture, drawFrequencies, releaseMoments } from './adapt';
import { clustmixClaimAssumptions } from './claim';
import { releaseClusterStatistics, type ClusterGeometry } from './cluster-statistics';
import { encodeRows } from './encoding';
import { clustmixMeta } from './meta';
import { initialCentroids, mixtureFromRelease, updateCentroids } from './mixture';
import { readClustmixSettings } from './params';
import {
  buildClustmixPlan,
  clustmixAccountant,
  clustmixProblems,
  RESIDUAL_GRID,
  reserveClustmixBudget,
  type RhoReserver,
} from './plan';
import { sampleRows, uniformBoxMixture } from './sample-rows';

export { clustmixMeta } from './meta';

/** A run's reserver: reserve() before any draw, claim() after. */
export interface ClustmixAccountant extends RhoReserver {
  claim(assumptions: string[]): Release['claim'];
}

/**
 * ClustMix: reserve every step, draw K centroids uniformly in the box (and the random frequencies),
 * T noisy Lloyd iterations, the final noisy release → mixture, the optional DP-KIP adaptation of the
 * centres from noisy random-feature moments, then M tables sampled from the one mixture.
 */
export async function runClustmix(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  given?: ClustmixAccountant,
): Promise<Release> {
  const problems = clustmixProblems(schema, params, ctx);
  if (problems.length > 0) throw new InputError(`clustmix cannot run: ${problems.join(' ')}`);
  // A missing value in a column the schema declares complete: refused before anything is reserved or drawn.
  checkCompleteColumns(table, schema);
  const accountant = given ?? clustmixAccountant(ctx, ctx.meter);
  const plan = buildClustmixPlan(schema, readClustmixSettings(params), ctx);
  const handles = reserveClustmixBudget(accountant, plan);
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
  const datasets: Table[] = [];
  for (let m = 0; m < ctx.releases; m++) {
    ctx.progress((steps - 1 + m / ctx.releases) / steps, `drawing table ${m + 1} of ${ctx.releases}`);
    datasets.push(sampleRows(mixture, encoding, schema, ctx.n, settings.spread, rng, ctx.signal));
  }
  ctx.progress(1, 'done');
  return {
    datasets,
    claim: accountant.claim(clustmixClaimAssumptions(plan, ctx)),
    dataHolderDiagnostics: {},
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

/** ClustMix (3A's Approximate and Anonymize, optionally Adapt), re-derived for replace-one neighbours. */
export const clustmix: Mechanism = {
  ...clustmixMeta,
  run: (table, schema, params, ctx) => runClustmix(table, schema, params, ctx),
};
