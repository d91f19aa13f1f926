import type { AbortSignalLike } from '../abort';
import type { CartOptions } from '../models/cart/cart-types';
import type { Table } from '../table/types';
import type { AssociationComparison } from './correlation';
import type { DisclosureDiagnostics } from './disclosure';
import type { DistinguishingGameResult } from './distinguishing-game';
import type { ClassifierKind } from './ml/classifiers';
import type { MlEfficacyOptions, MlEfficacyReport } from './ml-efficacy';
import type { ColumnComparison } from './per-column';
import type { PmseOptions } from './pmse';
import type { PropensityHistogram } from './propensity-histogram';
import type { RegressionComparison, RegressionSpec } from './regression-comparison';
import type { KWayTvd } from './tvd';

/** Note carried by every report: utility metrics read the real data (DESIGN.md §2, release report). */
export const EVALUATION_NOTE = 'Computed from the real data: for the data holder, not for release.';

export interface UtilityEvaluationOptions {
  /** Equal-width bins for numeric columns in TVD and overlays (default 10). */
  bins?: number;
  /** Marginal orders to compare (default [1, 2, 3]). */
  tvdK?: number[];
  /** pMSE settings (default CART with synthpop's settings and 50 permutations, DESIGN.md §2). */
  pmse?: Partial<Omit<PmseOptions, 'nullMean'>> & {
    /**
     * CART: each release's permutation-null mean pMSE, when computed elsewhere (cartPmseNullSum),
     * on the whole tables: pMSE is then computed on the whole tables too. A function is asked for
     * release j's mean when the pMSE step reaches it. The pMSE step then runs after every other
     * metric (it draws nothing from `rng`), so the null can run elsewhere while they are computed.
     */
    nullMeans?: readonly number[] | ((release: number) => number);
    /** Rows per side at most; larger tables are subsampled uniformly (default PMSE_MAX_ROWS_PER_SIDE). */
    maxRowsPerSide?: number;
  };
  /** The user's regression model; omitted → no regression comparison. */
  regression?: RegressionSpec;
  /** ML efficacy needs real rows the mechanism never saw; omitted → not computed. */
  ml?: MlEfficacyOptions & { holdout: Table };
  /** Distinguishing game per release (default on, forest). */
  distinguishingGame?: false | { model?: ClassifierKind; maxRowsPerSide?: number };
  /** Disclosure sanity checks per release (default on). */
  disclosure?: boolean;
  /** Checked between stages and per release inside them; an AbortError is thrown when set. */
  signal?: AbortSignalLike;
}

/** Progress in [0, 1] with the stage about to run. */
export type UtilityProgress = (fraction: number, stage: string) => void;

export interface TvdOrderReport {
  k: number;
  /** null when skipped (see `skipped`). */
  perRelease: KWayTvd[] | null;
  mean: number | null;
  skipped?: string;
}

export interface ColumnMeanComparison {
  name: string;
  kind: 'numeric' | 'categorical';
  tvd: number;
  ks: number | null;
  wasserstein: number | null;
  wassersteinRangeNormalized: number | null;
}

/** The pMSE settings a report states: CART's tree settings and permutations, or logit's order. */
export type PmseSettings = { cart: CartOptions; permutations: number } | { maxOrder: 0 | 1 };

export interface PmseSection {
  model: 'cart' | 'logit';
  perRelease: {
    value: number;
    ratio: number | null;
    nullMean: number | null;
    rawRatio: number | null;
    k: number | null;
    leaves: number | null;
    converged: boolean | null;
    /**
     * Logit: fitted propensities within 1e-8 of 0 or 1. Above 0 the model separates real from
     * synthetic rows, the maximum-likelihood fit does not exist and pMSE depends on where the
     * optimiser stopped. null for CART.
     */
    extremePropensities: number | null;
    propensities: PropensityHistogram;
    /**
     * Present when the tables were larger than the limit: pMSE was computed on uniform
     * subsamples of these many rows, with this standard error (pmse-subsample.ts).
     */
    subsample?: { realRows: number; synthRows: number; standardError: number };
  }[];
  mean: { value: number; ratio: number | null };
  /** Columns dropped as constant in the pooled data of any release (union, in column order). */
  droppedConstant: string[];
  settings: PmseSettings;
}

export interface TvdSection {
  bins: number;
  byK: Record<string, TvdOrderReport>;
  /**
   * TVD of the joint distribution of all columns; null per release when above 10^6 cells, and
   * then `skipped` says so (mean over the releases compared, null when none was).
   */
  fullTable: { perRelease: (number | null)[]; mean: number | null; skipped?: string };
  /** SDNist k-marginal score 1000 · (1 − mean 2-way TVD); null when k = 2 was not computed. */
  kMarginalScore: { perRelease: number[]; mean: number } | null;
}

export interface PerColumnSection {
  perRelease: ColumnComparison[][];
  mean: ColumnMeanComparison[];
}

export interface CorrelationSection {
  perRelease: AssociationComparison[];
  /** Entry-wise means over releases of the synthetic matrix and of synth − real. */
  meanSynth: (number | null)[][];
  meanDifference: (number | null)[][];
  meanAbsoluteDifference: { perRelease: (number | null)[]; mean: number | null };
}

export interface DistinguishingGameSection {
  perRelease: DistinguishingGameResult[];
  meanAccuracy: number;
}

export interface DisclosureSection {
  label: string;
  perRelease: DisclosureDiagnostics[];
}

/**
 * The metric sections of a report, one per stage (./stages): each stage fills its own. The sections
 * of stages that can be turned off are null when they are.
 */
export interface MetricSections {
  tvd: TvdSection;
  perColumn: PerColumnSection;
  correlation: CorrelationSection;
  pmse: PmseSection;
  regression: RegressionComparison | null;
  mlEfficacy: MlEfficacyReport | null;
  distinguishingGame: DistinguishingGameSection | null;
  disclosure: DisclosureSection | null;
}

export interface UtilityReport extends MetricSections {
  note: string;
  releases: number;
  rows: { real: number; releases: number[] };
  columns: { name: string; kind: 'numeric' | 'categorical' }[];
  /** Wall-clock milliseconds per stage, keyed by stage id (informative; varies between runs). */
  timingsMs: Record<string, number>;
}
