import { vi } from 'vitest';
import { regularizedGammaP } from '../../stats/regularized-gamma';
import { regularizedIncompleteBeta } from '../../stats/regularized-incomplete-beta';
import { tabulatePmf } from '../../rng/testing/distribution-fit';
import type { Schema, Table } from '../../table/types';
import { categoricalColumn, numericColumn } from '../common/testing/fixtures';
import { describeNoiseAudit, type AuditBudget } from '../common/testing/noise-audit';
import { discreteLaplaceMass } from '../common/testing/released-count-distributions';
import { resolveParams } from '../params';
import { dpSequentialRegression } from './index';

const recorded: Float64Array[] = [];
vi.mock('../../privacy/metered/output-perturbation', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../privacy/metered/output-perturbation')>();
  return {
    ...actual,
    meteredOutputPerturbation: (...args: Parameters<typeof actual.meteredOutputPerturbation>) => {
      const noisy = actual.meteredOutputPerturbation(...args);
      const estimate = args[2];
      recorded.push(noisy.map((b, c) => b - estimate[c]!));
      return noisy;
    },
  };
});

/** The noise of each release's regression since the last take; throws when a release drew none. */
function takeRegressionNoise(releases: number): Float64Array[] {
  const noise = recorded.splice(0);
  if (noise.length !== releases)
    throw new Error(`${noise.length} regressions perturbed for ${releases} releases`);
  return noise;
}

// The audit table: n = 12 rows, z = i mod 11 in [0, 10] and w in {a, b, c} (w = a, b, c, a, …): one
// regression, w on (intercept, z), K = 3 classes, D = (K − 1)·2 = 4 coefficients. With missingShare
// 1/4 the three statistics of a release (mean, variance, regression) get (3/4)·(ε/M)/3 = ε/(4M) each.
const N = 12;
const LAMBDA = 0.5;
const D = 4;
const table: Table = {
  nRows: N,
  columns: [
    numericColumn(
      'z',
      Array.from({ length: N }, (_, i) => i % 11),
    ),
    categoricalColumn(
      'w',
      Array.from({ length: N }, (_, i) => 'abc'[i % 3]!),
    ),
  ],
};
const schema: Schema = {
  version: 1,
  missing: [],
  columns: [
    { name: 'z', type: 'numeric', bounds: [0, 10], source: 'declared' },
    { name: 'w', type: 'categorical', categories: ['a', 'b', 'c'], source: 'declared' },
  ],
};
const params = resolveParams(dpSequentialRegression, { lambda: LAMBDA, missingShare: 0.25 });
const budget: AuditBudget = { epsilon: 4, releases: 2 };
const statisticEpsilon = (at: AuditBudget) => at.epsilon / (4 * at.releases);

// Chaudhuri & Monteleoni's output perturbation, re-derived for three classes: Δ = 2√2/(nλ) (the
// gradient of a multinomial row loss has norm up to √2), plus twice the solver's gap Δ/1000; noise
// density ∝ exp(−ε‖e‖/Δ), so ‖e‖ ~ Gamma(D, Δ/ε) and e₁²/‖e‖² ~ Beta(½, (D − 1)/2), independent.
// The observation: the norm's bin among 6 bins equally likely under the claim, times 3, plus the
// direction's bin among 3 equally likely ones: 18 values, uniform under a correct run.
const SENSITIVITY = ((2 * Math.SQRT2) / (N * LAMBDA)) * (1 + 2 / 1000);
const scaleAt = (at: AuditBudget) => SENSITIVITY / statisticEpsilon(at);
function quantile(cdf: (x: number) => number, p: number, hi: number): number {
  let [a, b] = [0, hi];
  for (let i = 0; i < 200; i++) {
    const m = (a + b) / 2;
    if (cdf(m) < p) a = m;
    else b = m;
  }
  return (a + b) / 2;
}
const claimedScale = scaleAt(budget);
const NORM_BINS = 6;
const DIRECTION_BINS = 3;
const normEdges = Array.from({ length: NORM_BINS - 1 }, (_, b) =>
  quantile((r) => regularizedGammaP(D, r / claimedScale), (b + 1) / NORM_BINS, 100 * claimedScale),
);
const directionEdges = Array.from({ length: DIRECTION_BINS - 1 }, (_, b) =>
  quantile((u) => regularizedIncompleteBeta(u, 0.5, (D - 1) / 2), (b + 1) / DIRECTION_BINS, 1),
);
const binOf = (value: number, edges: number[]) => edges.filter((edge) => value >= edge).length;

function observeNoise(e: Float64Array): number {
  const squared = e.reduce((s, v) => s + v * v, 0);
  return (
    binOf(Math.sqrt(squared), normEdges) * DIRECTION_BINS + binOf((e[0]! * e[0]!) / squared, directionEdges)
  );
}

describeNoiseAudit({
  mechanism: dpSequentialRegression,
  table,
  schema,
  params,
  budget,
  what: 'the output perturbation of the three-class regression of w',
  observeRun: () => takeRegressionNoise(budget.releases).map(observeNoise),
  expected: (at) => {
    const scale = scaleAt(at);
    const cdf = (r: number) => regularizedGammaP(D, r / scale);
    const edges = [0, ...normEdges, Infinity];
    return tabulatePmf(0, NORM_BINS * DIRECTION_BINS - 1, (cell) => {
      const b = Math.floor(cell / DIRECTION_BINS);
      return (cdf(edges[b + 1]!) - cdf(edges[b]!)) / DIRECTION_BINS;
    });
  },
  broken: {
    'no noise': { epsilon: 1e6, releases: 2 },
    'the binary sensitivity 2/(nλ) for a three-class response (scale ÷ √2)': {
      epsilon: 4 * Math.SQRT2,
      releases: 2,
    },
    'the release’s whole ε on the regression (scale ÷ 4)': { epsilon: 16, releases: 2 },
  },
  runs: 3_000,
});

// The mean of z: (0 + 1 + … + 10 + 0)/12 − 5 = −5/12, on the grid (10/12)/100 = 1/120: index −50. It
// gets exact discrete Laplace noise of 101/(ε/(4M)) grid steps; the run's diagnostics hold the noisy mean.
describeNoiseAudit({
  mechanism: dpSequentialRegression,
  table,
  schema,
  params,
  budget: { epsilon: 404, releases: 2 },
  what: 'the noisy mean of z',
  observeRun: (release) => {
    recorded.length = 0;
    return (release.diagnostics.sanitizedStatistics as { means: Record<string, number> }[]).map(
      (statistics) => Math.round((statistics.means.z! - 5) * 120) + 50,
    );
  },
  expected: (at) => tabulatePmf(-40, 40, (z) => discreteLaplaceMass(z, 101 / statisticEpsilon(at))),
  broken: {
    'no noise': { epsilon: 1e6, releases: 2 },
    'the release’s whole ε on the mean (scale ÷ 4)': { epsilon: 1616, releases: 2 },
    'sensitivity (c₁ − c₀)/(2n), as if the mean moved by half the width (scale ÷ 2)': {
      epsilon: 808,
      releases: 2,
    },
  },
  runs: 2_000,
});
