import { describe, expect, it } from 'vitest';
import type { Schema } from '../table/types';
import { Accountant } from './accountant';
import { SEEDED_ASSUMPTION, standardAssumptions } from './assumptions';
import { parseBudget } from './budget';
import {
  buildReleaseReport,
  convertedLedgerNote,
  PUBLISHED_INFERRED_NOTE,
  REDACTED_NUMBERS_NOTE,
  WITHHELD,
  type ReleaseReportInput,
} from './report';
import { pmseMechanism } from '../mechanisms/pmse-mechanism';
import type { PrivacyClaim } from './types';

const schema: Schema = {
  version: 1,
  columns: [
    { name: 'age', type: 'numeric', bounds: [17, 90], integer: true, source: 'declared' },
    { name: 'sex', type: 'categorical', categories: ['F', 'M'], source: 'inferred' },
  ],
  missing: [''],
};

function claimFor(seeded: boolean): PrivacyClaim {
  const accountant = new Accountant(parseBudget('1'));
  accountant.reserve('noisy histogram', parseBudget('1').epsilon);
  return accountant.claim(standardAssumptions(schema, seeded));
}

function input(seeded: boolean): ReleaseReportInput {
  return {
    appVersion: '0.1.0',
    createdAt: '2026-01-02T03:04:05.000Z',
    schema,
    mechanism: { id: 'laplace-histogram', label: 'Noisy histogram', reference: 'Dwork et al. 2006' },
    params: { bins: 4, smoothing: true, order: 'fixed' },
    claim: claimFor(seeded),
    rows: 1000,
    releases: 2,
    seeded,
    budget: parseBudget('1'),
  };
}

/** Every key anywhere in a JSON value. */
function allKeys(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(allKeys);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) => [key, ...allKeys(inner)]);
  }
  return [];
}

