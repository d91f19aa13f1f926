import { describe, expect, it } from 'vitest';
import { recordingStep } from '../../../privacy/metered/testing';
import { makeDiscreteGaussianSampler } from '../../../rng/discrete-gaussian';
import { Rational } from '../../../rng/rational';
import { SeededRng } from '../../../rng/seeded-rng';
import type { Schema } from '../../../table/types';
import { InputError } from '../../../table/errors';
import { gridL1Error, SCORE_GRID, SCORE_MAX_ROWS } from './grid-score';
import { addDiscreteGaussianNoise } from './noisy-marginal';
import { deltaIsZero, deltaProblem, zcdpAccountantFor } from './pgm-budget';
import { marginalLimitProblem, planPgmDomain, SAMPLING_PARAM } from './pgm-domain';

describe('gridL1Error', () => {
  it('is ‖x − m‖₁ in units of 2^−20, with the model rounded to the grid first', () => {
    expect(SCORE_GRID).toBe(2 ** 20);
    expect(SCORE_MAX_ROWS).toBe(2 ** 31);
    // |3 − 2.5| + |1 − 1.5| + |0 − 0| = 1 → 2^20 units.
    expect(gridL1Error(Float64Array.of(3, 1, 0), Float64Array.of(2.5, 1.5, 0))).toBe(2n ** 20n);
    // m = 1/3 rounds to round(2^20/3) = 349525 units; |2^20 − 349525| = 699051.
    expect(gridL1Error(Float64Array.of(1), Float64Array.of(1 / 3))).toBe(699051n);
    expect(gridL1Error(Float64Array.of(0, 2), Float64Array.of(2, 0))).toBe(4n * 2n ** 20n);
    expect(gridL1Error(new Float64Array(0), new Float64Array(0))).toBe(0n);
  });

  it('moves by at most 2·2^20 units when one row is replaced (the sensitivity of the selection)', () => {
    const model = Float64Array.of(0.7, 2.2, 1.1);
    const before = gridL1Error(Float64Array.of(1, 2, 1), model);
    const after = gridL1Error(Float64Array.of(0, 2, 2), model);
    expect(Math.abs(Number(after - before))).toBeLessThanOrEqual(2 * 2 ** 20);
  });

  it('stays exact past 2^53 grid units and past 2^31 rows: no table is refused for its size', () => {
    // Each term by hand in bigints: x·2^20 − round(m·2^20).
    const byHand = (counts: number[], model: number[]) =>
      counts.reduce((sum, x, c) => {
        const term = BigInt(x) * 2n ** 20n - BigInt(Math.round(model[c]! * 2 ** 20));
        return sum + (term < 0n ? -term : term);
      }, 0n);
    expect(gridL1Error(Float64Array.of(2 ** 40), Float64Array.of(0))).toBe(2n ** 60n);
    // A count past 2^33: x·2^20 passes 2^53, where a double sum would round (2^53 + 1 is not a double).
    const big = [2 ** 33 + 1, 3, 0];
    const model = [2 ** 33 + 0.25, 1.5, 2 / 3];
    expect(gridL1Error(Float64Array.from(big), Float64Array.from(model))).toBe(byHand(big, model));
    expect(byHand(big, model)).toBe(2n ** 20n - 2n ** 18n + 3n * 2n ** 19n + 699051n);
    // n = 3·2^32 + 7 rows (counts from a count source): a replaced row moves the score by at most
    // 2·2^20, exactly, and the neighbour reaching that bound shows it is attained.
    const counts = [2 ** 33, 2 ** 32 + 5, 2];
    const fitted = [2 ** 33 - 0.4, 2 ** 32 + 6.1, 0.3];
    const base = gridL1Error(Float64Array.from(counts), Float64Array.from(fitted));
    expect(base).toBe(byHand(counts, fitted));
    let largest = 0n;
    for (let from = 0; from < 3; from++) {
      for (let to = 0; to < 3; to++) {
        const moved = [...counts];
        moved[from]! -= 1;
        moved[to]! += 1;
        const change = gridL1Error(Float64Array.from(moved), Float64Array.from(fitted)) - base;
        largest = change > largest ? change : -change > largest ? -change : largest;
      }
    }
    expect(largest).toBe(2n * 2n ** 20n);
  });
});

