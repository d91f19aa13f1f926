import { beforeEach, describe, expect, it } from 'vitest';
import { learnDomain } from '../../core/domain/learn-domain';
import { SeededRng } from '../../core/rng/seeded-rng';
import { parseCsv } from '../../core/table/csv-read';
import { inferSchema } from '../../core/table/infer';
import { schemaToJson } from '../../core/table/schema-json';
import { recordDomainLearning, resetLedger, selectSpent, useLedgerStore } from '../state/ledger-store';
import { resetSchemaStore, useSchemaStore } from '../state/schema-store';
import { importSchemaText } from './import-schema';

/** 400 rows: age 20…59 (whole), sex F/M. */
function csv(): string {
  const lines = ['age,sex'];
  for (let i = 0; i < 400; i++) lines.push(`${20 + (i % 40)},${i % 2 ? 'F' : 'M'}`);
  return lines.join('\n');
}
const raw = parseCsv(csv(), { fileName: 'people.csv' });

/** A schema file learned with DP outside the studio: ε = 0.5, δ = 1e-6 in its domain steps. */
function learnedSchemaFile(): { text: string; learnedAt: string } {
  const learnedAt = '2026-01-01T00:00:00Z';
  const { schema } = learnDomain(
    raw,
    inferSchema(raw),
    // Forced: the plan would refuse ε = 0.5 on this small table; what is tested is the ledger.
    { epsilon: '0.5', delta: '1e-6', learnedAt, force: true },
    new SeededRng('cli'),
  );
  return { text: schemaToJson(schema), learnedAt };
}

describe('importing a schema file', () => {
  beforeEach(() => {
    resetLedger();
    resetSchemaStore();
  });

  it('counts the domain steps of a schema learned with DP elsewhere in the ledger, once', () => {
    const { text } = learnedSchemaFile();
    importSchemaText(text, 'people.schema.json', raw.header, 'people.csv');
    // The plan rounds each fact's share down, so the learning spends at most ε = 0.5 and within
    // rounding (1e-11 per fact) of it.
    const spent = Number(useSchemaStore.getState().schema?.domainBudget?.epsilon);
    expect(spent).toBeLessThanOrEqual(0.5);
    expect(spent).toBeGreaterThan(0.5 - 1e-9);
    // The learned facts are DP outputs of this data: the spend on it includes them.
    expect(selectSpent(useLedgerStore.getState())).toMatchObject({ epsilon: 0.5, delta: 1e-6 });
    importSchemaText(text, 'people.schema.json', raw.header, 'people.csv');
    expect(selectSpent(useLedgerStore.getState())).toMatchObject({ epsilon: 0.5, delta: 1e-6 });
  });

  it('does not count again a learning this session already counted', () => {
    const { text, learnedAt } = learnedSchemaFile();
    recordDomainLearning(`domain:${learnedAt}`, { epsilon: 0.5, delta: 1e-6 }, 6);
    importSchemaText(text, 'people.schema.json', raw.header, 'people.csv');
    expect(useLedgerStore.getState().looks).toHaveLength(1);
    expect(selectSpent(useLedgerStore.getState())).toMatchObject({ epsilon: 0.5, delta: 1e-6 });
  });

  it('leaves the ledger at nothing for a schema without learned facts', () => {
    importSchemaText(schemaToJson(inferSchema(raw)), 'people.schema.json', raw.header, 'people.csv');
    expect(useLedgerStore.getState().looks).toHaveLength(0);
  });
});
