import { describe, expect, it } from 'vitest';
import { InputError } from '../../../table/errors';
import { planBinnedDomain } from './binned-domain';
import { binnedMechanismAssumptions, levelsPerColumn, refuseUnplannedRun } from './binned-mechanism';
import { mixedTable, runContext } from '../testing/fixtures';

describe('the binned-mechanism skeleton', () => {
  const { table, schema } = mixedTable(40);
  const domain = planBinnedDomain(
    schema,
    { rule: 'fixed', fixedBins: 4, perColumn: {}, problems: [] },
    40,
    true,
  );

  it('counts each column’s levels with its missing level (4 bins + 1, 4 bins + 1, 2 categories + 1)', () => {
    expect(levelsPerColumn(domain)).toEqual({ age: 5, income: 5, sex: 3 });
  });

  it('refuses a planned domain with problems, and a table whose size is not the public n', () => {
    const broken = { ...domain, problems: ['needs bounds for numeric column `x`.'] };
    expect(() => refuseUnplannedRun('some-id', broken, table, runContext(schema, 40))).toThrow(
      new InputError('some-id cannot run: needs bounds for numeric column `x`.'),
    );
    expect(() => refuseUnplannedRun('some-id', domain, table, runContext(schema, 41))).toThrow(
      'some-id: the table has 40 rows but the context says n = 41.',
    );
    expect(() => refuseUnplannedRun('some-id', domain, table, runContext(schema, 40))).not.toThrow();
  });

  it('puts the mechanism’s own assumptions after the standard and domain sentences', () => {
    const sentences = binnedMechanismAssumptions(domain, runContext(schema, 40), ['Own sentence.']);
    expect(sentences.at(-1)).toBe('Own sentence.');
    expect(sentences.length).toBeGreaterThan(2);
  });
});
