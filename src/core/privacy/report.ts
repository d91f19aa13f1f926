/**
 * The release report dpsynth writes beside its synthetic data (DESIGN.md §2 "Release report"): it
 * holds only DP outputs and public configuration and travels with the data. The evaluation report,
 * utility metrics computed from the real data for the data holder only, is written by
 * metrics/evaluation-json.ts.
 */
import { claimBound } from './claim-bound';
import type { ColumnSchema, DomainBudget, FactSources, FieldSource, Schema } from '../table/types';
import { partSource } from '../table/schema-facts';
import { inferredFields, SEEDED_ASSUMPTION, standardAssumptions } from './assumptions';
import type { PrivacyBudget } from './budget';
import type { Neighbouring } from './neighbouring-relation';
import { roundUpRational } from './round-up';
import type { ClaimStep, PrivacyClaim } from './types';

/** A parameter value as the mechanism form and the CLI give it. */
export type ReportParamValue = number | string | boolean;

/** The mechanism as named in a report: public identity and reference, no code. */
export interface ReportedMechanism {
  id: string;
  label: string;
  reference: string;
  params: Record<string, ReportParamValue>;
}

/** What the release report writes in place of a value read from the data. */
export const WITHHELD = 'withheld: inferred from the data' as const;
export type Withheld = typeof WITHHELD;

/** A schema column as the release report writes it: inferred bounds and categories withheld. */
export interface ReportedColumn {
  name: string;
  type: ColumnSchema['type'];
  /** WITHHELD for both ends, or a pair in which an inferred end is WITHHELD. */
  bounds?: [number | Withheld, number | Withheld] | Withheld;
  integer?: boolean;
  categories?: string[] | Withheld;
  /** Whether the column can be missing; WITHHELD when read from the data. */
  canBeMissing?: boolean | Withheld;
  /** The level that took values outside a learned category list. */
  other?: string;
  source: FieldSource;
  sources?: FactSources;
}

export interface ReportedSchema {
  version: 1;
  columns: ReportedColumn[];
  missing: string[];
  /** The DP steps that learned the facts marked "dp" (DP outputs and their cost: public). */
  domainBudget?: DomainBudget;
}

/** The sentence a report carries when the user chose to publish inferred values. */
export const PUBLISHED_INFERRED_NOTE =
  'Schema values read from the data (inferred) are published in this report at the user’s request: ' +
  'they are exact values of the data (e.g. its minimum, maximum and list of categories) and are not ' +
  'covered by the privacy claim.';

/** One kind of look at the data in a ledger, summed. */
export interface LedgerLookSummary {
  /** "runs shown", "ε-sweep points", "comparison runs", "domain learnings (kept or discarded)". */
  what: string;
  count: number;
  /** Σ ε and Σ δ of these looks (basic sequential composition), rounded up. */
  epsilon: number;
  delta: number;
}

/**
 * The budget spent on the dataset so far, this release included: one ledger total, with what was
 * exported and what the data holder looked at beside it.
 */
export interface CumulativeBudget {
  /**
   * Σ ε and Σ δ of every ledger entry of the dataset (basic sequential composition), rounded up: every
   * release, and in the studio everything whose result was shown, exported or not.
   */
  epsilon: number;
  delta: number;
  /** Releases (exports) counted, this one included. */
  releases: number;
  /** What was counted, e.g. "every export of this dataset in this studio session". */
  counted: string;
  /**
   * The relation every number of the cumulative budget is stated under (ledger.ts ledgerTotal):
   * add/remove only when every entry is; else replace-one, add/remove entries converted.
   */
  neighbouring: Neighbouring;
  /** Entries stated under add/remove and converted to replace-one to be summed (absent when none). */
  converted?: number;
  /** The exports alone, this one included (the studio; in the CLI every entry is a release). */
  exported?: { epsilon: number; delta: number; releases: number };
  /** Everything the data holder looked at, by kind (the studio). */
  lookedAt?: { epsilon: number; delta: number; looks: LedgerLookSummary[] };
}

export interface ReleaseReport {
  format: 'dpsynth-release-report';
  formatVersion: 1;
  appVersion: string;
  /** ISO 8601 time the report was made. */
  createdAt: string;
  /**
   * Rows of the input: public under replace-one neighbours; absent under add/remove, where n is private
   * (a note says why).
   */
  rows?: number;
  columns: number;
  /** Number of synthetic datasets released. */
  releases: number;
  /** The facts the mechanism read, inferred bounds and categories withheld unless published on request. */
  schema: ReportedSchema;
  mechanism: ReportedMechanism;
  /** The budget the user set (the claim states what was spent), rounded up to 15 digits. */
  budget?: { epsilon: number; delta: number };
  claim: PrivacyClaim;
  seeded: boolean;
  /** Present exactly when seeded. */
  seedNote?: string;
  /** Schema values the mechanism read that came from the data, as "column.part" paths. */
  inferredFields: string[];
  /** True when the user asked for inferred values to be written instead of withheld. */
  inferredValuesPublished: boolean;
  /** Present when the studio's or the CLI's ledger counted the releases of this dataset. */
  cumulative?: CumulativeBudget;
  notes: string[];
}

