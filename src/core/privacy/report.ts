/**
 * The two JSON documents dpsynth writes beside its synthetic data (DESIGN.md §2 "Release report"):
 * the release report, which holds only DP outputs and public configuration and travels with the
 * data, and the evaluation report, which holds utility metrics computed from the real data and is
 * for the data holder only.
 */
import type { Schema } from '../table/types';
import { claimBound } from './claim-bound';
import { inferredFields, SEEDED_ASSUMPTION, standardAssumptions } from './assumptions';
import type { PrivacyBudget } from './budget';
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

export interface ReleaseReport {
  format: 'dpsynth-release-report';
  formatVersion: 1;
  appVersion: string;
  /** ISO 8601 time the report was made. */
  createdAt: string;
  /** Rows of the input (public under replace-one neighbours). */
  rows: number;
  columns: number;
  /** Number of synthetic datasets released. */
  releases: number;
  schema: Schema;
  mechanism: ReportedMechanism;
  /** The budget the user set (the claim states what was spent), rounded up to 15 digits. */
  budget?: { epsilon: number; delta: number };
  claim: PrivacyClaim;
  seeded: boolean;
  /** Present exactly when seeded. */
  seedNote?: string;
  /** Schema facts read from the data rather than declared, as "column.field" paths. */
  inferredFields: string[];
  notes: string[];
}

export interface ReleaseReportInput {
  appVersion: string;
  /** Defaults to now. */
  createdAt?: Date | string;
  schema: Schema;
  /** A Mechanism object may be passed as is; only id, label and reference are kept. */
  mechanism: { id: string; label: string; reference: string };
  params: Record<string, ReportParamValue>;
  claim: PrivacyClaim;
  rows: number;
  releases: number;
  seeded: boolean;
  budget?: PrivacyBudget;
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

function copyStep(step: ClaimStep, index: number): ClaimStep {
  checkPrivacyNumber(step.epsilon, `claim step ${index + 1} ε`);
  checkPrivacyNumber(step.delta, `claim step ${index + 1} δ`);
  checkPrivacyNumber(step.mu, `claim step ${index + 1} μ`);
  checkPrivacyNumber(step.rho, `claim step ${index + 1} ρ`);
  const copy: ClaimStep = { what: step.what, epsilon: step.epsilon };
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
function reportedClaim(claim: PrivacyClaim, schema: Schema, seeded: boolean): PrivacyClaim {
  checkPrivacyNumber(claim.epsilon, 'claim ε');
  checkPrivacyNumber(claim.delta, 'claim δ');
  checkPrivacyNumber(claim.mu, 'claim μ');
  checkPrivacyNumber(claim.rho, 'claim ρ');
  const assumptions = [...claim.assumptions];
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
    steps: claim.steps.map(copyStep),
    assumptions,
  };
  if (claim.mu !== undefined) copy.mu = claim.mu;
  if (claim.rho !== undefined) copy.rho = claim.rho;
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
 * flag and the schema. Throws RangeError for non-whole counts, non-primitive parameters or a claim
 * with a negative or non-finite number.
 */
export function buildReleaseReport(input: ReleaseReportInput): ReleaseReport {
  checkCount(input.rows, 'rows', 0);
  checkCount(input.releases, 'releases', 1);
  const report: ReleaseReport = {
    format: 'dpsynth-release-report',
    formatVersion: 1,
    appVersion: input.appVersion,
    createdAt: isoTime(input.createdAt),
    rows: input.rows,
    columns: input.schema.columns.length,
    releases: input.releases,
    schema: structuredCopy(input.schema),
    mechanism: {
      id: input.mechanism.id,
      label: input.mechanism.label,
      reference: input.mechanism.reference,
      params: copyParams(input.params),
    },
    claim: reportedClaim(input.claim, input.schema, input.seeded),
    seeded: input.seeded,
    inferredFields: inferredFields(input.schema),
    notes: [...(input.notes ?? [])],
  };
  if (input.budget !== undefined) {
    report.budget = {
      epsilon: roundUpRational(input.budget.epsilon, 15),
      delta: roundUpRational(input.budget.delta, 15),
    };
  }
  if (input.seeded) report.seedNote = SEEDED_ASSUMPTION;
  return report;
}

/** A deep copy of the schema through JSON, which is also the form it is saved in. */
function structuredCopy(schema: Schema): Schema {
  return JSON.parse(JSON.stringify(schema)) as Schema;
}

export const EVALUATION_WARNING =
  'Computed from the real data: for the data holder, not for release.' as const;

export interface EvaluationReport {
  format: 'dpsynth-evaluation-report';
  formatVersion: 1;
  warning: typeof EVALUATION_WARNING;
  appVersion: string;
  createdAt: string;
  rows: number;
  columns: number;
  releases: number;
  /** The run the metrics describe, when there is one. */
  mechanism?: ReportedMechanism;
  claim?: PrivacyClaim;
  /** Utility and risk metrics, as the metrics module returns them. */
  metrics: unknown;
}

export interface EvaluationReportInput {
  appVersion: string;
  createdAt?: Date | string;
  rows: number;
  columns: number;
  releases?: number;
  mechanism?: { id: string; label: string; reference: string };
  params?: Record<string, ReportParamValue>;
  claim?: PrivacyClaim;
  metrics: unknown;
}

/**
 * Builds the evaluation report: the metrics with the warning that they come from the real data and
 * are not DP. Kept apart from the release report, never bundled with it by default (DESIGN.md §2).
 */
export function buildEvaluationReport(input: EvaluationReportInput): EvaluationReport {
  checkCount(input.rows, 'rows', 0);
  checkCount(input.columns, 'columns', 0);
  checkCount(input.releases ?? 1, 'releases', 1);
  const report: EvaluationReport = {
    format: 'dpsynth-evaluation-report',
    formatVersion: 1,
    warning: EVALUATION_WARNING,
    appVersion: input.appVersion,
    createdAt: isoTime(input.createdAt),
    rows: input.rows,
    columns: input.columns,
    releases: input.releases ?? 1,
    metrics: input.metrics,
  };
  if (input.mechanism !== undefined) {
    report.mechanism = {
      id: input.mechanism.id,
      label: input.mechanism.label,
      reference: input.mechanism.reference,
      params: copyParams(input.params ?? {}),
    };
  }
  if (input.claim !== undefined) report.claim = input.claim;
  return report;
}
