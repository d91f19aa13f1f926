import type { Rng } from '../rng/types';
import type { PrivacyClaim } from '../privacy/types';
import type { Schema, Table } from '../table/types';

/** 'text' is free text (e.g. a comma-separated list of column names), trimmed, never interpreted as a number. */
export type ParamType = 'number' | 'integer' | 'enum' | 'boolean' | 'text';
export type ParamValue = number | string | boolean;
export type ParamValues = Record<string, ParamValue>;

/** One tunable parameter; the studio form and the CLI --param flags are generated from these. */
export interface ParamSpec {
  name: string;
  label: string;
  type: ParamType;
  default: ParamValue;
  min?: number;
  max?: number;
  /** Choices for type 'enum'. */
  options?: { value: string; label: string }[];
  help: string;
}

/** Public facts a claim or a check may use: never the data itself. */
export interface PublicContext {
  /** Number of rows (public under replace-one neighbours). */
  n: number;
  schema: Schema;
  /** Total budget as the user gave it (decimal string or number; parsed exactly). */
  epsilon: string | number;
  delta: string | number;
  /** Number of synthetic datasets M to release. */
  releases: number;
  /** True when a seed was set: the output is reproducible and not for release. */
  seeded: boolean;
}

/** Minimal abort signal so that src/core needs no DOM types. */
export interface AbortSignalLike {
  readonly aborted: boolean;
}

export interface RunContext extends PublicContext {
  rng: Rng;
  /** Reports progress in [0, 1] with a short message. */
  progress(fraction: number, message?: string): void;
  /** Checked often; a run throws AbortError when it is set. */
  signal: AbortSignalLike;
}

export interface Release {
  datasets: Table[];
  claim: PrivacyClaim;
  /**
   * Public diagnostics: from parameters, public facts and DP outputs only (domain size, λ, released
   * parameters, warnings computed from ε and n). Safe to show beside the release or export with it.
   */
  diagnostics: Record<string, unknown>;
  /**
   * Diagnostics computed from the real data (MCMC traces and acceptance rates, R̂, counts of values
   * the schema did not expect): for the data holder to judge the run, never part of a release.
   * Kept apart so that no exporter can write them by accident. `{}` when there are none.
   */
  dataHolderDiagnostics: Record<string, unknown>;
}

/**
 * Everything the page needs to offer a mechanism: catalogue entry, parameter form, claim, public
 * description and checks. A mechanism's `meta.ts` exports one and imports no run code, so the page
 * bundle carries no sampler (src/core/mechanisms/README.md).
 */
export interface MechanismMeta {
  id: string;
  label: string;
  summary: string;
  reference: string;
  /** Column types the mechanism can synthesize. */
  supports: { numeric: boolean; categorical: boolean };
  params: ParamSpec[];
  /** The claim before running, from parameters and public facts only. */
  claim(params: ParamValues, context: PublicContext): PrivacyClaim;
  /**
   * Optional: public facts about the configured model, each a sentence (e.g. the number of model
   * parameters, the number of histogram cells, a warning that ε is too small for this n), from
   * parameters and public facts only. Shown under the studio's form and printed by the CLI.
   */
  describe?(params: ParamValues, context: PublicContext): string[];
  /**
   * Optional: the part of the schema the mechanism reads, when it ignores some facts (e.g. bounds
   * that are not declared). Facts left out are neither published in the release report nor listed
   * among the claim's assumptions. Default: the whole schema.
   */
  schemaRead?(schema: Schema): Schema;
  /** Problems that prevent running, each a clear sentence; empty when it can run. */
  check(schema: Schema, params: ParamValues, context?: PublicContext): string[];
}

/** A mechanism as workers and the CLI run it: its meta plus the run (index.ts). */
export interface Mechanism extends MechanismMeta {
  run(table: Table, schema: Schema, params: ParamValues, ctx: RunContext): Promise<Release>;
}