export interface ReleaseReportInput {
  appVersion: string;
  /** Defaults to now. */
  createdAt?: Date | string;
  schema: Schema;
  /**
   * A Mechanism object may be passed as is; only id, label and reference are kept. `schemaRead`
   * gives the part of the schema the mechanism reads: facts it ignores are neither published nor
   * listed among the claim's assumptions.
   */
  mechanism: { id: string; label: string; reference: string; schemaRead?: (schema: Schema) => Schema };
  params: Record<string, ReportParamValue>;
  claim: PrivacyClaim;
  rows: number;
  releases: number;
  seeded: boolean;
  budget?: PrivacyBudget;
  /** Write inferred bounds and categories instead of withholding them (default false). */
  publishInferred?: boolean;
  cumulative?: CumulativeBudget;
  notes?: string[];
}

function checkCount(value: number, what: string, smallest: number): void {
  if (!Number.isInteger(value) || value < smallest) {
    throw new RangeError(`report: ${what} must be a whole number >= ${smallest}; got ${value}`);
  }
}

function checkPrivacyNumber(value: number | undefined, what: string): void {
  if (value !== undefined && !(Number.isFinite(value) && value >= 0)) {
    throw new RangeError(`report: ${what} must be a finite number >= 0; got ${value}`);
  }
}

/** Only parameters of the declared primitive types pass: nothing computed from the data rides along. */
function copyParams(params: Record<string, ReportParamValue>): Record<string, ReportParamValue> {
  const copy: Record<string, ReportParamValue> = {};
  for (const [key, value] of Object.entries(params)) {
    if (typeof value !== 'number' && typeof value !== 'string' && typeof value !== 'boolean') {
      throw new RangeError(
        `report: parameter "${key}" must be a number, string or boolean; got ${typeof value}`,
      );
    }
    copy[key] = value;
  }
  return copy;
}

/** What a number in a claim's text becomes when it may be derived from a withheld fact. */
export const REDACTED_NUMBER = '[withheld]' as const;

/**
 * A number standing on its own in a sentence ("1,178-cell", "(37 classes)", "38 clusters", "0.5"),
 * not one inside a name ("x1", "age2"): no letter, digit or underscore just before or after it.
 */
const STANDALONE_NUMBER = /(?<![\p{L}\p{N}_])\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?(?![\p{L}\p{N}_])/gu;

/** `text` with every standalone number replaced by REDACTED_NUMBER. */
export function redactNumbers(text: string): string {
  return text.replace(STANDALONE_NUMBER, REDACTED_NUMBER);
}

/** The sentence a report carries when it withheld the numbers of its claim's texts. */
export const REDACTED_NUMBERS_NOTE =
  `Numbers in the claim's step descriptions and assumptions are written as "${REDACTED_NUMBER}": the ` +
  'mechanism read schema facts taken from the data, which this report withholds, and counts made from ' +
  'them (cells of a cross-tabulation, levels, classes, clusters; an integer column’s level count gives ' +
  'its range) would reveal them. The claim’s ε and δ and the numbers of each step are not affected; ' +
  'publishing the inferred facts on request keeps the texts whole.';

function copyStep(step: ClaimStep, index: number, redact: boolean): ClaimStep {
  checkPrivacyNumber(step.epsilon, `claim step ${index + 1} ε`);
  checkPrivacyNumber(step.delta, `claim step ${index + 1} δ`);
  checkPrivacyNumber(step.mu, `claim step ${index + 1} μ`);
  checkPrivacyNumber(step.rho, `claim step ${index + 1} ρ`);
  const copy: ClaimStep = { what: redact ? redactNumbers(step.what) : step.what, epsilon: step.epsilon };
  if (step.delta !== undefined) copy.delta = step.delta;
  if (step.mu !== undefined) copy.mu = step.mu;
  if (step.rho !== undefined) copy.rho = step.rho;
  return copy;
}

/**
 * The claim as it goes into a report: only the claim's own fields, numbers checked, `bound` kept (an
 * unproven claim must carry its reason), and the standard
 * assumptions (inferred schema facts, the seed sentence) added if the mechanism left any out.
 */
