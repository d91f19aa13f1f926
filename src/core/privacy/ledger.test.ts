import { describe, expect, it } from 'vitest';
import { InputError } from '../table/errors';
import {
  formatBudget,
  formatLedgerTotal,
  ledgerLine,
  ledgerTotal,
  parseLedger,
  type LedgerEntry,
} from './ledger';
import type { Neighbouring } from './neighbouring-relation';

const entry = (epsilon: number, delta = 0, neighbouring: Neighbouring = 'replace-one'): LedgerEntry => ({
  kind: 'export',
  at: '2026-01-02T03:04:05.000Z',
  mechanism: 'laplace-histogram',
  epsilon,
  delta,
  runs: 1,
  what: '1 synthetic dataset',
  neighbouring,
});
const addRemove = (epsilon: number, delta = 0): LedgerEntry => entry(epsilon, delta, 'add-remove');
const replaceOne = { neighbouring: 'replace-one', converted: 0 } as const;

describe('ledgerTotal', () => {
  it('sums ε and δ exactly and rounds up: 0.1 + 0.2 is 0.3, not 0.30000000000000004', () => {
    expect(ledgerTotal([entry(1), entry(1)])).toEqual({ epsilon: 2, delta: 0, entries: 2, ...replaceOne });
    expect(ledgerTotal([entry(0.1), entry(0.2)]).epsilon).toBe(0.3);
    // 1/3 shown to 6 digits rounds up (privacy rule 7).
    expect(ledgerTotal([entry(0.3333333333)]).epsilon).toBe(0.333334);
    expect(ledgerTotal([entry(1, 1e-6), entry(0.5, 2e-6)])).toEqual({
      epsilon: 1.5,
      delta: 3e-6,
      entries: 2,
      ...replaceOne,
    });
    expect(ledgerTotal([])).toEqual({ epsilon: 0, delta: 0, entries: 0, ...replaceOne });
  });

  it('sums entries all under add/remove under add/remove, unconverted', () => {
    expect(ledgerTotal([addRemove(1), addRemove(0.5, 1e-6)])).toEqual({
      epsilon: 1.5,
      delta: 1e-6,
      entries: 2,
      neighbouring: 'add-remove',
      converted: 0,
    });
  });

  it('states a mixed ledger under replace-one, each add/remove entry counted as two steps', () => {
    // Pure ε: a replacement is a removal and an addition, so add/remove ε = 1 is replace-one ε = 2
    // (Dwork & Roth 2014, Theorem 2.2); with replace-one ε = 1 the total is 3, not 2.
    expect(ledgerTotal([entry(1), addRemove(1)])).toEqual({
      epsilon: 3,
      delta: 0,
      entries: 2,
      neighbouring: 'replace-one',
      converted: 1,
    });
    // (ε, δ) = (1, 1e-6) under add/remove is (2, (1 + e)·1e-6) under replace-one (§2.3); e =
    // 2.718281828…, so (1 + e)·1e-6 = 3.718281…e-6, rounded up to 6 digits 3.71829e-6.
    expect(ledgerTotal([addRemove(1, 1e-6), entry(0.5)])).toEqual({
      epsilon: 2.5,
      delta: 3.71829e-6,
      entries: 2,
      neighbouring: 'replace-one',
      converted: 1,
    });
    // Asked for under replace-one, an add/remove-only part is converted too (a part of a mixed total).
    expect(ledgerTotal([addRemove(0.25)], 'replace-one')).toMatchObject({ epsilon: 0.5, converted: 1 });
  });

  it('refuses a total under add/remove that holds a replace-one entry (n public implies nothing there)', () => {
    expect(() => ledgerTotal([entry(1), addRemove(1)], 'add-remove')).toThrow(
      'ledger: a replace-one entry (n public) implies nothing under add/remove',
    );
  });

  it('words a total with its relation unless every entry is replace-one', () => {
    expect(formatLedgerTotal(ledgerTotal([entry(1), entry(1)]))).toBe('ε = 2');
    expect(formatLedgerTotal(ledgerTotal([addRemove(1), addRemove(1, 1e-6)]))).toBe(
      'ε = 2, δ = 0.000001 (add/remove)',
    );
    expect(formatLedgerTotal(ledgerTotal([entry(1), addRemove(1)]))).toBe(
      'ε = 3 (replace-one, add/remove entries converted)',
    );
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

  it('writes the relation on every line, and counts a line without it conservatively', () => {
    expect(ledgerLine(entry(1))).toBe(
      '{"kind":"export","at":"2026-01-02T03:04:05.000Z","mechanism":"laplace-histogram","epsilon":1,' +
        '"delta":0,"runs":1,"what":"1 synthetic dataset","neighbouring":"replace-one"}\n',
    );
    expect(ledgerLine(addRemove(1))).toBe(
      '{"kind":"export","at":"2026-01-02T03:04:05.000Z","mechanism":"laplace-histogram","epsilon":1,' +
        '"delta":0,"runs":1,"what":"1 synthetic dataset","neighbouring":"add-remove"}\n',
    );
    // A line of an earlier version, which did not state the relation of its add/remove runs either:
    // read as add/remove, converted in a replace-one total (1 + 2 here), never in an add/remove one.
    const old = '{"kind":"run","at":"x","mechanism":"mst","epsilon":1,"delta":0,"runs":1,"what":"w"}';
    expect(parseLedger(old, 'l.json')[0]).toMatchObject({
      neighbouring: 'add-remove',
      relationUnstated: true,
    });
    const mixed = parseLedger(old + '\n' + ledgerLine(entry(1)), 'l.json');
    expect(formatLedgerTotal(ledgerTotal(mixed))).toBe('ε = 3 (replace-one, add/remove entries converted)');
    const withAddRemove = parseLedger(old + '\n' + ledgerLine(addRemove(1)), 'l.json');
    expect(formatLedgerTotal(ledgerTotal(withAddRemove))).toBe(
      'ε = 4 (replace-one, add/remove entries converted)',
    );
    expect(() => ledgerTotal(withAddRemove, 'add-remove')).toThrow(RangeError);
    expect(parseLedger(JSON.stringify({ ...entry(1), neighbouring: 'replace-one' }), 'l.json')).toEqual([
      entry(1),
    ]);
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

describe('ledger checks', () => {
  it('names the entry and the value it refuses when summing', () => {
    expect(() => ledgerTotal([entry(1), entry(-1)])).toThrow(
      'ledger: entry 2 ε must be a finite number >= 0; got -1',
    );
    expect(() => ledgerTotal([entry(1), entry(1), entry(1, Infinity)])).toThrow(
      'ledger: entry 3 δ must be a finite number >= 0; got Infinity',
    );
  });

  it('reads a file with a byte-order mark, blank and whitespace-only lines, and CRLF endings', () => {
    const text = `\ufeff${ledgerLine(entry(1)).trimEnd()}\r\n   \r\n\t\n${ledgerLine(entry(0.5, 1e-7))}`;
    expect(parseLedger(text, 'l.json')).toEqual([entry(1), entry(0.5, 1e-7)]);
  });

  it('refuses every malformed field, naming the file, the line and the field', () => {
    const line = (patch: object): string => JSON.stringify({ ...entry(1), ...patch });
    const failure = (text: string): InputError => {
      try {
        parseLedger(text, 'l.json');
      } catch (error) {
        return error as InputError;
      }
      throw new Error(`accepted ${text}`);
    };
    const cases: [string, string][] = [
      ['[1, 2]', 'is not a JSON object.'],
      ['null', 'is not a JSON object.'],
      ['7', 'is not a JSON object.'],
      [line({ kind: 'peek' }), '"kind" must be one of run, sweep, compare, export, domain.'],
      [line({ epsilon: -0.5 }), '"epsilon" must be a number >= 0.'],
      [line({ delta: -1e-9 }), '"delta" must be a number >= 0.'],
      [line({ runs: 1.5 }), '"runs" must be a whole number >= 1.'],
      [line({ runs: '2' }), '"runs" must be a whole number >= 1.'],
      [line({ at: 5 }), '"at" must be a string.'],
      [line({ mechanism: null }), '"mechanism" must be a string.'],
      [line({ what: ['x'] }), '"what" must be a string.'],
      [line({ neighbouring: 'add-one' }), '"neighbouring" must be one of replace-one, add-remove.'],
      [line({ neighbouring: null }), '"neighbouring" must be one of replace-one, add-remove.'],
    ];
    for (const [bad, problem] of cases) {
      const error = failure(`${ledgerLine(entry(1))}\n${bad}\n`);
      expect(error, bad).toBeInstanceOf(InputError);
      expect([error.file, error.line], bad).toEqual(['l.json', 3]);
      expect(error.message, bad).toBe(
        `l.json, line 3: ${problem} A ledger line is a JSON object with kind, at, mechanism, epsilon, ` +
          'delta, runs, what and neighbouring, as dpsynth writes it; restore the file rather than edit it.',
      );
    }
  });
});
