import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../rng';
import type { CategoricalColumn, NumericColumn, Schema, Table } from '../../table/types';
import { resolveParams } from '../params';
import type { PmseDataHolderDiagnostics, PmseDiagnostics } from './diagnostics';
import { pmseMechanism, runPmseMechanism } from './index';

const schema: Schema = {
  version: 1,
  columns: [
    { name: 'age', type: 'numeric', bounds: [18, 90], integer: true, source: 'declared' },
    { name: 'sex', type: 'categorical', categories: ['F', 'M'], source: 'declared' },
    { name: 'income', type: 'numeric', source: 'declared' },
    { name: 'score', type: 'numeric', source: 'declared' },
  ],
  missing: [''],
};

/** 300 rows; income is missing in every 10th row, score in every 50th. */
function mixedTable(): Table {
  const rng = new SeededRng(31);
  const n = 300;
  const age = Float64Array.from({ length: n }, () => 18 + Math.floor(rng.nextFloat() * 73));
  const sexCodes = Uint32Array.from({ length: n }, () => (rng.nextFloat() < 0.4 ? 1 : 0));
  const incomeMissing = Uint8Array.from({ length: n }, (_, i) => (i % 10 === 0 ? 1 : 0));
  const income = Float64Array.from(age, (a, i) =>
    incomeMissing[i] ? NaN : 500 * a + 1000 * rng.nextFloat(),
  );
  const scoreMissing = Uint8Array.from({ length: n }, (_, i) => (i % 50 === 0 ? 1 : 0));
  const score = Float64Array.from({ length: n }, (_, i) => (scoreMissing[i] ? NaN : rng.nextFloat()));
  const sex: CategoricalColumn = {
    kind: 'categorical',
    name: 'sex',
    codes: sexCodes,
    dictionary: ['F', 'M'],
    missing: new Uint8Array(n),
  };
  return {
    nRows: n,
    columns: [
      { kind: 'numeric', name: 'age', values: age, missing: new Uint8Array(n) },
      sex,
      { kind: 'numeric', name: 'income', values: income, missing: incomeMissing },
      { kind: 'numeric', name: 'score', values: score, missing: scoreMissing },
    ],
  };
}

describe('pmseMechanism on mixed columns', () => {
  it('models categories, declared missing values and integer bounds, and flags undeclared missing values', async () => {
    const params = resolveParams(pmseMechanism, {
      columnOrder: 'sex,age,income,score',
      missingColumns: 'income',
      treeDepth: '2',
      burnIn: 200,
      steps: 200,
      chains: 2,
    });
    const release = await runPmseMechanism(mixedTable(), schema, params, {
      n: 300,
      schema,
      epsilon: '2',
      delta: 0,
      releases: 2,
      seeded: true,
      rng: new SeededRng(32),
      progress: () => {},
      signal: { aborted: false },
    });
    const diagnostics = release.diagnostics as unknown as PmseDiagnostics;
    // sex 1; age (1, sex=M) 2 + 1; income missing flag on (1, sex=M, age) 3, value 3 + 1;
    // score on (1, sex=M, age, income, income missing) 5 + 1.
    expect(diagnostics.parameterCount).toBe(1 + 3 + 3 + 4 + 6);
    const { mcmc } = release.dataHolderDiagnostics as unknown as PmseDataHolderDiagnostics;
    expect(mcmc.undeclaredMissingValues).toEqual({ score: 6 });
    expect(mcmc.warnings.some((warning) => warning.includes('`score` has 6 missing values'))).toBe(true);
    expect(JSON.stringify(release.diagnostics)).not.toMatch(/undeclaredMissing|score` has/);
    for (const dataset of release.datasets) {
      expect(dataset.columns.map((column) => column.name)).toEqual(['age', 'sex', 'income', 'score']);
      const age = dataset.columns[0] as NumericColumn;
      expect(age.values.every((value) => Number.isInteger(value) && value >= 18 && value <= 90)).toBe(true);
      const sex = dataset.columns[1] as CategoricalColumn;
      expect(sex.dictionary).toEqual(['F', 'M']);
      expect(sex.codes.every((code) => code === 0 || code === 1)).toBe(true);
      const income = dataset.columns[2] as NumericColumn;
      income.values.forEach((value, i) => expect(Number.isNaN(value)).toBe(income.missing[i] === 1));
      const score = dataset.columns[3] as NumericColumn;
      expect(score.missing.every((flag) => flag === 0)).toBe(true);
    }
  });
});
