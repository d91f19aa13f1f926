import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PrivacyClaim } from '../core/privacy/types';
import type { Schema } from '../core/table/types';
import { appendLedgerLines, readLedger, releaseLedgerLines, reportCumulative } from './release-ledger';

const learned: Schema = {
  version: 1,
  columns: [{ name: 'x', type: 'categorical', categories: ['a', 'b'], source: 'dp' }],
  missing: [''],
  domainBudget: {
    epsilon: '0.1',
    delta: '1e-6',
    learnedAt: '2026-01-01T00:00:00.000Z',
    steps: [{ fact: 'x.categories', what: 'category list of x', epsilon: '0.1', delta: '1e-6' }],
  },
};
// A claim composed of the domain steps and the mechanism's own part (ε = 1).
const claim = {
  epsilon: 1.1,
  delta: 1e-6,
  neighbouring: 'replace-one',
  composedOf: { mechanism: { epsilon: 1, delta: 0 } },
} as unknown as PrivacyClaim;
const release = {
  schema: learned,
  schemaPath: 'dir/s.json',
  mechanismId: 'laplace-histogram',
  claim,
  what: 'r',
};

describe('the release ledger', () => {
  it('counts a schema learned with DP once, in a line of its own, and the release at its own part', () => {
    const first = releaseLedgerLines({ entries: [] }, release);
    expect(first.added.map((line) => [line.kind, line.epsilon, line.delta])).toEqual([
      ['domain', 0.1, 1e-6],
      ['export', 1, 0],
    ]);
    expect(first.cumulative).toMatchObject({ epsilon: 1.1, delta: 1e-6, entries: 2 });
    // A second release on the same schema adds only its own line.
    const second = releaseLedgerLines({ entries: first.added }, release);
    expect(second.added.map((line) => line.kind)).toEqual(['export']);
    expect(second.cumulative).toMatchObject({ epsilon: 2.1, entries: 3 });
    expect(reportCumulative(second.cumulative, 'dir/ledger.csv')).toEqual({
      epsilon: second.cumulative.epsilon,
      delta: second.cumulative.delta,
      releases: 3,
      counted: 'every release recorded in the ledger ledger.csv, this one included',
      neighbouring: 'replace-one',
    });
  });

  it('records a release under add/remove with its relation; a mixed ledger totals under replace-one', () => {
    const addRemove = { ...claim, neighbouring: 'add-remove', composedOf: undefined } as PrivacyClaim;
    const plain: Schema = { ...learned, domainBudget: undefined };
    const first = releaseLedgerLines({ entries: [] }, { ...release, schema: plain, claim: addRemove });
    expect(first.added.map((line) => line.neighbouring)).toEqual(['add-remove']);
    expect(first.cumulative).toMatchObject({ epsilon: 1.1, delta: 1e-6, neighbouring: 'add-remove' });
    const second = releaseLedgerLines(
      { entries: first.added },
      { ...release, schema: plain, claim: { ...addRemove, neighbouring: 'replace-one' } },
    );
    // (1.1, 1e-6) under add/remove is (2.2, (1 + e^1.1)·1e-6) under replace-one (Dwork & Roth 2014,
    // §2.3): e^1.1 = 3.004166…, so δ = 4.004166…e-6, plus the replace-one release's 1e-6: 5.00417e-6
    // rounded up; ε = 2.2 + 1.1 = 3.3.
    expect(second.cumulative).toEqual({
      epsilon: 3.3,
      delta: 5.00417e-6,
      entries: 2,
      neighbouring: 'replace-one',
      converted: 1,
    });
    expect(reportCumulative(second.cumulative, 'l.jsonl')).toMatchObject({
      neighbouring: 'replace-one',
      converted: 1,
    });
  });

  it('writes the lines it is given, in order, so that reading the ledger gives them back', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'ledger-')), 'ledger.csv');
    expect(readLedger(path).entries).toEqual([]);
    const { added } = releaseLedgerLines({ entries: [] }, release);
    appendLedgerLines(path, added);
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(2);
    expect(readLedger(path).entries).toEqual(added);
  });
});
