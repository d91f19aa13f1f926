/**
 * The two plans of a pMSE run, as types: `PmsePlan`, what the settings fix before any data is read
 * (meta.ts makes it), and `PmseRunPlan`, everything decided before any chain runs (plan.ts makes it).
 * Kept apart so that describe.ts and diagnostics.ts read them without importing the modules that
 * make them.
 */
import type { Schema } from '../../table/types';
import type { PlanProblems } from '../shape/define-meta';
import type { PmseChainSpec } from './chain';
import type { SynthesisModel } from './model';
import type { PmseSettings } from './pmse-params';

/** What the settings fix before any data is read: the settings, the schema, the synthesis model g(θ), the problems. */
export interface PmsePlan extends PlanProblems {
  settings: PmseSettings;
  schema: Schema;
  /** g(θ); undefined when the column order cannot be modelled (the problems say why). */
  model: SynthesisModel | undefined;
}

/** Everything decided before any chain runs. */
export interface PmseRunPlan {
  settings: PmseSettings;
  model: SynthesisModel;
  parameterNames: string[];
  /** ε of each release's exponential mechanism: ε/l rounded down to a double (for diagnostics). */
  releaseEpsilon: number;
  chainSpecs: PmseChainSpec[];
  /** releaseOfDraw[c][j]: the release given by chain c's j-th draw. */
  releaseOfDraw: number[][];
  /** Seed of each chain's generator for seeded runs; null means a fresh CryptoRng. */
  chainSeeds: (string | null)[];
  /** Real values that were missing in columns not declared able to be missing (for the data holder). */
  undeclaredMissingCounts: Record<string, number>;
}