describe('addDiscreteGaussianNoise', () => {
  it('adds one draw of the exact discrete Gaussian to every cell, in cell order, and charges 1/σ² once', () => {
    const sigma2 = Rational.of(9, 2);
    const counts = Float64Array.of(10, 0, 3, 7, 1);
    const step = recordingStep();
    const noisy = addDiscreteGaussianNoise(step, new SeededRng('marginal'), counts, sigma2);
    // A marginal under replace-one: Δ₂² = 2, so ρ = 2/(2σ²) = 1/σ² = 2/9 (CKS 2020, Theorem 4).
    expect(step.charges).toEqual([{ notion: 'zcdp', rho: Rational.of(2, 9) }]);
    const sample = makeDiscreteGaussianSampler(sigma2);
    const rng = new SeededRng('marginal');
    expect(Array.from(noisy)).toEqual(Array.from(counts, (x) => x + sample(rng)));
    expect(Array.from(counts)).toEqual([10, 0, 3, 7, 1]);
    expect(noisy).not.toBe(counts);
  });

  it('stops when aborted', () => {
    expect(() =>
      addDiscreteGaussianNoise(recordingStep(), new SeededRng(1), Float64Array.of(1, 2), Rational.ONE, {
        aborted: true,
      }),
    ).toThrow(expect.objectContaining({ name: 'AbortError' }));
  });
});

describe('the zCDP budget of a graphical-model mechanism', () => {
  it('is the largest ρ within (ε, δ), and δ = 0 is refused with a sentence', () => {
    const accountant = zcdpAccountantFor({ epsilon: '1', delta: '1e-5' }, 'mst');
    // zcdpRhoForBudget(1, 1e-5) = 0.030556595197639567 (mpmath golden, privacy-golden.json), 12 digits down.
    expect(accountant.rhoBudget.toNumber()).toBe(0.0305565951976);
    expect(accountant.delta.toNumber()).toBe(1e-5);
    expect(() => zcdpAccountantFor({ epsilon: '1', delta: '0' }, 'mst')).toThrow(InputError);
    expect(() => zcdpAccountantFor({ epsilon: '1', delta: '0' }, 'aim')).toThrow(deltaProblem('aim'));
    expect(deltaProblem('aim')).toBe(
      'aim adds Gaussian noise, whose guarantee is stated as (ε, δ): set δ > 0 (for example 1e-9, well below 1/n).',
    );
  });

  it('says whether δ is zero, leaving budgets that do not parse to the budget fields', () => {
    expect(deltaIsZero({ epsilon: '1', delta: '0' })).toBe(true);
    expect(deltaIsZero({ epsilon: '1', delta: '1e-9' })).toBe(false);
    expect(deltaIsZero({ epsilon: 'one', delta: '0' })).toBe(false);
  });
});

describe('the graphical model domain', () => {
  const schema: Schema = {
    version: 1,
    columns: [
      { name: 'age', type: 'numeric', bounds: [0, 100], source: 'declared' },
      { name: 'sex', type: 'categorical', categories: ['F', 'M'], source: 'declared' },
    ],
    missing: [''],
  };

  it('has one attribute per column with its levels, the missing level included', () => {
    const domain = planPgmDomain(schema, { bins: 4 }, 100);
    expect(domain.sizes).toEqual([5, 3]);
    expect(domain.codings.map((c) => c.name)).toEqual(['age', 'sex']);
    expect(domain.problems).toEqual([]);
  });

  it('never limits the full cross-tabulation, which a graphical model does not build', () => {
    // 1001³ levels of three numeric columns: far above the 20,000,000-cell limit of a histogram.
    const wide: Schema = {
      ...schema,
      columns: ['a', 'b', 'c'].map((name) => ({
        name,
        type: 'numeric' as const,
        bounds: [0, 1] as [number, number],
        source: 'declared' as const,
      })),
    };
    const domain = planPgmDomain(wide, { bins: 1000 }, 100);
    expect(domain.problems).toEqual([]);
    expect(domain.sizes).toEqual([1001, 1001, 1001]);
  });

  it("offers balanced rounding (the default), private-pgm's rounding or independent draws for sampling", () => {
    expect(SAMPLING_PARAM.name).toBe('sampling');
    expect(SAMPLING_PARAM.type).toBe('enum');
    expect(SAMPLING_PARAM.default).toBe('balanced');
    expect(SAMPLING_PARAM.options?.map((option) => option.value)).toEqual(['balanced', 'round', 'sample']);
  });

  it('refuses a marginal above the cell limit, naming its columns and sizes', () => {
    expect(marginalLimitProblem(['a', 'b'], 20_000_000, 'A marginal')).toBeUndefined();
    expect(marginalLimitProblem(['a', 'b'], 20_000_001, 'A marginal')).toBe(
      'A marginal on `a` × `b` has 20,000,001 cells, more than the limit of 20,000,000: choose fewer bins ' +
        '(a smaller `bins` or `columnBins`).',
    );
  });
});
