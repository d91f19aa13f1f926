import { describe, expect, it, vi } from 'vitest';
import { SeededRng } from '../rng/seeded-rng';
import type { Rng } from '../rng/types';
import { testTable } from './testing/test-table';
import { distinguishingGame } from './distinguishing-game';
import { mlEfficacy } from './ml-efficacy';
import { stackForClassifier } from './ml/classifier-data';

// A pass-through spy: the tests see the rows each classifier is trained and scored on.
vi.mock('./ml/classifier-data', async (importOriginal) => {
  const original = await importOriginal<typeof import('./ml/classifier-data')>();
  return { ...original, stackForClassifier: vi.fn(original.stackForClassifier) };
});

/** Rows where the outcome depends on x and on the group: P(y = yes) = logistic(−1 + 2x + [g = a]). */
function population(n: number, rng: Rng, shift = 0) {
  const x: number[] = [];
  const g: string[] = [];
  const y: string[] = [];
  for (let i = 0; i < n; i++) {
    const xi = rng.nextFloat() * 2 - 1 + shift;
    const gi = rng.nextFloat() < 0.5 ? 'a' : 'b';
    const eta = -1 + 2 * xi + (gi === 'a' ? 1 : 0);
    x.push(xi);
    g.push(gi);
    y.push(rng.nextFloat() < 1 / (1 + Math.exp(-eta)) ? 'yes' : 'no');
  }
  return { x, g, y };
}

describe('mlEfficacy', () => {
  const rng = new SeededRng(11);
  const real = testTable(population(1500, rng));
  const holdout = testTable(population(1000, rng));
  const faithful = testTable(population(1500, rng));
  const noisy = population(1500, rng);
  // Target shuffled (Fisher–Yates): no relation between predictors and outcome survives.
  for (let i = noisy.y.length - 1; i > 0; i--) {
    const j = Math.floor(rng.nextFloat() * (i + 1));
    [noisy.y[i], noisy.y[j]] = [noisy.y[j]!, noisy.y[i]!];
  }
  const broken = testTable(noisy);

  it('scores a faithful release like the real data and a broken one near chance', () => {
    const report = mlEfficacy(real, holdout, [faithful, broken], { target: 'y' }, new SeededRng(12));
    expect(report.task.positiveClass).toBe('y = yes');
    expect(report.task.holdoutRowsScored).toBe(1000);
    expect(report.models.map((m) => m.model)).toEqual(['cart', 'forest', 'logistic']);
    for (const model of report.models) {
      const [good, bad] = model.releases;
      // The true model has AUC ≈ 0.77 here. The Hanley–McNeil SE of an AUC on 1,000 rows is ≈ 0.015,
      // so two fits on independent data of the same law differ by < 0.08 (about 4 SE of a difference).
      expect(Math.abs(good!.auc! - model.real.auc!), model.model).toBeLessThan(0.08);
      // No signal to learn: the model ranks holdout rows by noise. Its AUC is not necessarily ½ (a
      // noise coefficient on x still orders rows by x, in either direction) but it is far below the
      // real-trained model's: at least 0.1 lower (≈ 6 SE).
      expect(bad!.auc!, model.model).toBeLessThan(model.real.auc! - 0.1);
      // Agreement: a faithful release agrees with the real-trained model on most holdout rows, i.e.
      // better than a coin flip by 5 binomial SDs of a share on 1,000 rows: ½ + 5·√(¼/1000) = 0.579.
      // A broken one agrees on clearly fewer: 0.1 is about 6 such SDs.
      expect(good!.agreementWithReal, model.model).toBeGreaterThan(0.5 + 5 * Math.sqrt(0.25 / 1000));
      expect(good!.agreementWithReal - bad!.agreementWithReal, model.model).toBeGreaterThan(0.1);
    }
  });

  it('caps training rows', () => {
    const report = mlEfficacy(
      real,
      holdout,
      [faithful],
      { target: 'y', models: ['cart'], maxTrainRows: 100, maxTestRows: 200 },
      new SeededRng(13),
    );
    expect(report.task.holdoutRowsScored).toBe(200);
    expect(report.task.maxTrainRows).toBe(100);
  });

  it('trains each model on at most maxTrainRows distinct rows of its table and scores maxTestRows', () => {
    const stack = vi.mocked(stackForClassifier);
    stack.mockClear();
    mlEfficacy(
      real,
      holdout,
      [faithful],
      { target: 'y', models: ['cart'], maxTrainRows: 100, maxTestRows: 200 },
      new SeededRng(13),
    );
    // One stacking per training set: the real rows, then the release.
    expect(stack).toHaveBeenCalledTimes(2);
    const sources = [real, faithful];
    stack.mock.calls.forEach(([trainParts, testParts], i) => {
      const trained = trainParts[0]!.table;
      expect(trained.nRows).toBe(100);
      expect(testParts[0]!.table.nRows).toBe(200);
      // The capped rows are drawn without replacement from the source: their x values, which are
      // continuous and so distinct, are distinct values of the source.
      const x = (table: typeof trained) => {
        const column = table.columns.find((c) => c.name === 'x')!;
        if (column.kind !== 'numeric') throw new Error('x is numeric');
        return Array.from(column.values);
      };
      const sourceValues = new Set(x(sources[i]!));
      const trainedValues = x(trained);
      expect(new Set(trainedValues).size).toBe(100);
      for (const value of trainedValues) expect(sourceValues.has(value)).toBe(true);
    });
  });
});

describe('distinguishingGame', () => {
  it('is near ½ for the same law and near 1 for a shifted one', () => {
    const rng = new SeededRng(21);
    const real = testTable(population(3000, rng));
    const same = testTable(population(3000, rng));
    const shifted = testTable(population(3000, rng, 1.5));
    const sameResult = distinguishingGame(real, same, new SeededRng(22));
    // 3,000 test rows: accuracy of a blind guess has SD √(0.25 / 3000) ≈ 0.009; a forest overfits a
    // little noise, so allow 0.5 ± 0.06.
    expect(sameResult.testRows).toBe(3000);
    expect(Math.abs(sameResult.accuracy - 0.5)).toBeLessThan(0.06);
    // Shift 1.5 on a variable of range 2: about 75 % of rows are outside the other's range.
    expect(distinguishingGame(real, shifted, new SeededRng(23), { model: 'cart' }).accuracy).toBeGreaterThan(
      0.8,
    );
  });
});
