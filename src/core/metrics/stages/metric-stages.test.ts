import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../rng/seeded-rng';
import { evaluateUtility } from '../evaluate';
import { testTable } from '../testing/test-table';
import type { MetricSections, UtilityEvaluationOptions } from '../utility-report';
import { METRIC_STAGES, planMetricStages } from './metric-stages';

/** Every section of a report, listed once: the compiler refuses this object when a section is added or removed. */
const SECTIONS: Record<keyof MetricSections, true> = {
  tvd: true,
  perColumn: true,
  correlation: true,
  pmse: true,
  regression: true,
  mlEfficacy: true,
  distinguishingGame: true,
  disclosure: true,
};

const real = testTable({
  x: Array.from({ length: 40 }, (_, i) => i % 13),
  g: Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? 'a' : 'b')),
});
const synths = [1, 2].map((shift) =>
  testTable({
    x: Array.from({ length: 40 }, (_, i) => (i * shift) % 11),
    g: Array.from({ length: 40 }, (_, i) => (i % (2 + shift) === 0 ? 'a' : 'b')),
  }),
);
const cheap: UtilityEvaluationOptions = { pmse: { permutations: 2 } };

function evaluateWithProgress(options: UtilityEvaluationOptions) {
  const progress: [number, string][] = [];
  const report = evaluateUtility(real, synths, options, new SeededRng(7), (fraction, stage) =>
    progress.push([fraction, stage]),
  );
  return { report, progress };
}

describe('the metric stage registry', () => {
  it('has unique ids and sections, positive weights, and one stage per report section', () => {
    const ids = METRIC_STAGES.map((stage) => stage.id);
    expect(new Set(ids).size).toBe(ids.length);
    const sections = METRIC_STAGES.map((stage) => stage.section);
    expect(new Set(sections).size).toBe(sections.length);
    expect([...sections].sort()).toEqual(Object.keys(SECTIONS).sort());
    for (const stage of METRIC_STAGES) {
      expect(Number.isFinite(stage.weight) && stage.weight > 0, stage.id).toBe(true);
      expect(stage.label.length, stage.id).toBeGreaterThan(0);
    }
  });

  it('splits the progress by weight: shares sum to 1 and each stage starts where the last ended', () => {
    const plan = planMetricStages({ regression: { target: 'x', predictors: ['g'] } });
    expect(plan.map((p) => p.stage.id)).toEqual([
      'marginals',
      'columns',
      'correlation',
      'pmse',
      'regression',
      'game',
      'disclosure',
    ]);
    // Weights 2, 1, 1, 4, 1, 2, 2 (sum 13).
    expect(plan.map((p) => p.share * 13)).toEqual([2, 1, 1, 4, 1, 2, 2].map((w) => expect.closeTo(w, 12)));
    plan.slice(1).forEach((p, i) => expect(p.start).toBeCloseTo(plan[i]!.start + plan[i]!.share, 15));
    expect(plan.at(-1)!.start + plan.at(-1)!.share).toBeCloseTo(1, 15);
  });

  it('moves the pMSE stage last when its null is computed elsewhere', () => {
    const plan = planMetricStages({ pmse: { nullMeans: [0.1] } });
    expect(plan.map((p) => p.stage.id)).toEqual([
      'marginals',
      'columns',
      'correlation',
      'game',
      'disclosure',
      'pmse',
    ]);
  });
});

describe('disabling a stage', () => {
  const all = evaluateWithProgress(cheap);
  const withoutGame = evaluateWithProgress({ ...cheap, distinguishingGame: false });

  it('removes its section, its timing and its progress messages', () => {
    expect(all.report.distinguishingGame!.perRelease).toHaveLength(2);
    expect(withoutGame.report.distinguishingGame).toBeNull();
    expect(Object.keys(all.report.timingsMs)).toContain('game');
    expect(Object.keys(withoutGame.report.timingsMs)).toEqual([
      'marginals',
      'columns',
      'correlation',
      'pmse',
      'disclosure',
    ]);
    expect(all.progress.some(([, stage]) => stage.startsWith('Distinguishing game'))).toBe(true);
    expect(withoutGame.progress.some(([, stage]) => stage.startsWith('Distinguishing game'))).toBe(false);
  });

  it('gives its share of the progress to the others', () => {
    const startOf = (progress: [number, string][], label: string) =>
      progress.find(([, stage]) => stage === label)![0];
    // Weights: marginals 2, columns 1, correlation 1, pMSE 4, game 2, disclosure 2 (sum 12, 10 without the game).
    expect(startOf(all.progress, 'Disclosure checks')).toBeCloseTo(10 / 12, 15);
    expect(startOf(withoutGame.progress, 'Disclosure checks')).toBeCloseTo(8 / 10, 15);
    expect(startOf(withoutGame.progress, 'Propensity score (pMSE)')).toBeCloseTo(4 / 10, 15);
    expect(startOf(withoutGame.progress, 'Disclosure checks, release 2 of 2')).toBeCloseTo(0.8 + 0.2 / 2, 15);
    expect(withoutGame.progress.at(-1)).toEqual([1, 'Done']);
  });

  it('leaves the sections of the stages before it unchanged', () => {
    // The game draws from the generator after pMSE, so everything computed before it is the same.
    expect(withoutGame.report.tvd).toEqual(all.report.tvd);
    expect(withoutGame.report.perColumn).toEqual(all.report.perColumn);
    expect(withoutGame.report.correlation).toEqual(all.report.correlation);
    expect(withoutGame.report.pmse).toEqual(all.report.pmse);
  });

  it('runs an optional stage only when its option is given', () => {
    const plain = evaluateWithProgress({ ...cheap, distinguishingGame: false, disclosure: false });
    expect(plain.report.regression).toBeNull();
    expect(plain.report.disclosure).toBeNull();
    const regression = evaluateWithProgress({
      ...cheap,
      distinguishingGame: false,
      disclosure: false,
      regression: { target: 'x', predictors: ['g'] },
    });
    expect(regression.report.regression!.releases).toHaveLength(2);
    expect(regression.progress.map(([, stage]) => stage)).toContain('Regression comparison');
  });
});

describe('aborting', () => {
  it('stops inside a stage, before the next release', () => {
    const signal = { aborted: false };
    const seen: string[] = [];
    expect(() =>
      evaluateUtility(real, synths, { ...cheap, signal }, new SeededRng(1), (_fraction, stage) => {
        seen.push(stage);
        if (stage === 'Distinguishing game, release 1 of 2') signal.aborted = true;
      }),
    ).toThrow(expect.objectContaining({ name: 'AbortError' }));
    expect(seen.at(-1)).toBe('Distinguishing game, release 1 of 2');
  });
});
