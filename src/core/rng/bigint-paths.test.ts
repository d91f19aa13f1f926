import { beforeEach, describe, expect, it, vi } from 'vitest';
import { bernoulliExpNegBig } from './bernoulli-exp-neg';
import { makeDiscreteGaussianSampler } from './discrete-gaussian';
import { makeDiscreteLaplaceSampler } from './discrete-laplace';
import { makeGeometricExpNegSampler } from './geometric-exp-neg';
import { Rational } from './rational';
import { SeededRng } from './seeded-rng';
import { fitDraws, powerAgainst, tabulatePmf, type IntegerPmf } from './testing/distribution-fit';
import { uniformBigInt } from './uniform-int';

/**
 * The bigint paths of the exact samplers (taken when a rational parameter has a numerator or
 * denominator beyond 2^53): pass-through spies on the integer primitives show that the path was
 * taken (and that a nearby safe parameter does not take it), a chi-square test at α = 10⁻⁶ fits
 * the draws, and the same test is shown, by computed power and by drawing, to reject the
 * parameter × 1.3.
 */
vi.mock('./uniform-int', async (importOriginal) => {
  const original = await importOriginal<typeof import('./uniform-int')>();
  return { ...original, uniformBigInt: vi.fn(original.uniformBigInt) };
});
vi.mock('./bernoulli-exp-neg', async (importOriginal) => {
  const original = await importOriginal<typeof import('./bernoulli-exp-neg')>();
  return { ...original, bernoulliExpNegBig: vi.fn(original.bernoulliExpNegBig) };
});

const ALPHA = 1e-6;
const DRAWS = 20_000;

beforeEach(() => {
  vi.mocked(uniformBigInt).mockClear();
  vi.mocked(bernoulliExpNegBig).mockClear();
});

/** P(x) ∝ e^(−|x|/b) over ±40b: outside mass below e^(−40). */
const laplacePmf = (b: number) => {
  const reach = Math.ceil(40 * b);
  return tabulatePmf(-reach, reach, (x) => Math.exp(-Math.abs(x) / b));
};
/** P(x) ∝ e^(−x²/(2σ²)) over ±(12σ + 2). */
const gaussianPmf = (sigma2: number) => {
  const reach = Math.ceil(12 * Math.sqrt(sigma2)) + 2;
  return tabulatePmf(-reach, reach, (x) => Math.exp(-(x * x) / (2 * sigma2)));
};
/** P(k) ∝ e^(−γk), k ≥ 0, up to 40/γ. */
const geometricPmf = (gamma: number) => tabulatePmf(0, Math.ceil(40 / gamma), (k) => Math.exp(-gamma * k));

/** Fit at the parameter, computed power against parameter × 1.3, and the × 1.3 sampler rejected. */
function expectFitAndPower(
  sampler: () => number,
  wrongSampler: () => number,
  truth: IntegerPmf,
  wrong: IntegerPmf,
): void {
  const fit = fitDraws(sampler, DRAWS, truth);
  expect(fit.pValue, `X² = ${fit.statistic}`).toBeGreaterThan(ALPHA);
  const power = powerAgainst(truth, wrong, DRAWS, ALPHA);
  expect(power.fiveSigmaLowerStatistic, `λ = ${power.noncentrality}`).toBeGreaterThan(power.critical);
  expect(fitDraws(wrongSampler, DRAWS, truth).pValue).toBeLessThan(ALPHA);
}

describe('bigint paths of the exact samplers', () => {
  it('discrete Laplace with scale (2^60 + 1)/2^57 ≈ 8 draws through uniformBigInt and fits', () => {
    const scale = Rational.of((1n << 60n) + 1n, 1n << 57n);
    const wrongScale = Rational.of(13n * ((1n << 60n) + 1n), 10n << 57n);
    const rng = new SeededRng('bigint laplace');
    const sampler = makeDiscreteLaplaceSampler(scale);
    const wrong = makeDiscreteLaplaceSampler(wrongScale);
    expectFitAndPower(
      () => sampler(rng),
      () => wrong(rng),
      laplacePmf(8),
      laplacePmf(8 * 1.3),
    );
    expect(vi.mocked(uniformBigInt).mock.calls.length).toBeGreaterThanOrEqual(2 * DRAWS);
    // The same scale as a small rational stays on JS numbers.
    vi.mocked(uniformBigInt).mockClear();
    const safe = makeDiscreteLaplaceSampler(Rational.of(8));
    for (let i = 0; i < 1000; i++) safe(rng);
    expect(vi.mocked(uniformBigInt)).not.toHaveBeenCalled();
  });

  it('discrete Gaussian with σ² = (3·2^60 + 1)/2^60 ≈ 3 accepts through bernoulliExpNegBig and fits', () => {
    const sigma2 = Rational.of(3n * (1n << 60n) + 1n, 1n << 60n);
    const wrongSigma2 = Rational.of(13n * (3n * (1n << 60n) + 1n), 10n << 60n);
    const rng = new SeededRng('bigint gauss');
    const sampler = makeDiscreteGaussianSampler(sigma2);
    const wrong = makeDiscreteGaussianSampler(wrongSigma2);
    expectFitAndPower(
      () => sampler(rng),
      () => wrong(rng),
      gaussianPmf(3),
      gaussianPmf(3 * 1.3),
    );
    expect(vi.mocked(bernoulliExpNegBig).mock.calls.length).toBeGreaterThanOrEqual(2 * DRAWS);
    vi.mocked(bernoulliExpNegBig).mockClear();
    const safe = makeDiscreteGaussianSampler(Rational.of(3));
    for (let i = 0; i < 1000; i++) safe(rng);
    expect(vi.mocked(bernoulliExpNegBig)).not.toHaveBeenCalled();
  });

  it('geometric with γ = (2^70 + 1)/2^71 ≈ 0.5 draws through uniformBigInt and fits', () => {
    const gamma = Rational.of((1n << 70n) + 1n, 1n << 71n);
    const wrongGamma = Rational.of(13n * ((1n << 70n) + 1n), 10n << 71n);
    const rng = new SeededRng('bigint geometric');
    const sampler = makeGeometricExpNegSampler(gamma);
    const wrong = makeGeometricExpNegSampler(wrongGamma);
    expectFitAndPower(
      () => sampler(rng),
      () => wrong(rng),
      geometricPmf(0.5),
      geometricPmf(0.5 * 1.3),
    );
    expect(vi.mocked(uniformBigInt).mock.calls.length).toBeGreaterThanOrEqual(DRAWS);
    vi.mocked(uniformBigInt).mockClear();
    const safe = makeGeometricExpNegSampler(Rational.of(1, 2));
    for (let i = 0; i < 1000; i++) safe(rng);
    expect(vi.mocked(uniformBigInt)).not.toHaveBeenCalled();
  });
});
