import { describe, expect, it } from 'vitest';
import { parseRational, Rational } from '../../rng/rational';
import { zcdpRhoFromSquaredSensitivity } from '../../privacy/zcdp';
import { mixedTable, runContext } from '../common/testing/fixtures';
import { resolveParams } from '../params';
import { clustmix } from './index';
import { readClustmixSettings } from './params';
import {
  buildClustmixPlan,
  clusterCount,
  clusterNoise,
  momentNoise,
  planBudget,
  reserveClustmixBudget,
  RESIDUAL_GRID,
  FEATURE_GRID,
} from './plan';
import { RecordingZcdpAccountant } from './testing';

const B = Rational.of(RESIDUAL_GRID);
const N = 5000;
/** zcdpRhoForBudget(1, 1e-4), the ρ of ε = 1 at δ = 10⁻⁴ (CKS Corollary 13), 12 significant digits. */
const RHO = parseRational('0.0406327493929');

function context(overrides: Record<string, unknown> = {}) {
  const { schema } = mixedTable(N);
  return runContext(schema, N, { epsilon: '1', delta: '0.0001', seeded: false, ...overrides });
}

describe('clustmix budget arithmetic', () => {
  it('takes ρ from (ε, δ) and splits it: approxShare over T iterations, the rest to the final release without a label', () => {
    const ctx = context();
    const plan = buildClustmixPlan(ctx.schema, readClustmixSettings(resolveParams(clustmix, {})), ctx);
    expect(plan.budget.rho.equals(RHO)).toBe(true);
    // 0.3ρ over T = 4 iterations; adapt absent (no label), so 1 − 0.3 = 0.7 of ρ is final.
    expect(plan.budget.iterationRho.equals(RHO.mul(parseRational('0.075')))).toBe(true);
    expect(plan.budget.finalRho.equals(RHO.mul(parseRational('0.7')))).toBe(true);
    expect(plan.budget.adaptRho.isZero()).toBe(true);
    expect(plan.adapt).toBe(false);
  });

  it('gives the adapt step its share with a label, and the approx share to the final release when T = 0', () => {
    const ctx = context();
    const withLabel = planBudget(
      RHO,
      readClustmixSettings(resolveParams(clustmix, { label: 'sex', adaptShare: 0.2 })),
    );
    expect(withLabel.adaptRho.equals(RHO.mul(parseRational('0.2')))).toBe(true);
    expect(withLabel.finalRho.equals(RHO.mul(parseRational('0.5')))).toBe(true);
    const noIterations = planBudget(RHO, readClustmixSettings(resolveParams(clustmix, { iterations: 0 })));
    expect(noIterations.finalRho.equals(RHO)).toBe(true);
    expect(noIterations.iterationNoise).toBeNull();
    // α = 1 leaves the centres where they are: no moments are released and ρ stays with the mixture.
    const alphaOne = planBudget(
      RHO,
      readClustmixSettings(resolveParams(clustmix, { label: 'sex', adaptShare: 0.2, alpha: 1 })),
    );
    expect(alphaOne.adaptRho.isZero()).toBe(true);
    expect(ctx.n).toBe(N);
  });

  it('sets σ² = Δ²/(2ρ) exactly for each statistic (ρ_N : ρ_S : ρ_Q = 1 : 2 : 1, ρ_A : ρ_b = 1 : 1)', () => {
    const rho = parseRational('0.04');
    const noise = clusterNoise(rho, true);
    const unit = parseRational('0.01');
    // counts: Δ² = 2, ρ_N = 0.01 → σ² = 100; sums: Δ² = 4B², ρ_S = 0.02 → σ² = 100B²;
    // squares: Δ² = 2B⁴, ρ_Q = 0.01 → σ² = 100B⁴.
    expect(noise.countSigma2.equals(Rational.of(100))).toBe(true);
    expect(noise.sumSigma2.equals(Rational.of(100).mul(B).mul(B))).toBe(true);
    expect(noise.squareSigma2!.equals(Rational.of(100).mul(B.mul(B)).mul(B.mul(B)))).toBe(true);
    const rhoOf = (d2: Rational, s2: Rational) => zcdpRhoFromSquaredSensitivity(d2, s2);
    const total = rhoOf(Rational.of(2), noise.countSigma2)
      .add(rhoOf(Rational.of(4).mul(B).mul(B), noise.sumSigma2))
      .add(rhoOf(Rational.of(2).mul(B.mul(B)).mul(B.mul(B)), noise.squareSigma2!));
    expect(total.equals(rho)).toBe(true);
    expect(rhoOf(Rational.of(2), noise.countSigma2).equals(unit)).toBe(true);
    const iteration = clusterNoise(parseRational('0.03'), false);
    expect(iteration.countSigma2.equals(Rational.of(100))).toBe(true); // ρ_N = 0.01
    expect(iteration.sumSigma2.equals(Rational.of(100).mul(B).mul(B))).toBe(true); // ρ_S = 0.02
    expect(iteration.squareSigma2).toBeNull();
    const bPhi = Rational.of(FEATURE_GRID);
    const moments = momentNoise(parseRational('0.02'));
    // A: Δ² = 2B_φ⁴, ρ_A = 0.01 → σ² = 100B_φ⁴; b: Δ² = 4B_φ², ρ_b = 0.01 → σ² = 200B_φ².
    expect(moments.gramSigma2.equals(Rational.of(100).mul(bPhi.mul(bPhi)).mul(bPhi.mul(bPhi)))).toBe(true);
    expect(moments.crossSigma2.equals(Rational.of(200).mul(bPhi).mul(bPhi))).toBe(true);
  });

  it('computes l_min and the automatic K as worked by hand', () => {
    // No label: p = 3, C = 0.2·√3 = 0.346410; final ρ = 0.7ρ = 0.0284429, ρ_S = 0.0142215,
    // l_min = ⌈2C/(√(2ρ_S)·σmax)⌉ = ⌈0.692820/(0.168650·0.1)⌉ = ⌈41.08⌉ = 42; K = ⌊5000/84⌋ = 59.
    const ctx = context();
    const plan = buildClustmixPlan(ctx.schema, readClustmixSettings(resolveParams(clustmix, {})), ctx);
    expect(plan.clipRadius).toBeCloseTo(0.34641016, 8);
    expect(plan.minClusterSize).toBe(42);
    expect(plan.clusters).toBe(59);
    // Label sex: p = 2, C = 0.282843; final ρ = 0.5ρ = 0.0203164, √(2ρ_S) = 0.142536,
    // l_min = ⌈0.565685/0.0142536⌉ = ⌈39.69⌉ = 40; ⌊5000/80⌋ = 62 → a multiple of 3 classes: 60.
    const labelled = buildClustmixPlan(
      ctx.schema,
      readClustmixSettings(resolveParams(clustmix, { label: 'sex', adaptShare: 0.2 })),
      ctx,
    );
    expect(labelled.minClusterSize).toBe(40);
    expect(labelled.clusters).toBe(60);
    expect(labelled.clustersPerClass).toBe(20);
  });

  it('clamps the automatic K into [classes, 500] and rounds K down to a multiple of the classes', () => {
    expect(clusterCount(0, 10, 50, 3)).toBe(3);
    expect(clusterCount(0, 10_000_000, 2, 1)).toBe(500);
    expect(clusterCount(0, 10_000_000, 2, 3)).toBe(498);
    expect(clusterCount(10, 0, 1, 3)).toBe(9);
    expect(clusterCount(2, 0, 1, 3)).toBe(3);
  });

  it('reserves exactly the ρ of each step, in claim order, and the claim states their composition', () => {
    const ctx = context({ epsilon: '1', delta: '0.0001' });
    const params = resolveParams(clustmix, { label: 'sex', adaptShare: 0.2 });
    const plan = buildClustmixPlan(ctx.schema, readClustmixSettings(params), ctx);
    const accountant = new RecordingZcdpAccountant(RHO, parseRational('0.0001'));
    reserveClustmixBudget(accountant, plan);
    const iteration = RHO.mul(parseRational('0.075'));
    expect(accountant.reserved.map((s) => s.what)).toEqual([
      'noisy counts and clipped residual sums of 60 clusters, iteration 1 of 4',
      'noisy counts and clipped residual sums of 60 clusters, iteration 2 of 4',
      'noisy counts and clipped residual sums of 60 clusters, iteration 3 of 4',
      'noisy counts and clipped residual sums of 60 clusters, iteration 4 of 4',
      'noisy counts and clipped residual sums of 60 clusters and squared norms (final mixture)',
      'noisy random-feature moments, 64 features (adapt)',
    ]);
    const rhos = accountant.reserved.map((s) => s.rho);
    for (const rho of rhos.slice(0, 4)) expect(rho.equals(iteration)).toBe(true);
    expect(rhos[4]!.equals(RHO.mul(parseRational('0.5')))).toBe(true);
    expect(rhos[5]!.equals(RHO.mul(parseRational('0.2')))).toBe(true);
    expect(accountant.spent().equals(RHO)).toBe(true);
    const claim = clustmix.claim(params, ctx);
    expect(claim.notion).toBe('approx-dp');
    expect(claim.bound).toBe('proven');
    expect(claim.delta).toBe(0.0001);
    expect(claim.rho).toBe(0.0406328); // ρ rounded up to 6 digits
    expect(claim.epsilon).toBeGreaterThanOrEqual(1);
    expect(claim.epsilon).toBeLessThan(1.000001); // the conversion of the whole ρ, rounded up
    expect(claim.steps.map((s) => s.what)).toEqual(accountant.reserved.map((s) => s.what));
  });
});
