import { describe, expect, it } from 'vitest';
import type { Schema } from '../../table/types';
import { runContext } from '../common/testing/fixtures';
import { resolveParams } from '../params';
import { dpSequentialRegression } from '.';
import {
  certifiableRows,
  certifiedBetaNorm,
  gradientRoundingBound,
  iterationsForGap,
  lossSmoothness,
  perturbationSettings,
} from './sensitivity';

const u = 2 ** -53;

describe('the rounding bound of the certificate and the row limit it sets', () => {
  it('E = 1.01·u·(n·G + ρ + λ·B) with ρ = 2(d + 3)·B + 2K + 6 + G', () => {
    // n = 1000, d = 3, K = 2 (G = 1), λ = 0.01, B = 10: ρ = 2·6·10 + 4 + 6 + 1 = 131, λB = 0.1.
    expect(gradientRoundingBound(1000, 3, 2, 0.01, 10)).toBe(1.01 * u * (1000 + 131 + 0.1));
    // K = 3 (G = √2), n = 10, d = 1, λ = 1, B = 2: ρ = 2·4·2 + 6 + 6 + √2.
    expect(gradientRoundingBound(10, 1, 3, 1, 2)).toBeCloseTo(
      1.01 * u * (10 * Math.SQRT2 + 16 + 12 + Math.SQRT2 + 2),
      30,
    );
  });

  it('bounds ‖β‖ by √(2·log K/λ) plus twice the gap 2G/(nλ·1000)', () => {
    expect(certifiedBetaNorm(1000, 0.01, 2)).toBeCloseTo(Math.sqrt(200 * Math.LN2) + 2 * (2 / 10 / 1000), 12);
    expect(certifiedBetaNorm(500, 0.1, 3)).toBeCloseTo(
      Math.sqrt(20 * Math.log(3)) + 2 * ((2 * Math.SQRT2) / 50 / 1000),
      12,
    );
  });

  it('N is the largest n with E(n)·n <= G/2000 (E at the public ‖β‖ bound), from the quadratic by hand', () => {
    // One binary column on the intercept alone (d = 1, K = 2, G = 1), λ = 0.01: B ≈ √(200·log 2) = 11.774
    // (the 2·gap term, 1.3e−7 at n ≈ 3e6, moves N by far less than a row), ρ = 8B + 11, and
    // 1.01·u·(n² + (ρ + λB)·n) = 1/2000 at n = (−b + √(b² + 4/(2000·a)))/2 with a = 1.01·u, b = ρ + λB.
    const B = Math.sqrt(200 * Math.LN2);
    const b = 8 * B + 11 + 0.01 * B;
    const root = (-b + Math.sqrt(b * b + 4 / (2000 * 1.01 * u))) / 2;
    expect(certifiableRows(1, 0.01, 2)).toBe(Math.floor(root));
    expect(certifiableRows(1, 0.01, 2)).toBe(2_111_584);
    // A regression of many predictors (d = 10,000, the coefficient limit) and the smallest λ: ρ ≈ 2.7e6
    // comparable with n, so N is lower.
    expect(certifiableRows(10_000, 0.001, 2)).toBe(1_771_783);
  });

  it('check refuses a table above N rows and accepts one of N rows', () => {
    const schema: Schema = {
      version: 1,
      missing: [],
      columns: [
        {
          name: 'w',
          type: 'categorical',
          categories: ['a', 'b'],
          canBeMissing: false,
          source: 'declared',
          sources: { canBeMissing: 'declared' },
        },
      ],
    };
    const params = resolveParams(dpSequentialRegression, {});
    const n = certifiableRows(1, 0.01, 2);
    expect(dpSequentialRegression.check(schema, params, runContext(schema, n))).toEqual([]);
    expect(dpSequentialRegression.check(schema, params, runContext(schema, n + 1))).toEqual([
      'the regression of `w` can be certified for at most 2,111,584 rows (2 classes on 1 predictor): above that ' +
        'the rounding of its gradient could exceed a quarter of the gap its noise covers; the table has 2,111,585. ' +
        'Synthesize from a uniform sample of at most 2,111,584 rows, or choose a mechanism without regressions.',
    ]);
  });
});

describe('the solver settings for two classes', () => {
  it('L = λ + 1/4 for K = 2: T = ⌈log(gap²·λ/(4·log 2))/log(1 − √(λ/L))⌉ = 104 at λ = 0.01, gap = 2e−4', () => {
    // n = 1000, λ = 0.01, G = 1: gap = 2/(1000·0.01)/1000 = 2e−4; target 1.4427e−10, rate 1 − √(0.01/0.26),
    // log(target)/log(rate) = 103.80 → 104 (with L = λ + 1/2 it would be 148.7 → 149 steps, the K >= 3 value).
    expect(iterationsForGap(0.01, 2, 2e-4)).toBe(104);
    expect(perturbationSettings(1000, 0.01, 2).iterations).toBe(104);
    expect(lossSmoothness(2)).toBe(0.25);
    expect(lossSmoothness(3)).toBe(0.5);
  });

  it('no row count can be certified when one row’s rounding alone passes the limit', () => {
    // d = 10¹²: ρ ≈ 2·10¹²·11.8, E(1) ≈ 1.01·2⁻⁵³·2.4·10¹³ ≈ 2.7e−3 > 1/1000.
    expect(certifiableRows(1e12, 0.01, 2)).toBe(0);
  });

  it('names the predictors in the plural in check’s refusal', () => {
    const schema: Schema = {
      version: 1,
      missing: [],
      columns: [
        {
          name: 'z',
          type: 'numeric',
          bounds: [0, 1],
          canBeMissing: false,
          source: 'declared',
          sources: { canBeMissing: 'declared' },
        },
        {
          name: 'w',
          type: 'categorical',
          categories: ['a', 'b'],
          canBeMissing: false,
          source: 'declared',
          sources: { canBeMissing: 'declared' },
        },
      ],
    };
    const n = certifiableRows(2, 0.01, 2) + 1;
    const problems = dpSequentialRegression.check(
      schema,
      resolveParams(dpSequentialRegression, {}),
      runContext(schema, n),
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^the regression of `w` can be certified for at most [\d,]+ rows \(2 classes on 2 predictors\): /,
    );
  });
});