function reportedClaim(claim: PrivacyClaim, schema: Schema, seeded: boolean, redact: boolean): PrivacyClaim {
  checkPrivacyNumber(claim.epsilon, 'claim ε');
  checkPrivacyNumber(claim.delta, 'claim δ');
  checkPrivacyNumber(claim.mu, 'claim μ');
  checkPrivacyNumber(claim.rho, 'claim ρ');
  const assumptions = claim.assumptions.map((sentence) => (redact ? redactNumbers(sentence) : sentence));
  for (const sentence of standardAssumptions(schema, seeded)) {
    if (!assumptions.includes(sentence)) assumptions.push(sentence);
  }
  if (claim.bound !== 'proven' && claim.bound !== 'unproven') {
    throw new RangeError(`report: claim bound must be "proven" or "unproven"; got ${String(claim.bound)}`);
  }
  const copy: PrivacyClaim = {
    notion: claim.notion,
    epsilon: claim.epsilon,
    delta: claim.delta,
    neighbouring: claim.neighbouring,
    ...claimBound(claim.bound === 'unproven' ? { unprovenBecause: claim.unprovenBecause ?? '' } : undefined),
    steps: claim.steps.map((step, i) => copyStep(step, i, redact)),
    assumptions,
  };
  if (claim.mu !== undefined) copy.mu = claim.mu;
  if (claim.rho !== undefined) copy.rho = claim.rho;
  if (claim.otherRelation !== undefined) copy.otherRelation = claim.otherRelation;
  if (claim.composedOf !== undefined) {
    const { domain, mechanism } = claim.composedOf;
    for (const [value, what] of [
      [domain.epsilon, 'domain ε'],
      [domain.delta, 'domain δ'],
      [mechanism.epsilon, 'mechanism ε'],
      [mechanism.delta, 'mechanism δ'],
    ] as const) {
      checkPrivacyNumber(value, `claim ${what}`);
    }
    copy.composedOf = JSON.parse(JSON.stringify(claim.composedOf)) as typeof claim.composedOf;
  }
  return copy;
}

function isoTime(createdAt: Date | string | undefined): string {
  if (createdAt === undefined) return new Date().toISOString();
  return typeof createdAt === 'string' ? createdAt : createdAt.toISOString();
}

/**
 * Builds the release report from public configuration and DP outputs only: it copies named fields
 * (never spreads its input), so utility metrics or data cannot slip in. The claim's assumptions are
 * completed with the standard sentences; `seedNote` and `inferredFields` are derived from the seed
 * flag and the schema. The schema is the part the mechanism reads, with values inferred from the
 * data withheld unless `publishInferred`. Throws RangeError for non-whole counts, non-primitive parameters or a claim
 * with a negative or non-finite number.
 */
/** The note of a report whose cumulative budget converted `converted` add/remove entries. */
export function convertedLedgerNote(converted: number): string {
  return (
    `The cumulative budget is stated under replace-one neighbours (one row replaced, n public): ${converted} ` +
    `of its entries ${converted === 1 ? 'was' : 'were'} stated under add/remove and converted (a replacement ` +
    'is a removal and an addition, so ε doubles and δ becomes (1 + e^ε)·δ; Dwork & Roth 2014, Theorem 2.2 ' +
    'and §2.3). A replace-one guarantee implies nothing under add/remove.'
  );
}

/** The note of a report under add/remove neighbours, which leaves the input's row count out. */
export const PRIVATE_ROWS_NOTE =
  'The number of input rows is not written: under add/remove neighbours it is private, and the synthetic row count is a noisy estimate of it.';

