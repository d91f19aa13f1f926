/**
 * The whole-number flag at the studio's default budget (ε = 0.5, δ = 1e-6): a column of whole
 * numbers must be called whole with probability at least 1 − β, β = 1/20. The flag's draw is
 * wrapped (it still draws with the real code) to read the count, threshold and ε learnDomain hands
 * it, and the probability is then computed exactly from the discrete Laplace pmf, not estimated.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expm1LowerBound } from '../privacy/expm1-lower-bound';
import { parseRational, Rational } from '../rng/rational';
import { SeededRng } from '../rng/seeded-rng';
import { parseCsv } from '../table/csv-read';
import { inferSchema } from '../table/infer';
import { DEFAULT_DOMAIN_DELTA, DEFAULT_DOMAIN_EPSILON } from './domain-defaults';
import { learnDomain } from './learn-domain';

const flags = vi.hoisted(() => [] as { nonWhole: number; threshold: number; epsilon: Rational }[]);

vi.mock('./dp-whole-number', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./dp-whole-number')>();
  return {
    ...actual,
    dpWholeNumber: (...args: Parameters<typeof actual.dpWholeNumber>) => {
      flags.push({ nonWhole: args[2], threshold: args[3], epsilon: args[4] });
      return actual.dpWholeNumber(...args);
    },
  };
});

afterEach(() => {
  flags.length = 0;
});

/** `columns` columns of n whole numbers each (different ranges), every tenth cell missing. */
function wholeTable(n: number, columns: number) {
  const names = Array.from({ length: columns }, (_, j) => `w${j}`);
  const rows = Array.from({ length: n }, (_, i) =>
    names.map((_, j) => (i % 10 === 9 ? '' : String((i * (j + 3)) % (50 + 100 * j)))).join(','),
  );
  return parseCsv([names.join(','), ...rows].join('\n'), { fileName: 'whole.csv' });
}

describe('whole-number flag at the default budget', () => {
  it.each([
    [150, 1],
    [1000, 1],
    [100_000, 1],
    [1000, 3],
    [20_000, 6],
  ])(
    'calls a whole column of %i rows (%i columns learned) whole with probability >= 0.95 (exact)',
    (n, columns) => {
      const raw = wholeTable(n, columns);
      const { steps, plan } = learnDomain(
        raw,
        inferSchema(raw),
        // Forced: at this budget the plan finds the bounds too imprecise on these rows.
        { epsilon: DEFAULT_DOMAIN_EPSILON, delta: DEFAULT_DOMAIN_DELTA, force: true },
        new SeededRng(`default ${n} ${columns}`),
      );
      const recorded = steps.filter((s) => s.fact.endsWith('.integer'));
      // Every column came out numeric and had its flag drawn once, with the ε its step records:
      // the share the plan gave the flag.
      expect(flags).toHaveLength(columns);
      expect(recorded).toHaveLength(columns);
      const planned = plan.facts.filter((f) => f.part === 'integer');
      flags.forEach((flag, j) => {
        expect(flag.nonWhole).toBe(0);
        expect(parseRational(recorded[j]!.epsilon).compare(flag.epsilon)).toBe(0);
        expect(flag.epsilon.compare(planned[j]!.epsilon)).toBe(0);
        // P(called fractional) = P(Z >= T) = p^T/(1 + p), p = e^(−ε), Z discrete Laplace of scale 1/ε.
        const epsilon = flag.epsilon.toNumberDown();
        const p = Math.exp(-epsilon);
        expect(1 - p ** flag.threshold / (1 + p)).toBeGreaterThanOrEqual(0.95);
        // Exactly: p^T/(1 + p) < e^(−εT) <= 1/(1 + expm1LowerBound(εT)) <= 1/20.
        const growth = Rational.ONE.add(expm1LowerBound(flag.epsilon.mul(Rational.of(flag.threshold))));
        expect(growth.compare(Rational.of(20))).toBeGreaterThanOrEqual(0);
      });
    },
  );

  it('the same exact test fails for the threshold from n alone at the default budget (control)', () => {
    // One column of 1,000 rows at the flag's share of ε = 0.5: T = ⌈1000/200⌉ = 5 alone gives
    // P(Z >= 5) well above 1/20.
    const raw = wholeTable(1000, 1);
    learnDomain(
      raw,
      inferSchema(raw),
      // Forced: at this budget the plan finds the bounds too imprecise on these rows.
      { epsilon: DEFAULT_DOMAIN_EPSILON, delta: DEFAULT_DOMAIN_DELTA, force: true },
      new SeededRng('control'),
    );
    const flag = flags[0]!;
    expect(flag.threshold).toBeGreaterThan(5);
    const p = Math.exp(-flag.epsilon.toNumberDown());
    expect(1 - p ** 5 / (1 + p)).toBeLessThan(0.95);
    const growth = Rational.ONE.add(expm1LowerBound(flag.epsilon.mul(Rational.of(5))));
    expect(growth.compare(Rational.of(20))).toBeLessThan(0);
  });
});