describe('buildReleaseReport', () => {
  it('holds public configuration and the claim, and nothing about utility', () => {
    const report = buildReleaseReport(input(false));
    expect(report.format).toBe('dpsynth-release-report');
    expect(report.formatVersion).toBe(1);
    expect(report.rows).toBe(1000);
    expect(report.columns).toBe(2);
    expect(report.releases).toBe(2);
    expect(report.mechanism).toEqual({
      id: 'laplace-histogram',
      label: 'Noisy histogram',
      reference: 'Dwork et al. 2006',
      params: { bins: 4, smoothing: true, order: 'fixed' },
    });
    expect(report.budget).toEqual({ epsilon: 1, delta: 0 });
    expect(report.claim.epsilon).toBe(1);
    expect(report.inferredFields).toEqual(['sex.type', 'sex.categories']);
    const keys = allKeys(report).map((k) => k.toLowerCase());
    for (const forbidden of ['metrics', 'pmse', 'tvd', 'utility', 'warning', 'data', 'values']) {
      expect(keys).not.toContain(forbidden);
    }
    expect(JSON.stringify(report)).not.toMatch(/pmse|tvd|utility/i);
  });

  it('marks seeded runs: flag, note and the claim assumption', () => {
    const seeded = buildReleaseReport(input(true));
    expect(seeded.seeded).toBe(true);
    expect(seeded.seedNote).toBe(SEEDED_ASSUMPTION);
    expect(seeded.claim.assumptions).toContain(SEEDED_ASSUMPTION);
    const unseeded = buildReleaseReport(input(false));
    expect(unseeded.seeded).toBe(false);
    expect('seedNote' in unseeded).toBe(false);
    expect(unseeded.claim.assumptions).not.toContain(SEEDED_ASSUMPTION);
  });

  it('adds standard assumptions a mechanism left out, without repeating those it gave', () => {
    const bare = { ...input(true), claim: { ...claimFor(false), assumptions: ['Mechanism-specific.'] } };
    const report = buildReleaseReport(bare);
    expect(report.claim.assumptions[0]).toBe('Mechanism-specific.');
    expect(report.claim.assumptions).toContain(SEEDED_ASSUMPTION);
    expect(report.claim.assumptions.some((a) => a.startsWith('Column `sex`'))).toBe(true);
    const complete = buildReleaseReport(input(true));
    expect(complete.claim.assumptions).toEqual(standardAssumptions(schema, true));
  });

  it('withholds inferred bounds and categories: the data’s own values never appear', () => {
    const incomeSchema: Schema = {
      version: 1,
      columns: [
        // The exact minimum and maximum of the data, and a category held by one person.
        { name: 'income', type: 'numeric', bounds: [1234.5, 987654.25], source: 'inferred' },
        { name: 'job', type: 'categorical', categories: ['clerk', 'astronaut'], source: 'inferred' },
        { name: 'age', type: 'numeric', bounds: [0, 120], integer: true, source: 'declared' },
      ],
      missing: [''],
    };
    const report = buildReleaseReport({
      ...input(false),
      schema: incomeSchema,
      claim: { ...claimFor(false), assumptions: standardAssumptions(incomeSchema, false) },
    });
    const text = JSON.stringify(report);
    for (const value of ['1234.5', '987654.25', 'astronaut', 'clerk']) expect(text).not.toContain(value);
    expect(report.schema.columns[0]).toEqual({
      name: 'income',
      type: 'numeric',
      bounds: WITHHELD,
      source: 'inferred',
    });
    expect(report.schema.columns[1]!.categories).toBe('withheld: inferred from the data');
    expect(report.schema.columns[2]!.bounds).toEqual([0, 120]);
    expect(report.inferredValuesPublished).toBe(false);
    expect(report.inferredFields).toEqual([
      'income.type',
      'income.lower',
      'income.upper',
      'job.type',
      'job.categories',
    ]);
  });

  it('withholds only the inferred end of a range whose other end was declared', () => {
    const oneEnd: Schema = {
      version: 1,
      columns: [
        {
          name: 'income',
          type: 'numeric',
          bounds: [0, 987654.25],
          source: 'inferred',
          sources: { type: 'declared', bounds: ['declared', 'inferred'] },
        },
      ],
      missing: [''],
    };
    const report = buildReleaseReport({ ...input(false), schema: oneEnd });
    expect(report.schema.columns[0]!.bounds).toEqual([0, WITHHELD]);
    expect(report.schema.columns[0]!.sources).toEqual({ type: 'declared', bounds: ['declared', 'inferred'] });
    expect(JSON.stringify(report)).not.toContain('987654');
    expect(report.inferredFields).toEqual(['income.upper']);
  });

  it('publishes inferred values only on request, and then says what they reveal', () => {
    const incomeSchema: Schema = {
      version: 1,
      columns: [{ name: 'income', type: 'numeric', bounds: [1234.5, 987654.25], source: 'inferred' }],
      missing: [''],
    };
    const report = buildReleaseReport({ ...input(false), schema: incomeSchema, publishInferred: true });
    expect(report.schema.columns[0]!.bounds).toEqual([1234.5, 987654.25]);
    expect(report.inferredValuesPublished).toBe(true);
    expect(report.notes).toContain(PUBLISHED_INFERRED_NOTE);
    // Nothing inferred, nothing to say.
    const declared: Schema = {
      ...schema,
      columns: schema.columns.map((column) => ({ ...column, source: 'declared' as const })),
    };
    expect(
      buildReleaseReport({ ...input(false), schema: declared, publishInferred: true }).notes,
    ).not.toContain(PUBLISHED_INFERRED_NOTE);
  });

  it('leaves out facts the mechanism does not read: the pMSE mechanism ignores inferred bounds', () => {
    const pmseSchema: Schema = {
      version: 1,
      columns: [
        { name: 'income', type: 'numeric', bounds: [1234.5, 987654.25], source: 'inferred' },
        { name: 'age', type: 'numeric', bounds: [0, 120], source: 'declared' },
      ],
      missing: [''],
    };
    const context = { n: 1000, schema: pmseSchema, epsilon: '1', delta: 0, releases: 1, seeded: false };
    const claim = pmseMechanism.claim({}, context);
    // The claim names the inferred type, not the bounds it never reads.
    expect(claim.assumptions.join(' ')).toMatch(/Column `income`: its type \(numeric\) was read/);
    expect(claim.assumptions.filter((a) => a.startsWith('Column `income`'))).toEqual([
      'Column `income`: its type (numeric) was read from the data instead of declared; the guarantee assumes ' +
        'it is public knowledge.',
    ]);
    const report = buildReleaseReport({
      ...input(false),
      schema: pmseSchema,
      mechanism: pmseMechanism,
      claim,
    });
    expect('bounds' in report.schema.columns[0]!).toBe(false);
    expect(report.schema.columns[1]!.bounds).toEqual([0, 120]);
    expect(report.inferredFields).toEqual(['income.type']);
    expect(report.claim.assumptions.filter((a) => /bounds/.test(a))).toEqual([]);
    expect(JSON.stringify(report)).not.toMatch(/withheld|1234\.5|987654/);
  });

  it('states the cumulative budget of the dataset when given', () => {
    const report = buildReleaseReport({
      ...input(false),
      cumulative: {
        epsilon: 2,
        delta: 0,
        releases: 2,
        counted: 'every export of this dataset',
        neighbouring: 'replace-one',
      },
    });
    expect(report.cumulative).toEqual({
      epsilon: 2,
      delta: 0,
      releases: 2,
      counted: 'every export of this dataset',
      neighbouring: 'replace-one',
    });
    expect(report.notes.some((note) => /cumulative budget/.test(note))).toBe(false);
    expect('cumulative' in buildReleaseReport(input(false))).toBe(false);
    expect(() =>
      buildReleaseReport({
        ...input(false),
        cumulative: { epsilon: Infinity, delta: 0, releases: 1, counted: 'x', neighbouring: 'replace-one' },
      }),
    ).toThrow(RangeError);
  });

  it('states the relation of the cumulative budget, and says so when add/remove entries were converted', () => {
    const cumulative = {
      epsilon: 3,
      delta: 0,
      releases: 2,
      counted: 'every release',
      neighbouring: 'replace-one',
      converted: 1,
    } as const;
    const report = buildReleaseReport({ ...input(false), cumulative });
    expect(report.cumulative).toEqual(cumulative);
    expect(report.notes).toContain(convertedLedgerNote(1));
    expect(convertedLedgerNote(1)).toMatch(
      /^The cumulative budget is stated under replace-one .*: 1 of its entries was stated under add/,
    );
    expect(convertedLedgerNote(2)).toMatch(/2 of its entries were stated under add\/remove and converted/);
    const addRemove = { ...cumulative, neighbouring: 'add-remove', converted: undefined } as const;
    expect(buildReleaseReport({ ...input(false), cumulative: addRemove }).cumulative!.neighbouring).toBe(
      'add-remove',
    );
    const unknown = { ...cumulative, neighbouring: 'add-one' } as unknown as typeof cumulative;
    expect(() => buildReleaseReport({ ...input(false), cumulative: unknown })).toThrow(
      'report: cumulative neighbouring must be replace-one or add-remove; got add-one',
    );
  });

  it('round-trips through JSON unchanged', () => {
    for (const seeded of [false, true]) {
      const report = buildReleaseReport(input(seeded));
      expect(JSON.parse(JSON.stringify(report))).toStrictEqual(report);
    }
  });

  it('copies only named fields: extra properties and non-primitive parameters do not get in', () => {
    const sneaky = {
      ...input(false),
      mechanism: { id: 'm', label: 'M', reference: 'R', summary: 'x', run: () => undefined },
      claim: { ...claimFor(false), metrics: { pmse: 0.1 } } as PrivacyClaim,
      metrics: { tvd: 0.2 },
    } as ReleaseReportInput;
    const report = buildReleaseReport(sneaky);
    expect(JSON.stringify(report)).not.toMatch(/pmse|tvd|summary|metrics/);
    const badParams = { ...input(false), params: { bins: { pmse: 1 } } } as unknown as ReleaseReportInput;
    expect(() => buildReleaseReport(badParams)).toThrow(RangeError);
  });

  it('keeps the claim bound: "proven" as is, "unproven" with its reason; refuses an unknown bound', () => {
    expect(buildReleaseReport(input(false)).claim.bound).toBe('proven');
    const unproven = {
      ...claimFor(false),
      bound: 'unproven' as const,
      unprovenBecause: 'greedy trees, depth 5',
    };
    const report = buildReleaseReport({ ...input(false), claim: unproven });
    expect(report.claim.bound).toBe('unproven');
    expect(report.claim.unprovenBecause).toBe('greedy trees, depth 5');
    const unknown = { ...claimFor(false), bound: 'likely' } as unknown as PrivacyClaim;
    expect(() => buildReleaseReport({ ...input(false), claim: unknown })).toThrow(/bound/);
    const reasonless = { ...claimFor(false), bound: 'unproven' as const };
    expect(() => buildReleaseReport({ ...input(false), claim: reasonless })).toThrow(/reason/);
  });

  it('does not share the schema object with the caller', () => {
    const source = input(false);
    const report = buildReleaseReport(source);
    source.schema.columns[0]!.name = 'changed';
    expect(report.schema.columns[0]!.name).toBe('age');
    source.schema.columns[0]!.name = 'age';
  });

  it('rejects impossible counts and claims', () => {
    expect(() => buildReleaseReport({ ...input(false), rows: -1 })).toThrow(RangeError);
    expect(() => buildReleaseReport({ ...input(false), releases: 0 })).toThrow(RangeError);
    const nanClaim = { ...claimFor(false), epsilon: NaN };
    expect(() => buildReleaseReport({ ...input(false), claim: nanClaim })).toThrow(RangeError);
  });

  it('stamps the current time when none is given', () => {
    const { createdAt: _omitted, ...rest } = input(false);
    const report = buildReleaseReport(rest);
    expect(Number.isNaN(Date.parse(report.createdAt))).toBe(false);
  });
});

