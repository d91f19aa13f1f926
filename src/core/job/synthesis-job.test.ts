import { describe, expect, it } from 'vitest';
import { testTable } from '../metrics/testing/test-table';
import { BudgetError } from '../privacy/budget';
import { Rational } from '../rng/rational';
import { SeededRng } from '../rng/seeded-rng';
import type { Schema } from '../table/types';
import { budgetFigureUp, deltaAsTyped, parseJobBudget } from './job-budget';
import { jobRowCounts, splitRowsForJob } from './job-rows';
import { holdoutSeed, mechanismSeed, repeatSeed } from './job-seeds';
import { publicContextOf, runContextOf, synthesisJob, type JobSettings } from './synthesis-job';

const schema: Schema = {
  version: 1,
  columns: [{ name: 'x', type: 'categorical', categories: ['a', 'b'], source: 'declared' }],
  missing: [''],
};
const settings: JobSettings = {
  schema,
  mechanismId: 'laplace-histogram',
  params: {},
  epsilon: '0.1',
  delta: ' ',
  releases: 2,
};

describe('the synthesis job model', () => {
  it('reads an empty δ field as 0 and keeps a typed one, trimmed', () => {
    expect(deltaAsTyped('')).toBe('0');
    expect(deltaAsTyped('  ')).toBe('0');
    expect(deltaAsTyped(' 1e-6 ')).toBe('1e-6');
  });

  it('parses the budget exactly, once: 0.1 is 1/10, not the nearest double', () => {
    const budget = parseJobBudget({ epsilon: '0.1', delta: '1e-6' });
    expect(budget.epsilon.equals(Rational.of(1, 10))).toBe(true);
    expect(budget.delta.equals(Rational.of(1, 1_000_000))).toBe(true);
    expect(() => parseJobBudget({ epsilon: '0', delta: '0' })).toThrow(BudgetError);
  });

  it('derives the mechanism seed, the hold-out seed and the seed of a sweep or comparison run', () => {
    expect(mechanismSeed({ seed: ' 42 ' })).toBe('42');
    expect(mechanismSeed({ seed: '  ' })).toBeUndefined();
    expect(mechanismSeed({})).toBeUndefined();
    expect(holdoutSeed({ seed: ' 42 ' })).toBe('42/holdout');
    expect(holdoutSeed({ seed: '' })).toBeUndefined();
    expect(repeatSeed('42', 0.5, [3])).toBe('42/0.5/3');
    expect(repeatSeed('42', '0.5', [0, 1, 2])).toBe('42/0.5/0+1+2');
  });

  it('counts the rows kept back as round(share · n) and the rest as the rows the mechanism sees', () => {
    expect(jobRowCounts(1001, 0.2)).toEqual({ kept: 200, seen: 801 }); // 200.2 rounds to 200
    expect(jobRowCounts(1003, 0.2)).toEqual({ kept: 201, seen: 802 }); // 200.6 rounds to 201
    expect(jobRowCounts(1000, 0)).toEqual({ kept: 0, seen: 1000 });
    expect(jobRowCounts(1000)).toEqual({ kept: 0, seen: 1000 });
  });

  it('splits a table into exactly the counted parts, the split seeded apart from the mechanism', () => {
    const table = testTable({ x: Array.from({ length: 1003 }, (_, i) => (i % 3 === 0 ? 'a' : 'b')) });
    const rows = splitRowsForJob(table, { holdoutShare: 0.2, seed: '7' });
    expect(rows.train.nRows).toBe(jobRowCounts(1003, 0.2).seen);
    expect(rows.holdoutRows).toHaveLength(jobRowCounts(1003, 0.2).kept);
    // Same seed, same split; the "<seed>/holdout" stream, so a seed with spaces splits the same way.
    expect(splitRowsForJob(table, { holdoutShare: 0.2, seed: ' 7 ' }).holdoutRows).toEqual(rows.holdoutRows);
    expect(splitRowsForJob(table, { holdoutShare: 0, seed: '7' })).toEqual({
      train: table,
      holdoutRows: null,
    });
  });

  it('builds one shape of job: δ as typed, relation only for add/remove, seed and hold-out only when set', () => {
    const job = synthesisJob({ jobId: 'j', tableKey: 'k' }, { ...settings, seed: '  ', holdoutShare: 0 });
    expect(job).toEqual({
      jobId: 'j',
      tableKey: 'k',
      schema,
      mechanismId: 'laplace-histogram',
      params: {},
      epsilon: '0.1',
      delta: '0',
      releases: 2,
    });
    const full = synthesisJob(
      { jobId: 'j', tableKey: 'k' },
      { ...settings, neighbouring: 'add-remove', seed: ' 9 ', holdoutShare: 0.2 },
    );
    expect(full).toMatchObject({ neighbouring: 'add-remove', seed: '9', holdoutShare: 0.2 });
    expect(
      synthesisJob({ jobId: 'j', tableKey: 'k' }, { ...settings, neighbouring: 'replace-one' }),
    ).not.toHaveProperty('neighbouring');
  });

  it('gives the public context and the run context from the job and the rows the mechanism sees', () => {
    expect(publicContextOf(settings, 801)).toEqual({
      n: 801,
      schema,
      epsilon: '0.1',
      delta: '0',
      releases: 2,
      seeded: false,
    });
    const addRemove = publicContextOf({ ...settings, seed: '3', neighbouring: 'add-remove' }, 10);
    expect(addRemove).toMatchObject({ seeded: true, neighbouring: 'add-remove' });
    expect(publicContextOf({ ...settings, neighbouring: 'replace-one' }, 10)).not.toHaveProperty(
      'neighbouring',
    );
    const rng = new SeededRng('3');
    const seen: string[] = [];
    const signal = { aborted: false };
    const context = runContextOf(settings, 801, rng, (_f, message) => seen.push(message ?? ''), signal);
    expect(context).toMatchObject({ n: 801, rng, signal, seeded: false });
    context.progress(0.5, 'half');
    expect(seen).toEqual(['half']);
  });
});

describe('budgetFigureUp', () => {
  it('records a figure as typed exactly, rounded up to 6 significant digits, fractions included', () => {
    // 1/3 = 0.333333… → 0.333334 (up, never down); 2/3 = 0.666666… → 0.666667.
    expect(budgetFigureUp('1/3')).toBe(0.333334);
    expect(budgetFigureUp(' 2/3 ')).toBe(0.666667);
    expect(budgetFigureUp('0.1')).toBe(0.1);
    expect(budgetFigureUp('1e-6')).toBe(1e-6);
    expect(budgetFigureUp('')).toBe(0);
    expect(() => budgetFigureUp('one')).toThrow(RangeError);
  });
});
