import type { BudgetReserver } from '../privacy/accountant';
import type { PrivacyMeter, StageMeter } from '../privacy/meter';
import type { Neighbouring } from '../privacy/query-sensitivity';
import type { AbortSignalLike } from '../abort';
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
  /**
   * Number of rows: public under replace-one neighbours. Under add/remove it is private: a claim, a
   * check, a description or a plan must not read it (mechanisms/neighbouring.ts, `publicRows`), and a run
   * reads it only through a DP estimate.
   */
  n: number;
  /**
   * The run's neighbouring relation, the user's choice (absent: 'replace-one'). The registry's wrapper
   * makes the run's privacy meter with it, and every claim states it.
   */
  neighbouring?: Neighbouring;
  schema: Schema;
  /** Total budget as the user gave it (decimal string or number; parsed exactly). */
  epsilon: string | number;
  delta: string | number;
  /** Number of synthetic datasets M to release. */
  releases: number;
  /** True when a seed was set: the output is reproducible and not for release. */
  seeded: boolean;
}

/** Defined in core/abort.ts (lower floors import it from there); re-exported for mechanisms and their callers. */
export type { AbortSignalLike };

export interface RunContext extends PublicContext {
  rng: Rng;
  /** Reports progress in [0, 1] with a short message. */
  progress(fraction: number, message?: string): void;
  /** Checked often; a run throws AbortError when it is set. */
  signal: AbortSignalLike;
  /**
   * The run's privacy meter (privacy/meter.ts), set by the registry's wrapper (domain-composition.ts):
   * a mechanism makes its accountant on it (`new Accountant(budget, ctx.meter)`,
   * `ZcdpAccountant.forBudget(budget, ctx.meter)`) and draws only through the metered primitives
   * (privacy/metered/); the wrapper checks, before releasing, that every step was charged exactly
   * what the claim states. Absent when a test calls a run directly.
   */
  meter?: PrivacyMeter;
}

/**
 * A run's release. `Diagnostics` is the mechanism's public diagnostics type (each mechanism exports
 * its own); the default is what callers that take any mechanism read.
 */
export interface Release<Diagnostics extends object = Record<string, unknown>> {
  datasets: Table[];
  claim: PrivacyClaim;
  /**
   * Public diagnostics: from parameters, public facts and DP outputs only (domain size, λ, released
   * parameters, warnings computed from ε and n). Safe to show beside the release or export with it.
   */
  diagnostics: Diagnostics;
  /**
   * Diagnostics computed from the real data (MCMC traces and acceptance rates, R̂, counts of values
   * the schema did not expect): for the data holder to judge the run, never part of a release.
   * Kept apart so that no exporter can write them by accident. `{}` when there are none.
   */
  dataHolderDiagnostics: Record<string, unknown>;
}

/**
 * One synthetic dataset handed out in row blocks (`Mechanism.runInBlocks`): the fitted model's rows
 * decoded one block at a time, so that a writer holds a block, never the whole synthetic table.
 * Concatenated in order, the blocks are the table `run` returns for the same seed.
 */
export interface SyntheticRows {
  readonly nRows: number;
  /** Rows per block (the last block may be shorter). */
  readonly blockRows: number;
  /**
   * The blocks in row order, each a Table with every column of the dataset; at least one block (an
   * empty dataset gives one empty block). Readable once: a second call throws, since an unseeded
   * dataset would come out different.
   */
  blocks(): Iterable<Table>;
}

/** A release whose datasets come in row blocks; claim and diagnostics as in `Release`. */
export interface ReleaseInBlocks<Diagnostics extends object = Record<string, unknown>> extends Omit<
  Release<Diagnostics>,
  'datasets'
> {
  datasets: SyntheticRows[];
}

/**
 * What a person wants the synthetic data for, asked before any budget is spent: keep relationships
 * for analysis, train a model on a label, keep each column's distribution, or estimate a regression
 * with valid intervals from several releases (src/core/recommend/).
 */