describe('buildReleaseReport copies exactly what it checks', () => {
  it('keeps each step’s δ, μ and ρ, and the claim’s μ, ρ and composition, only when present', () => {
    const claim: PrivacyClaim = {
      ...claimFor(false),
      notion: 'approx-dp',
      delta: 1e-6,
      mu: 0.5,
      rho: 0.02,
      steps: [
        { what: 'counts', epsilon: 0.5, delta: 1e-6, mu: 0.4, rho: 0.01 },
        { what: 'selection', epsilon: 0.5 },
      ],
      composedOf: {
        domain: { epsilon: 0.1, delta: 0 },
        mechanism: { notion: 'approx-dp', epsilon: 0.9, delta: 1e-6 },
      },
    };
    const report = buildReleaseReport({ ...input(false), claim });
    expect(report.claim.steps).toStrictEqual([
      { what: 'counts', epsilon: 0.5, delta: 1e-6, mu: 0.4, rho: 0.01 },
      { what: 'selection', epsilon: 0.5 },
    ]);
    expect(report.claim.mu).toBe(0.5);
    expect(report.claim.rho).toBe(0.02);
    expect(report.claim.composedOf).toStrictEqual(claim.composedOf);
    expect(report.claim.composedOf).not.toBe(claim.composedOf);
    const plain = buildReleaseReport(input(false)).claim;
    expect('mu' in plain || 'rho' in plain || 'composedOf' in plain).toBe(false);
  });

  it('names the field and the step of a number it refuses', () => {
    const base = claimFor(false);
    const withStep = (step: object): PrivacyClaim => ({
      ...base,
      steps: [base.steps[0]!, { what: 'bad', epsilon: 0.1, ...step }],
    });
    const cases: [PrivacyClaim, string][] = [
      [withStep({ epsilon: -1 }), 'report: claim step 2 ε must be a finite number >= 0; got -1'],
      [withStep({ delta: NaN }), 'report: claim step 2 δ must be a finite number >= 0; got NaN'],
      [withStep({ mu: -1 }), 'report: claim step 2 μ must be'],
      [withStep({ rho: Infinity }), 'report: claim step 2 ρ must be'],
      [{ ...base, epsilon: -1 }, 'report: claim ε must be'],
      [{ ...base, delta: -1 }, 'report: claim δ must be'],
      [{ ...base, mu: -1 }, 'report: claim μ must be'],
      [{ ...base, rho: -1 }, 'report: claim ρ must be'],
      [
        {
          ...base,
          composedOf: {
            domain: { epsilon: 0.1, delta: -1 },
            mechanism: { notion: 'pure-dp', epsilon: 0.9, delta: 0 },
          },
        },
        'report: claim domain δ must be',
      ],
    ];
    for (const [claim, message] of cases) {
      expect(() => buildReleaseReport({ ...input(false), claim }), message).toThrow(message);
    }
  });

  it('names the count or parameter it refuses, accepting the smallest valid counts', () => {
    expect(() => buildReleaseReport({ ...input(false), rows: 1.5 })).toThrow(
      'report: rows must be a whole number >= 0; got 1.5',
    );
    expect(() => buildReleaseReport({ ...input(false), releases: 0 })).toThrow(
      'report: releases must be a whole number >= 1; got 0',
    );
    expect(buildReleaseReport({ ...input(false), rows: 0, releases: 1 }).rows).toBe(0);
    const badParams = { ...input(false), params: { bins: [4] } } as unknown as ReleaseReportInput;
    expect(() => buildReleaseReport(badParams)).toThrow(
      'report: parameter "bins" must be a number, string or boolean; got object',
    );
    const cumulative = {
      epsilon: 1,
      delta: 0,
      releases: 1,
      counted: 'every export',
      neighbouring: 'replace-one',
    } as const;
    expect(buildReleaseReport({ ...input(false), cumulative }).cumulative).toEqual(cumulative);
    expect(() => buildReleaseReport({ ...input(false), cumulative: { ...cumulative, epsilon: -1 } })).toThrow(
      'report: cumulative ε must be',
    );
    expect(() => buildReleaseReport({ ...input(false), cumulative: { ...cumulative, delta: NaN } })).toThrow(
      'report: cumulative δ must be',
    );
    expect(() => buildReleaseReport({ ...input(false), cumulative: { ...cumulative, releases: 0 } })).toThrow(
      'report: cumulative releases must be a whole number >= 1; got 0',
    );
  });

  it('keeps notes as given (a copy) and states no budget when none is given', () => {
    const notes = ['Run on a test file.'];
    const report = buildReleaseReport({ ...input(false), notes });
    // The input's schema withholds inferred facts: the note on the claim's numbers follows the given ones.
    expect(report.notes).toEqual(['Run on a test file.', REDACTED_NUMBERS_NOTE]);
    notes.push('later');
    expect(report.notes).toEqual(['Run on a test file.', REDACTED_NUMBERS_NOTE]);
    expect(buildReleaseReport(input(false)).notes).toEqual([REDACTED_NUMBERS_NOTE]);
    expect(buildReleaseReport({ ...input(false), publishInferred: true, notes: [] }).notes).toEqual([
      PUBLISHED_INFERRED_NOTE,
    ]);
    const { budget: _budget, ...withoutBudget } = input(false);
    expect('budget' in buildReleaseReport(withoutBudget)).toBe(false);
  });

  it('writes a column’s whole-number flag, categories, "other" label, missing tokens and domain budget', () => {
    const declared: Schema = {
      version: 1,
      columns: [
        { name: 'age', type: 'numeric', bounds: [0, 120], integer: false, source: 'declared' },
        { name: 'n', type: 'numeric', source: 'declared' },
        { name: 'job', type: 'categorical', categories: ['a', 'b'], other: 'other', source: 'declared' },
        { name: 'city', type: 'categorical', categories: ['x'], other: 'else', source: 'inferred' },
        { name: 'free', type: 'categorical', source: 'declared' },
        { name: 'plain', type: 'categorical', categories: ['p', 'q'], source: 'declared' },
        {
          name: 'kind',
          type: 'categorical',
          categories: ['u', 'v'],
          source: 'inferred',
          sources: { categories: 'declared' },
        },
        {
          name: 'low',
          type: 'numeric',
          bounds: [3, 120],
          source: 'inferred',
          sources: { type: 'declared', bounds: ['inferred', 'declared'] },
        },
      ],
      missing: ['', 'NA'],
      domainBudget: { epsilon: '0.1', delta: '0', learnedAt: '2026-01-01T00:00:00.000Z', steps: [] },
    };
    const report = buildReleaseReport({ ...input(false), schema: declared });
    const [age, n, job, city, free] = report.schema.columns;
    expect(age).toStrictEqual({
      name: 'age',
      type: 'numeric',
      source: 'declared',
      bounds: [0, 120],
      integer: false,
    });
    expect(n).toStrictEqual({ name: 'n', type: 'numeric', source: 'declared' });
    expect(job).toStrictEqual({
      name: 'job',
      type: 'categorical',
      source: 'declared',
      categories: ['a', 'b'],
      other: 'other',
    });
    // The "other" label of withheld categories is withheld with them.
    expect(city).toStrictEqual({
      name: 'city',
      type: 'categorical',
      source: 'inferred',
      categories: WITHHELD,
    });
    expect(free).toStrictEqual({ name: 'free', type: 'categorical', source: 'declared' });
    expect(report.schema.columns[5]).toStrictEqual({
      name: 'plain',
      type: 'categorical',
      source: 'declared',
      categories: ['p', 'q'],
    });
    expect(report.schema.columns[6]!.categories).toEqual(['u', 'v']);
    expect(report.schema.columns[7]!.bounds).toEqual([WITHHELD, 120]);
    expect(report.schema.missing).toEqual(['', 'NA']);
    expect(report.schema.domainBudget).toStrictEqual(declared.domainBudget);
    expect(report.schema.domainBudget).not.toBe(declared.domainBudget);
    expect('domainBudget' in buildReleaseReport(input(false)).schema).toBe(false);
  });
});