export function buildReleaseReport(input: ReleaseReportInput): ReleaseReport {
  checkCount(input.rows, 'rows', 0);
  checkCount(input.releases, 'releases', 1);
  const read = input.mechanism.schemaRead?.(input.schema) ?? input.schema;
  const publishInferred = input.publishInferred === true;
  const notes = [...(input.notes ?? [])];
  if (publishInferred && inferredFields(read).length > 0) notes.push(PUBLISHED_INFERRED_NOTE);
  // A count made from a withheld fact would give it away: while any fact is withheld, the claim's
  // texts lose their numbers (the structured ε, δ, ρ, μ of the claim and its steps stay).
  const schema = reportedSchema(read, publishInferred);
  const redact = JSON.stringify(schema.columns).includes(JSON.stringify(WITHHELD));
  if (redact) notes.push(REDACTED_NUMBERS_NOTE);
  if (input.claim.neighbouring === 'add-remove') notes.push(PRIVATE_ROWS_NOTE);
  const report: ReleaseReport = {
    format: 'dpsynth-release-report',
    formatVersion: 1,
    appVersion: input.appVersion,
    createdAt: isoTime(input.createdAt),
    ...(input.claim.neighbouring === 'add-remove' ? {} : { rows: input.rows }),
    columns: input.schema.columns.length,
    releases: input.releases,
    schema,
    mechanism: {
      id: input.mechanism.id,
      label: input.mechanism.label,
      reference: input.mechanism.reference,
      params: copyParams(input.params),
    },
    claim: reportedClaim(input.claim, read, input.seeded, redact),
    seeded: input.seeded,
    inferredFields: inferredFields(read),
    inferredValuesPublished: publishInferred,
    notes,
  };
  if (input.budget !== undefined) {
    report.budget = {
      epsilon: roundUpRational(input.budget.epsilon, 15),
      delta: roundUpRational(input.budget.delta, 15),
    };
  }
  if (input.cumulative !== undefined) {
    const { epsilon, delta, releases, counted, neighbouring, converted, exported, lookedAt } =
      input.cumulative;
    checkPrivacyNumber(epsilon, 'cumulative ε');
    checkPrivacyNumber(delta, 'cumulative δ');
    checkCount(releases, 'cumulative releases', 1);
    if (neighbouring !== 'replace-one' && neighbouring !== 'add-remove') {
      throw new RangeError(
        `report: cumulative neighbouring must be replace-one or add-remove; got ${String(neighbouring)}`,
      );
    }
    report.cumulative = { epsilon, delta, releases, counted, neighbouring };
    if (converted !== undefined && converted > 0) {
      checkCount(converted, 'cumulative converted entries', 1);
      report.cumulative.converted = converted;
      report.notes.push(convertedLedgerNote(converted));
    }
    if (exported !== undefined) {
      checkPrivacyNumber(exported.epsilon, 'exported ε');
      checkPrivacyNumber(exported.delta, 'exported δ');
      checkCount(exported.releases, 'exported releases', 1);
      report.cumulative.exported = { ...exported };
    }
    if (lookedAt !== undefined) {
      checkPrivacyNumber(lookedAt.epsilon, 'looked-at ε');
      checkPrivacyNumber(lookedAt.delta, 'looked-at δ');
      report.cumulative.lookedAt = {
        epsilon: lookedAt.epsilon,
        delta: lookedAt.delta,
        looks: lookedAt.looks.map(({ what, count, epsilon: e, delta: d }) => {
          checkCount(count, `looks "${what}"`, 1);
          checkPrivacyNumber(e, `looks "${what}" ε`);
          checkPrivacyNumber(d, `looks "${what}" δ`);
          return { what, count, epsilon: e, delta: d };
        }),
      };
    }
  }
  if (input.seeded) report.seedNote = SEEDED_ASSUMPTION;
  return report;
}

/**
 * The schema as the report writes it, a fresh copy: a bound end or a category list read from the
 * data is WITHHELD unless `publish` (they are exact values of the data: its extremes, a category held
 * by one person), and so is whether a column can be missing when that was read from the data. The
 * type and the whole-number flag are written either way, since the synthetic
 * tables show both. Facts learned with DP are DP outputs and are written, with the domain budget
 * that paid for them.
 */
function reportedSchema(schema: Schema, publish: boolean): ReportedSchema {
  const hidden = (column: ColumnSchema, part: 'lower' | 'upper' | 'categories' | 'canBeMissing') =>
    !publish && partSource(column, part) === 'inferred';
  const columns = schema.columns.map((column): ReportedColumn => {
    const reported: ReportedColumn = { name: column.name, type: column.type, source: column.source };
    if (column.type === 'numeric') {
      if (column.bounds !== undefined) {
        const lower = hidden(column, 'lower') ? WITHHELD : column.bounds[0];
        const upper = hidden(column, 'upper') ? WITHHELD : column.bounds[1];
        reported.bounds = lower === WITHHELD && upper === WITHHELD ? WITHHELD : [lower, upper];
      }
      if (column.integer !== undefined) reported.integer = column.integer;
    } else if (column.categories !== undefined) {
      reported.categories = hidden(column, 'categories') ? WITHHELD : [...column.categories];
      if (column.other !== undefined && reported.categories !== WITHHELD) reported.other = column.other;
    }
    if (column.canBeMissing !== undefined) {
      reported.canBeMissing = hidden(column, 'canBeMissing') ? WITHHELD : column.canBeMissing;
    }
    if (column.sources !== undefined)
      reported.sources = JSON.parse(JSON.stringify(column.sources)) as FactSources;
    return reported;
  });
  const reported: ReportedSchema = { version: schema.version, columns, missing: [...schema.missing] };
  if (schema.domainBudget !== undefined) {
    reported.domainBudget = JSON.parse(JSON.stringify(schema.domainBudget)) as DomainBudget;
  }
  return reported;
}