export type SynthesisGoal = 'relationships' | 'train-model' | 'distributions' | 'regression-inference';

/** A figure measured by a committed bench: the number in words, the table it was measured on, where. */
export interface MeasuredFigure {
  /** e.g. "mean 2-way TVD 0.059 at ε = 1, δ = 10⁻⁹, 5 s a run". */
  figure: string;
  /** e.g. "a census table of 48,842 rows × 14 categorical columns". */
  table: string;
  /** The section of bench/RESULTS.md that gives the figure and the command that measured it. */
  source: string;
}

/** How well a mechanism serves one goal: 3 made for it (measured), 2 serves it, 1 possible but weak. */
export interface GoalFit {
  strength: 1 | 2 | 3;
  /** Why, as a phrase (without the figure). */
  why: string;
  /** The measured figure behind `why`; absent when no bench measures this use (then `why` has no number). */
  measured?: MeasuredFigure;
  /** Settings the measured figure used, when they differ from the defaults (e.g. MODIPS's model). */
  params?: Record<string, ParamValue>;
}

/**
 * Where a mechanism is good, in public facts only (rows n, columns, their kinds, cells of the full
 * cross-tabulation, ε, δ, a label), so that a recommendation can be made before the data is read.
 * Each bound says where the mechanism was measured to do well or could run in reasonable time;
 * outside it the mechanism is ranked lower with the reason.
 */
export interface MechanismFit {
  /** One phrase: the tables it suits, in public facts. */
  goodFor: string;
  /** Needs δ > 0 (approximate DP or zCDP). */
  needsDelta: boolean;
  /** Serves a model-training goal only with a categorical label column named. */
  needsLabel: boolean;
  rows?: { min?: number; max?: number };
  columns?: { min?: number; max?: number };
  /** Good when every column is of this kind; absent: any mix. */
  kinds?: 'numeric' | 'categorical';
  /** Good when the full cross-tabulation has at most this many cells per row. */
  maxCellsPerRow?: number;
  epsilon?: { min?: number; max?: number };
  goals: Partial<Record<SynthesisGoal, GoalFit>>;
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
  /**
   * The neighbouring relations the mechanism can run under (absent: replace-one only). A relation not
   * listed is refused by `check` (through the registry's composed meta) with the reason.
   */
  supportsNeighbouring?: readonly Neighbouring[];
  params: ParamSpec[];
  /**
   * Optional: where the mechanism is good, from public facts, with measured figures; the studio's
   * Mechanism step and `dpsynth recommend` rank the catalogue by it (src/core/recommend/).
   */
  fit?: MechanismFit;
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
  /**
   * Optional: whether an ε sweep may take its R repeats at one ε from a single run with R releases at
   * R·ε, each release then spending exactly ε. 'independent-releases': the R releases have the joint
   * law of R separate runs at ε (fresh noise per release, ε split equally). 'shared-chains': each
   * release is one MCMC chain draw at ε, several per chain taken at earlier, thinned iterations, so they
   * are neither independent nor each exactly a single run's draw; treating each as spending ε assumes
   * the chain forgets its state over the thinning (as the mechanism's own multi-release claim does).
   * Absent: one run per repeat.
   */
  sweepRepeats?: 'independent-releases' | 'shared-chains';
  /** Optional, with sweepRepeats: the most releases one such run can give with these parameters. */
  sweepRepeatsPerRun?(params: ParamValues): number;
}

/**
 * What a stage reports as it runs: steps done of the total and, for a traced stage (an MCMC chain),
 * the monitored value of its current state and the share of proposals accepted since the last call.
 * Traced values come from the data: shown to the data holder, never released.
 */
export type StageProgress = (done: number, total: number, point?: StageTracePoint) => void;

export interface StageTracePoint {
  value: number;
  acceptance: number;
}

/** One stage as the plan fixes it; structured-cloneable, since it may travel to another worker. */
export interface StageTask<Spec> {
  spec: Spec;
  /** Seed of the stage's own generator for seeded runs (SeededRng); null: a fresh CryptoRng. */
  seed: string | null;
}

