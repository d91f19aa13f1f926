import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../rng';
import type { Schema } from '../../table/types';
import { buildSynthesisModel } from './model';
import {
  drawModelNoise,
  makeModelSpaceColumns,
  makeSynthesisScratch,
  synthesizeModelSpace,
} from './synthesize';
import { mean } from '../../stats/mean';

function boxMuller(rng: SeededRng): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - rng.nextFloat())) * Math.cos(2 * Math.PI * rng.nextFloat());
}

function variance(values: Float64Array): number {
  const m = mean(values);
  return values.reduce((sum, x) => sum + (x - m) ** 2, 0) / (values.length - 1);
}

const paperSchema: Schema = {
  version: 1,
  columns: [
    { name: 'x1', type: 'numeric', source: 'declared' },
    { name: 'x2', type: 'numeric', source: 'declared' },
  ],
  missing: [''],
};

describe('synthesizeModelSpace', () => {
  const rows = 20_000;

  it('draws the paper’s model X1 ~ N(2, 10), X2 ~ N(−2.5 + 0.5·x1, 3) with matching moments', () => {
    const model = buildSynthesisModel(paperSchema, ['x1', 'x2'], new Set());
    const theta = [2, Math.log(Math.sqrt(10)), -2.5, 0.5, Math.log(Math.sqrt(3))];
    const rng = new SeededRng(21);
    const noise = drawModelNoise(model, rows, rng, boxMuller(rng));
    const [x1, x2] = makeModelSpaceColumns(model, rows) as [Float64Array, Float64Array];
    synthesizeModelSpace(model, theta, noise, makeSynthesisScratch(model), [x1, x2]);
    // Tolerances are 4 standard errors with n = 20,000: mean sd √(10/n) = 0.022; a normal sample
    // variance has relative sd √(2/n) = 0.01; the OLS slope has se √3/(√10·√n) = 0.0039.
    expect(Math.abs(mean(x1) - 2)).toBeLessThan(4 * 0.022);
    expect(Math.abs(variance(x1) / 10 - 1)).toBeLessThan(0.04);
    const m1 = mean(x1);
    const m2 = mean(x2);
    let sxy = 0;
    let sxx = 0;
    for (let i = 0; i < rows; i++) {
      sxy += (x1[i]! - m1) * (x2[i]! - m2);
      sxx += (x1[i]! - m1) ** 2;
    }
    const slope = sxy / sxx;
    const intercept = m2 - slope * m1;
    expect(Math.abs(slope - 0.5)).toBeLessThan(4 * 0.0039);
    // Intercept se = √(3·(1/n + m1²/Sxx)) ≈ √(3·(1/n + 4/(10·n))) ≈ 0.0145.
    expect(Math.abs(intercept + 2.5)).toBeLessThan(4 * 0.0145);
    const residuals = Float64Array.from(x1, (x, i) => x2[i]! - intercept - slope * x);
    expect(Math.abs(variance(residuals) / 3 - 1)).toBeLessThan(0.04);
  });

  it('is a deterministic function of (θ, noise): common random numbers', () => {
    const model = buildSynthesisModel(paperSchema, ['x1', 'x2'], new Set());
    const rng = new SeededRng(22);
    const noise = drawModelNoise(model, 100, rng, boxMuller(rng));
    const scratch = makeSynthesisScratch(model);
    const first = makeModelSpaceColumns(model, 100);
    const second = makeModelSpaceColumns(model, 100);
    synthesizeModelSpace(model, [1, 0, 2, 3, -1], noise, scratch, first);
    synthesizeModelSpace(model, [5, 1, 0, 0, 0], noise, scratch, second);
    synthesizeModelSpace(model, [1, 0, 2, 3, -1], noise, scratch, second);
    expect(second).toEqual(first);
  });

  it('draws categories from the multinomial logit and missing flags from the logistic model', () => {
    const schema: Schema = {
      version: 1,
      columns: [
        { name: 'g', type: 'categorical', categories: ['a', 'b', 'c'], source: 'declared' },
        { name: 'y', type: 'numeric', source: 'declared' },
      ],
      missing: [''],
    };
    const model = buildSynthesisModel(schema, ['g', 'y'], new Set(['y']));
    // g: η_b = log 2, η_c = log 3 → P = (1, 2, 3)/6. y missing: logit γ0 + γ_b·[g=b] + γ_c·[g=c]
    // with γ = (−1, 2, 0): P(missing | a) = logistic(−1), | b = logistic(1), | c = logistic(−1).
    // y value: intercept 10 + 5·[g=c], σ = 1.
    const theta = [Math.log(2), Math.log(3), -1, 2, 0, 10, 0, 5, 0];
    expect(model.parameterCount).toBe(9);
    const rng = new SeededRng(23);
    const noise = drawModelNoise(model, rows, rng, boxMuller(rng));
    const [g, y] = makeModelSpaceColumns(model, rows) as [Float64Array, Float64Array];
    synthesizeModelSpace(model, theta, noise, makeSynthesisScratch(model), [g, y]);
    const counts = [0, 0, 0];
    const missingByLevel = [0, 0, 0];
    const sumByLevel = [0, 0, 0];
    for (let i = 0; i < rows; i++) {
      counts[g[i]!]!++;
      if (Number.isNaN(y[i]!)) missingByLevel[g[i]!]!++;
      else sumByLevel[g[i]!]! += y[i]!;
    }
    // A proportion p from n draws has sd √(p(1−p)/n) ≤ 0.0035 here; 4 sd = 0.014.
    expect(Math.abs(counts[0]! / rows - 1 / 6)).toBeLessThan(0.014);
    expect(Math.abs(counts[2]! / rows - 1 / 2)).toBeLessThan(0.014);
    const logistic = (x: number) => 1 / (1 + Math.exp(-x));
    // Within a level, n ≥ 3,000, so sd ≤ √(0.25/3000) ≈ 0.009; 4 sd = 0.037.
    expect(Math.abs(missingByLevel[0]! / counts[0]! - logistic(-1))).toBeLessThan(0.037);
    expect(Math.abs(missingByLevel[1]! / counts[1]! - logistic(1))).toBeLessThan(0.037);
    const presentC = counts[2]! - missingByLevel[2]!;
    // Mean of N(15, 1) over ≥ 5,000 present rows: sd ≤ 0.015; 4 sd = 0.06.
    expect(Math.abs(sumByLevel[2]! / presentC - 15)).toBeLessThan(0.06);
  });

  it('rounds integer columns, clamps to bounds and keeps overflowing parameters finite', () => {
    const schema: Schema = {
      version: 1,
      columns: [
        { name: 'age', type: 'numeric', bounds: [18, 90], integer: true, source: 'declared' },
        { name: 'z', type: 'numeric', source: 'declared' },
      ],
      missing: [''],
    };
    const model = buildSynthesisModel(schema, ['age', 'z'], new Set());
    const rng = new SeededRng(24);
    const noise = drawModelNoise(model, 2000, rng, boxMuller(rng));
    const [age, z] = makeModelSpaceColumns(model, 2000) as [Float64Array, Float64Array];
    // Standardised age ~ N(0, 1.5²): center 54, scale 18 → original sd 27, so the bounds bind.
    synthesizeModelSpace(model, [0, Math.log(1.5), 0, 0, 800], noise, makeSynthesisScratch(model), [age, z]);
    expect(age.every((value) => Number.isInteger(value) && value >= 18 && value <= 90)).toBe(true);
    expect(age.some((value) => value === 18)).toBe(true);
    expect(age.some((value) => value === 90)).toBe(true);
    expect(z.every((value) => Number.isFinite(value) && Math.abs(value) <= 1e300)).toBe(true);
  });
});
