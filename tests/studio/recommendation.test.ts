import { describe, expect, it } from 'vitest';
import { readCsvFile } from '../../src/cli/io';
import { studioRecommendation } from '../../src/app/services/recommendation';
import { buildTable } from '../../src/core/table/build-table';
import { parseSchemaJson } from '../../src/core/table/schema-json';
import { cli, tempFiles } from '../cli/cli-harness';

// The recommendation reads public facts only: two tables with the same schema and the same number
// of rows, but different values, get the same ranking, through the studio's entry (the loaded table's
// row count and schema) and through `dpsynth recommend` (the schema file and --rows).

const schemaText = JSON.stringify({
  version: 1,
  columns: [
    { name: 'age', type: 'numeric', bounds: [0, 100], integer: true, source: 'declared' },
    { name: 'income', type: 'numeric', bounds: [0, 200000], source: 'declared' },
    { name: 'group', type: 'categorical', categories: ['a', 'b', 'c'], source: 'declared' },
  ],
  missing: [''],
});

/** 300 rows of a deterministic pattern; `shift` changes every value, not the shape. */
function csv(shift: number): string {
  const rows = ['age,income,group'];
  for (let i = 0; i < 300; i++) {
    rows.push(
      `${(i * 7 + shift) % 101},${((i * 613 + shift * 977) % 200000) + 0.5},${'abc'[(i + shift) % 3]}`,
    );
  }
  return `${rows.join('\n')}\n`;
}

const files = tempFiles({ 's.json': schemaText, 'one.csv': csv(0), 'two.csv': csv(41) });

async function loaded(name: string) {
  const schema = parseSchemaJson(schemaText, 's.json');
  const { table } = buildTable(await readCsvFile(files(name)), schema);
  return { schema, table };
}

describe('recommendation from public facts', () => {
  it.each(['relationships', 'train-model', 'distributions', 'regression-inference'] as const)(
    'is identical for two tables with the same public facts and different values (goal %s)',
    async (goal) => {
      const one = await loaded('one.csv');
      const two = await loaded('two.csv');
      expect(one.table.nRows).toBe(two.table.nRows);
      const ages = (t: typeof one.table) => {
        const column = t.columns[0]!;
        return column.kind === 'numeric' ? Array.from(column.values) : [];
      };
      expect(ages(one.table)).toHaveLength(300);
      expect(ages(two.table)).not.toEqual(ages(one.table));
      const label = goal === 'train-model' ? 'group' : '';
      const inStudio = [one, two].map(({ schema, table }) =>
        studioRecommendation({
          schema,
          nRows: table.nRows,
          holdoutShare: 0,
          epsilon: '1',
          delta: '1e-6',
          goal,
          label,
        }),
      );
      expect(inStudio[0]).not.toBeNull();
      expect(inStudio[1]).toEqual(inStudio[0]);
      const fromCli = await Promise.all(
        [one, two].map(({ table }) =>
          cli(
            'recommend',
            '--schema',
            files('s.json'),
            '--rows',
            String(table.nRows),
            '--epsilon',
            '1',
            '--delta',
            '1e-6',
            '--goal',
            goal,
            ...(label ? ['--label', label] : []),
            '--json',
          ),
        ),
      );
      expect(fromCli.map((r) => r.code)).toEqual([0, 0]);
      expect(fromCli[1]!.stdout).toBe(fromCli[0]!.stdout);
      expect(JSON.parse(fromCli[0]!.stdout)).toEqual(JSON.parse(JSON.stringify(inStudio[0])));
    },
  );

  it('counts the rows the mechanism sees when a test set is kept back, as the claim does', () => {
    const schema = parseSchemaJson(schemaText, 's.json');
    const whole = studioRecommendation({
      schema,
      nRows: 1000,
      holdoutShare: 0,
      epsilon: '1',
      delta: '0',
      goal: 'distributions',
      label: '',
    });
    const kept = studioRecommendation({
      schema,
      nRows: 1000,
      holdoutShare: 0.2,
      epsilon: '1',
      delta: '0',
      goal: 'distributions',
      label: '',
    });
    expect(whole!.facts.rows).toBe(1000);
    expect(kept!.facts.rows).toBe(800);
  });

  it('gives no ranking without a goal or with a budget that does not parse', () => {
    const schema = parseSchemaJson(schemaText, 's.json');
    const inputs = { schema, nRows: 300, holdoutShare: 0, epsilon: '1', delta: '0', label: '' };
    expect(studioRecommendation({ ...inputs, goal: null })).toBeNull();
    expect(studioRecommendation({ ...inputs, epsilon: 'abc', goal: 'relationships' })).toBeNull();
  });
});