/**
 * What `plan` returns: the plan, kept where it was made, the independent stages and, optionally, the
 * part every stage reads (`shared`).
 */
export interface StagedPlan<Plan, Spec, Shared = unknown> {
  plan: Plan;
  /**
   * Optional: what all stages of the run read (a model, seed arrays), structured-cloneable. It goes
   * once to each worker that runs stages of the run and is kept there under the run's id until the
   * run ends, so a stage's spec carries only what is its own (release, row count). Absent: undefined.
   */
  shared?: Shared;
  stages: StageTask<Spec>[];
  /** Words for progress: "chain 2 of 4: iteration 300 of 1,000", "4 MCMC chains on 2 workers". */
  words: { stage: string; stages: string; step: string; finish: string };
  /** For MCMC stages the studio traces live: warm-up and total iterations of each stage. */
  trace?: { warmUp: number; total: number };
}

/**
 * Optional hook for a run that splits into independent stages (e.g. MCMC chains): `plan` on the
 * worker that holds the table (validate, reserve the whole budget, fix every stage and its seed),
 * `runStage` anywhere (a pure function of the spec, the plan's shared part and the generator made
 * from the stage's seed),
 * `finish` where the plan was made (the release, with the claim of what `plan` reserved). The studio
 * runs the stages in parallel pool workers with live progress and cancel; `run` must give the same
 * release as the stages run one after the other (`runStagesInOneThread` in staged-run.ts).
 */
export interface StagedRun<Plan = unknown, Spec = unknown, Result = unknown, Shared = unknown> {
  plan(
    table: Table,
    schema: Schema,
    params: ParamValues,
    ctx: RunContext,
    accountant: BudgetReserver,
  ): StagedPlan<Plan, Spec, Shared>;
  /**
   * `shared` is the plan's shared part (the same value for every stage of the run; undefined if none).
   * `meter`: the stage's meter, given by the registry's wrapper and by runStagesInOneThread; a stage that
   * draws privacy noise gets its step handles from it (`meter.step(ticket)`, the tickets carried in the
   * spec) and its charges go back to the run's meter with the result (domain-composition.ts).
   */
  runStage(
    spec: Spec,
    rng: Rng,
    progress: StageProgress,
    signal: AbortSignalLike,
    shared: Shared,
    meter?: StageMeter,
  ): Result;
  finish(plan: Plan, results: Result[], ctx: RunContext, accountant: BudgetReserver): Release;
  /**
   * Optional: the buffers a stage's result owns outright (no other object views them), which a
   * worker may transfer instead of copying when it sends the result back. Absent: copied.
   */
  transferables?(result: Result): ArrayBuffer[];
}

/** A mechanism as workers and the CLI run it: its meta plus the run (index.ts). */
export interface Mechanism extends MechanismMeta {
  run(table: Table, schema: Schema, params: ParamValues, ctx: RunContext): Promise<Release>;
  /**
   * Optional: the same run with each dataset handed out in row blocks (`SyntheticRows`) instead of
   * whole tables, for a writer that never holds a whole synthetic table (the CLI's `synth`). The fitted
   * model (noisy counts, drawn cells) is made during the call, with the same budget and the same draws
   * in the same order as `run`; the release keeps no reference to `table`, so the caller may free it
   * once this returns. Concatenated, the blocks equal `run`'s datasets for the same seed (a generator
   * with `copy`); with a secure generator each block's values are drawn as it is read, from the same
   * distribution. `blockRows` defaults to RELEASE_BLOCK_ROWS (release-blocks.ts).
   */
  runInBlocks?(
    table: Table,
    schema: Schema,
    params: ParamValues,
    ctx: RunContext,
    options?: { blockRows?: number },
  ): Promise<ReleaseInBlocks>;
  /** Optional: the run split into stages that the studio spreads over workers (see StagedRun). */
  staged?: StagedRun;
}
