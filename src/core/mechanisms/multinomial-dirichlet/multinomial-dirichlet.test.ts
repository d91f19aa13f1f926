import { describe, expect, it } from 'vitest';
import { OverspendError } from '../../privacy/accountant';
import { parseBudget } from '../../privacy/budget';
import { SeededRng } from '../../rng/seeded-rng';
import type { CategoricalColumn, NumericColumn, Schema, Table } from '../../table/types';
import { multinomialDirichletPrior } from '../../privacy/dirichlet-prior';
import {
  categoricalColumn,
  mixedTable,
  RecordingAccountant,
  recordingRng,
  runContext,
} from '../common/testing/fixtures';
import { resolveParams } from '../params';
import { multinomialDirichlet, runMultinomialDirichlet } from '.';

const fiveBins = resolveParams(multinomialDirichlet, { bins: 5 });

/** n rows of a binary column with n1 ones ("yes"), no missing values. */
function binaryTable(n: number, n1: number): { table: Table; schema: Schema } {
  return {
    table: {
      nRows: n,
      columns: [
        categoricalColumn(
          'x',
          Array.from({ length: n }, (_, i) => (i < n1 ? 'yes' : 'no')),
        ),
      ],
    },
    schema: {
      version: 1,
      missing: [''],
      columns: [{ name: 'x', type: 'categorical', categories: ['no', 'yes'], source: 'declared' }],
    },
  };
}

describe('multinomial-dirichlet claim', () => {
  it('reserves ε/M per release, with α = n/(e^(ε/M) − 1) in the step, and run returns the same claim', async () => {
    const { table, schema } = mixedTable(300);
    const log: string[] = [];
    const accountant = new RecordingAccountant(parseBudget('1'), log);
    const ctx = runContext(schema, 300, { releases: 4 });
    const release = await runMultinomialDirichlet(table, schema, fiveBins, ctx, accountant);
    expect(accountant.reservedEpsilons.map((e) => e.toString())).toEqual(Array(4).fill('1/4'));
    const claim = multinomialDirichlet.claim(fiveBins, ctx);
    expect(release.claim).toEqual(claim);
    expect(claim.epsilon).toBe(1);
    expect(claim.neighbouring).toBe('replace-one');
    // 300/(e^0.25 − 1) = 1056.24…, rounded up onto the 2^−24 grid and printed with 6 digits.
    expect(claim.steps[0]).toEqual({
      what:
        '300 rows drawn from the Dirichlet–multinomial posterior over the 108-cell cross-tabulation, ' +
        'prior α = n/(e^ε − 1) = 1056.24 per cell, release 1 of 4',
      epsilon: 0.25,
    });
  });

  it('reserves every release before the first random draw and draws nothing when refused', async () => {
    const { table, schema } = mixedTable(50);
    const log: string[] = [];
    const ctx = runContext(schema, 50, { releases: 2, rng: recordingRng(new SeededRng(1), log) });
    await runMultinomialDirichlet(
      table,
      schema,
      fiveBins,
      ctx,
      new RecordingAccountant(parseBudget('1'), log),
    );
    expect(log.indexOf('draw')).toBeGreaterThan(log.lastIndexOf('reserve'));
    const refusedLog: string[] = [];
    const small = new RecordingAccountant(parseBudget('0.5'), refusedLog);
    const refusedCtx = runContext(schema, 50, { rng: recordingRng(new SeededRng(1), refusedLog) });
    await expect(runMultinomialDirichlet(table, schema, fiveBins, refusedCtx, small)).rejects.toThrow(
      OverspendError,
    );
    expect(refusedLog).not.toContain('draw');
  });

  it('checks the schema in sentences', () => {
    const schema: Schema = {
      version: 1,
      missing: [],
      columns: [{ name: 'age', type: 'numeric', source: 'declared' }],
    };
    expect(multinomialDirichlet.check(schema, fiveBins)).toEqual([
      'needs bounds for numeric column `age`: declare them in the schema.',
    ]);
  });
});

describe('multinomial-dirichlet run', () => {
  it('returns M tables of n rows within bounds with the declared categories', async () => {
    const { table, schema } = mixedTable(400);
    const release = await multinomialDirichlet.run(
      table,
      schema,
      fiveBins,
      runContext(schema, 400, { releases: 3 }),
    );
    expect(release.datasets).toHaveLength(3);
    for (const dataset of release.datasets) {
      expect(dataset.nRows).toBe(400);
      const [age, income, sex] = dataset.columns as [NumericColumn, NumericColumn, CategoricalColumn];
      for (let i = 0; i < 400; i++) {
        if (age.missing[i] === 0) expect(Number.isInteger(age.values[i]) && age.values[i]! >= 17).toBe(true);
        if (income.missing[i] === 0) expect(income.values[i]! <= 1000 && income.values[i]! >= 0).toBe(true);
      }
      expect(sex.dictionary).toEqual(['F', 'M']);
    }
  });

  it('gives the posterior predictive mean (n_k + α)/(n + Kα) for each cell', async () => {
    // n = 100 with 20 "yes", K = 3 cells (no, yes, missing), ε = 1 per release.
    const n = 100;
    const { table, schema } = binaryTable(n, 20);
    const releases = 400;
    const ctx = runContext(schema, n, { epsilon: String(releases), releases, rng: new SeededRng(7) });
    const result = await multinomialDirichlet.run(table, schema, {}, ctx);
    const alpha = multinomialDirichletPrior(n, parseBudget('1').epsilon).toNumber();
    const expected = (20 + alpha) / (n + 3 * alpha);
    let sum = 0;
    for (const dataset of result.datasets) {
      const column = dataset.columns[0] as CategoricalColumn;
      let yes = 0;
      for (let i = 0; i < n; i++) if (column.missing[i] === 0 && column.codes[i] === 1) yes++;
      sum += yes / n;
    }
    // One release's proportion has the Dirichlet–multinomial variance p(1 − p)/n · (n + A)/(1 + A),
    // A = Kα + n the posterior total; the mean of 400 releases gets 1/400 of it. Tolerance: 5 SD.
    const A = 3 * alpha + n;
    const sd = Math.sqrt((((expected * (1 - expected)) / n) * ((n + A) / (1 + A))) / releases);
    expect(Math.abs(sum / releases - expected)).toBeLessThan(5 * sd);
    // And it is biased towards uniform: the real proportion 0.2 is far outside that tolerance.
    expect(Math.abs(0.2 - expected)).toBeGreaterThan(20 * sd);
  });

  it('stops with an AbortError when cancelled', async () => {
    const { table, schema } = mixedTable(50);
    const ctx = runContext(schema, 50, { signal: { aborted: true } });
    await expect(multinomialDirichlet.run(table, schema, fiveBins, ctx)).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
