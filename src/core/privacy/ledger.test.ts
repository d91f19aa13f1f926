import { describe, expect, it } from 'vitest';
import { InputError } from '../table/errors';
import { formatBudget, ledgerLine, ledgerTotal, parseLedger, type LedgerEntry } from './ledger';

const entry = (epsilon: number, delta = 0): LedgerEntry => ({
  kind: 'export',
  at: '2026-01-02T03:04:05.000Z',
  mechanism: 'laplace-histogram',
  epsilon,
  delta,
  runs: 1,
  what: '1 synthetic dataset',
});

describe('ledgerTotal', () => {
  it('sums ε and δ exactly and rounds up: 0.1 + 0.2 is 0.3, not 0.30000000000000004', () => {
    expect(ledgerTotal([entry(1), entry(1)])).toEqual({ epsilon: 2, delta: 0, entries: 2 });
    expect(ledgerTotal([entry(0.1), entry(0.2)]).epsilon).toBe(0.3);
    // 1/3 shown to 6 digits rounds up (privacy rule 7).
    expect(ledgerTotal([entry(0.3333333333)]).epsilon).toBe(0.333334);
    expect(ledgerTotal([entry(1, 1e-6), entry(0.5, 2e-6)])).toEqual({
      epsilon: 1.5,
      delta: 3e-6,
      entries: 2,
    });
    expect(ledgerTotal([])).toEqual({ epsilon: 0, delta: 0, entries: 0 });
  });

  it('refuses a value that is not a finite privacy number', () => {
    expect(() => ledgerTotal([entry(Infinity)])).toThrow(RangeError);
    expect(() => ledgerTotal([entry(-1)])).toThrow(RangeError);
  });

  it('words a total with δ only when δ > 0', () => {
    expect(formatBudget({ epsilon: 2, delta: 0 })).toBe('ε = 2');
    expect(formatBudget({ epsilon: 2, delta: 1e-6 })).toBe('ε = 2, δ = 0.000001');
  });
});

describe('ledger file', () => {
  it('writes one JSON line per entry and reads it back', () => {
    const text = ledgerLine(entry(1)) + '\n' + ledgerLine(entry(0.5, 1e-7));
    expect(text.split('\n').filter(Boolean)).toHaveLength(2);
    expect(parseLedger(text, 'l.json')).toEqual([entry(1), entry(0.5, 1e-7)]);
  });

  it('refuses a damaged line with the file and line, never undercounting silently', () => {
    const bad = [ledgerLine(entry(1)).trimEnd(), JSON.stringify({ ...entry(1), epsilon: 'one' })].join('\n');
    let caught: unknown;
    try {
      parseLedger(bad, 'l.json');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InputError);
    expect((caught as InputError).message).toMatch(/^l\.json, line 2: "epsilon" must be a number >= 0\./);
    expect(() => parseLedger('not json\n', 'l.json')).toThrow(/line 1: is not valid JSON/);
    expect(() => parseLedger(JSON.stringify({ ...entry(1), kind: 'peek' }), 'l.json')).toThrow(/"kind"/);
    expect(() => parseLedger(JSON.stringify({ ...entry(1), runs: 0 }), 'l.json')).toThrow(/"runs"/);
  });
});
