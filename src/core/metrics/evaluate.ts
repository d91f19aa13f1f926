import type { AbortSignalLike } from '../abort';
import { SYNTHPOP_CART_DEFAULTS } from '../models/cart/cart-types';
import type { Rng } from '../rng/types';
import { throwIfAborted } from '../abort';
import type { Table } from '../table/types';
import { compareAssociations, type AssociationComparison } from './correlation';
import { disclosureDiagnostics, DISCLOSURE_LABEL, type DisclosureDiagnostics } from './disclosure';
import { distinguishingGame, type DistinguishingGameResult } from './distinguishing-game';
import { DEFAULT_TVD_BINS, encodeMarginalCells } from './marginal-cells';
import type { ClassifierKind } from './ml/classifiers';
import { mlEfficacy, type MlEfficacyOptions, type MlEfficacyReport } from './ml-efficacy';
import { compareColumns, type ColumnComparison } from './per-column';
import { computePmseReleases, type PmseOptions } from './pmse';
import { PMSE_MAX_ROWS_PER_SIDE, pmseRows, pmseStandardError } from './pmse-subsample';
import { propensityHistogram, type PropensityHistogram } from './propensity-histogram';
import { compareRegressions, type RegressionComparison, type RegressionSpec } from './regression-comparison';
import {
  FULL_TABLE_TVD_MAX_CELLS,
  fullTableTvdFromEncoded,
  kMarginalScore,
  tvdKWayFromEncoded,
  type KWayTvd,
} from './tvd';
import { meanOfFinite } from '../stats/mean';

/** Note carried by every report: utility metrics read the real data (DESIGN.md §2, release report). */
export const EVALUATION_NOTE = 'Computed from the real data: for the data holder, not for release.';

/** A k-way TVD is skipped when C(m, k) · k · (n_r + n_s) exceeds this many cell visits (about 10 s). */
export const TVD_MAX_WORK = 2e9;

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
  /** Checked between stages; an AbortError is thrown when set. */
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

export interface UtilityReport {
  note: string;
  releases: number;
  rows: { real: number; releases: number[] };
  columns: { name: string; kind: 'numeric' | 'categorical' }[];
  pmse: {
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
    settings: Record<string, unknown>;
  };
  tvd: {
    bins: number;
    byK: Record<string, TvdOrderReport>;
    /**
     * TVD of the joint distribution of all columns; null per release when above 10^6 cells, and
     * then `skipped` says so (mean over the releases compared, null when none was).
     */
    fullTable: { perRelease: (number | null)[]; mean: number | null; skipped?: string };
    /** SDNist k-marginal score 1000 · (1 − mean 2-way TVD); null when k = 2 was not computed. */
    kMarginalScore: { perRelease: number[]; mean: number } | null;
  };
  perColumn: { perRelease: ColumnComparison[][]; mean: ColumnMeanComparison[] };
  correlation: {
    perRelease: AssociationComparison[];
    /** Entry-wise means over releases of the synthetic matrix and of synth − real. */
    meanSynth: (number | null)[][];
    meanDifference: (number | null)[][];
    meanAbsoluteDifference: { perRelease: (number | null)[]; mean: number | null };
  };
  regression: RegressionComparison | null;
  mlEfficacy: MlEfficacyReport | null;
  distinguishingGame: { perRelease: DistinguishingGameResult[]; meanAccuracy: number } | null;
  disclosure: { label: string; perRelease: DisclosureDiagnostics[] } | null;
  /** Wall-clock milliseconds per stage (informative; varies between runs). */
  timingsMs: Record<string, number>;
}

/** The names in any of `lists`, in `order` (names not in `order` last, in first-seen order). */
function unionInColumnOrder(order: string[], lists: string[][]): string[] {
  const all = new Set(lists.flat());
  return [...order.filter((name) => all.has(name)), ...[...all].filter((name) => !order.includes(name))];
}

/** Why the full-table TVD is missing for some releases, or undefined when every release has it. */
function fullTableSkipReason(perRelease: (number | null)[], m: number): string | undefined {
  const missing = perRelease.flatMap((v, j) => (v === null ? [j + 1] : []));
  if (missing.length === 0) return undefined;
  const which =
    perRelease.length === 1
      ? ''
      : missing.length === perRelease.length
        ? ' in every release'
        : ` in release${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${perRelease.length}`;
  const limit = String(FULL_TABLE_TVD_MAX_CELLS).replace(/\B(?=(\d{3})+(?!\d))/g, ','); // 1,000,000
  return (
    `the joint table of all ${m} columns has more than ${limit} cells${which}: almost every cell ` +
    'would hold at most one row, so it is not compared.'
  );
}

function binomial(m: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (m - k + i)) / i;
  return Math.round(result);
}

function entrywiseMean(matrices: (number | null)[][][]): (number | null)[][] {
  return matrices[0]!.map((row, i) =>
    row.map((_, j) => meanOfFinite(matrices.map((matrix) => matrix[i]![j]!))),
  );
}

function meanColumnComparisons(perRelease: ColumnComparison[][]): ColumnMeanComparison[] {
  return perRelease[0]!.map((first, j) => {
    const all = perRelease.map((release) => release[j]!);
    const numeric = (pick: (c: ColumnComparison & { kind: 'numeric' }) => number | null) =>
      first.kind === 'numeric' ? meanOfFinite(all.map((c) => (c.kind === 'numeric' ? pick(c) : null))) : null;
    return {
      name: first.name,
      kind: first.kind,
      tvd: meanOfFinite(all.map((c) => c.tvd))!,
      ks: numeric((c) => c.ks),
      wasserstein: numeric((c) => c.wasserstein),
      wassersteinRangeNormalized: numeric((c) => c.wassersteinRangeNormalized),
    };
  });
}

/**
 * Evaluates M synthetic releases against the real table they were made from and assembles one
 * JSON-serialisable UtilityReport (plain numbers, strings, arrays; no typed arrays; null where a
 * value is undefined), per release and as means over releases:
 * pMSE and S_pMSE (./pmse.ts; Snoke et al. 2018), k-way TVD for k in `tvdK` with per-subset values,
 * full-table TVD and the SDNist k-marginal score (./tvd.ts), per-column comparisons (./per-column.ts),
 * association matrices (./correlation.ts), the regression comparison with combining rules when a
 * model is given (./regression-comparison.ts), ML efficacy when a holdout is given
 * (./ml-efficacy.ts), the distinguishing game (./distinguishing-game.ts) and the disclosure sanity
 * checks (./disclosure.ts, NOT differentially private). Nothing here is differentially private: the
 * report is for the data holder, not for release (EVALUATION_NOTE).
 *
 * `progress(fraction, stage)` is called before each stage and per release in the long ones; the
 * signal is checked at the same points. Randomness (pMSE permutations, subsamples, forests) comes
 * from `rng`. Throws when there is no release or the tables' columns differ.
 */
export function evaluateUtility(
  real: Table,
  synths: Table[],
  opts: UtilityEvaluationOptions,
  rng: Rng,
  progress?: UtilityProgress,
): UtilityReport {
  if (synths.length === 0) throw new Error('Evaluation needs at least one synthetic release.');
  const bins = opts.bins ?? DEFAULT_TVD_BINS;
  const ks = opts.tvdK ?? [1, 2, 3];
  const timingsMs: Record<string, number> = {};
  const M = synths.length;
  const doRegression = opts.regression !== undefined;
  const doMl = opts.ml !== undefined;
  const doGame = opts.distinguishingGame !== false;
  const doDisclosure = opts.disclosure !== false;
  // With the pMSE null computed elsewhere the pMSE step draws nothing from `rng`, so it runs last
  // without changing any number: the null's other thread then keeps fitting refits while this one
  // computes every other metric (the game and the disclosure checks included), and this one takes
  // the refits still left at the end.
  const pmseLast = opts.pmse?.nullMeans !== undefined;
  const pmseWeight: [string, number] = ['pmse', 4];
  // Rough relative costs, only to make the progress bar move evenly.
  const weights: [string, number][] = [
    ['marginals', 2],
    ['columns', 1],
    ['correlation', 1],
    ...(pmseLast ? [] : [pmseWeight]),
    ['regression', doRegression ? 1 : 0],
    ['ml', doMl ? 4 : 0],
    ['game', doGame ? 2 : 0],
    ['disclosure', doDisclosure ? 2 : 0],
    ...(pmseLast ? [pmseWeight] : []),
  ];
  const totalWeight = weights.reduce((s, [, w]) => s + w, 0);
  const stageStart = new Map<string, number>();
  let cumulative = 0;
  for (const [name, w] of weights) {
    stageStart.set(name, cumulative / totalWeight);
    cumulative += w;
  }
  const report = (stage: string, within = 0, message = stage) => {
    throwIfAborted(opts.signal);
    const index = weights.findIndex(([name]) => name === stage);
    const share = weights[index]![1] / totalWeight;
    progress?.(stageStart.get(stage)! + within * share, message);
  };
  const timed = <T>(stage: string, run: () => T): T => {
    const start = Date.now();
    const result = run();
    timingsMs[stage] = Date.now() - start;
    return result;
  };

  report('marginals', 0, 'Marginal distances');
  const tvd = timed('marginals', () => {
    const encoded = synths.map((synth) => encodeMarginalCells(real, synth, bins));
    const m = encoded[0]!.columns.length;
    const byK: Record<string, TvdOrderReport> = {};
    for (const k of ks) {
      const work = binomial(m, k) * k * (real.nRows + synths[0]!.nRows);
      if (k < 1 || k > m) {
        byK[String(k)] = { k, perRelease: null, mean: null, skipped: `k must be between 1 and ${m}.` };
      } else if (work > TVD_MAX_WORK) {
        byK[String(k)] = {
          k,
          perRelease: null,
          mean: null,
          skipped: `${binomial(m, k)} subsets of ${m} columns: too many to compare in reasonable time.`,
        };
      } else {
        const perRelease = encoded.map((e) => tvdKWayFromEncoded(e, k));
        byK[String(k)] = { k, perRelease, mean: meanOfFinite(perRelease.map((r) => r.mean)) };
      }
    }
    const full = encoded.map((e) => fullTableTvdFromEncoded(e));
    const two = byK['2']?.perRelease;
    const scores = two ? two.map((r) => kMarginalScore(r.mean)) : null;
    const fullSkipped = fullTableSkipReason(full, m);
    return {
      bins,
      byK,
      fullTable: {
        perRelease: full,
        mean: meanOfFinite(full),
        ...(fullSkipped === undefined ? {} : { skipped: fullSkipped }),
      },
      kMarginalScore: scores ? { perRelease: scores, mean: meanOfFinite(scores)! } : null,
    };
  });

  report('columns', 0, 'Per-column comparison');
  const perColumnReleases = timed('columns', () =>
    synths.map((synth) => compareColumns(real, synth, { bins })),
  );

  report('correlation', 0, 'Correlations');
  const correlation = timed('correlation', () => {
    const perRelease = synths.map((synth) => compareAssociations(real, synth));
    const absolute = perRelease.map((r) => r.meanAbsoluteDifference);
    return {
      perRelease,
      meanSynth: entrywiseMean(perRelease.map((r) => r.synth)),
      meanDifference: entrywiseMean(perRelease.map((r) => r.difference)),
      meanAbsoluteDifference: { perRelease: absolute, mean: meanOfFinite(absolute) },
    };
  });

  const pmseOptions: PmseOptions = {
    model: opts.pmse?.model ?? 'cart',
    cart: opts.pmse?.cart ?? SYNTHPOP_CART_DEFAULTS,
    permutations: opts.pmse?.permutations ?? 50,
    maxOrder: opts.pmse?.maxOrder ?? 1,
    ...(opts.pmse?.logit ? { logit: opts.pmse.logit } : {}),
    keepPropensities: true,
  };
  const pmseStage = () =>
    timed('pmse', () => {
      report('pmse', 0, 'Propensity score (pMSE)');
      const maxRows = opts.pmse?.maxRowsPerSide ?? PMSE_MAX_ROWS_PER_SIDE;
      const subsamples: ({ realRows: number; synthRows: number; standardError: number } | undefined)[] = [];
      const results = synths.map((synth, j) => {
        report('pmse', j / M, `Propensity score (pMSE), release ${j + 1} of ${M}`);
        const given = opts.pmse?.nullMeans;
        const nullMean = typeof given === 'function' ? given(j) : given?.[j];
        const releaseOptions = nullMean === undefined ? pmseOptions : { ...pmseOptions, nullMean };
        // A null mean from elsewhere belongs to the whole tables; otherwise large tables are subsampled.
        const rows =
          nullMean === undefined ? pmseRows(real, synth, maxRows, rng) : { real, synth, subsample: null };
        const result = computePmseReleases(rows.real, [rows.synth], releaseOptions, rng).perRelease[0]!;
        subsamples.push(
          rows.subsample === null
            ? undefined
            : { ...rows.subsample, standardError: pmseStandardError(result.propensities!) },
        );
        return result;
      });
      const ratios = results.map((r) => r.ratio);
      return {
        model: pmseOptions.model,
        perRelease: results.map((r, j) => ({
          value: r.value,
          ratio: r.ratio,
          nullMean: r.nullMean,
          rawRatio: r.rawRatio ?? null,
          k: r.k ?? null,
          leaves: r.leaves ?? null,
          converged: r.converged ?? null,
          extremePropensities: r.model === 'logit' ? (r.nExtreme ?? 0) : null,
          propensities: propensityHistogram(r.propensities!.real, r.propensities!.synth),
          ...(subsamples[j] === undefined ? {} : { subsample: subsamples[j] }),
        })),
        mean: {
          value: results.reduce((s, r) => s + r.value, 0) / M,
          ratio: ratios.every((v) => v !== null) ? meanOfFinite(ratios) : null,
        },
        droppedConstant: unionInColumnOrder(
          real.columns.map((c) => c.name),
          results.map((r) => r.droppedConstant),
        ),
        settings:
          pmseOptions.model === 'cart'
            ? { cart: { ...pmseOptions.cart }, permutations: pmseOptions.permutations }
            : { maxOrder: pmseOptions.maxOrder },
      };
    });

  let pmse = pmseLast ? undefined : pmseStage();

  let regression: RegressionComparison | null = null;
  if (opts.regression) {
    report('regression', 0, 'Regression comparison');
    regression = timed('regression', () => compareRegressions(real, synths, opts.regression!));
  }

  let ml: MlEfficacyReport | null = null;
  if (opts.ml) {
    report('ml', 0, 'Machine-learning efficacy');
    const { holdout, ...mlOptions } = opts.ml;
    ml = timed('ml', () => mlEfficacy(real, holdout, synths, mlOptions, rng));
  }

  let game: UtilityReport['distinguishingGame'] = null;
  if (opts.distinguishingGame !== false) {
    const gameOptions = opts.distinguishingGame ?? {};
    game = timed('game', () => {
      const perRelease = synths.map((synth, j) => {
        report('game', j / M, `Distinguishing game, release ${j + 1} of ${M}`);
        return distinguishingGame(real, synth, rng, gameOptions);
      });
      return { perRelease, meanAccuracy: perRelease.reduce((s, r) => s + r.accuracy, 0) / M };
    });
  }

  let disclosure: UtilityReport['disclosure'] = null;
  if (opts.disclosure !== false) {
    disclosure = timed('disclosure', () => ({
      label: DISCLOSURE_LABEL,
      perRelease: synths.map((synth, j) => {
        report('disclosure', j / M, `Disclosure checks, release ${j + 1} of ${M}`);
        return disclosureDiagnostics(real, synth, rng);
      }),
    }));
  }
  pmse ??= pmseStage();
  progress?.(1, 'Done');

  return {
    note: EVALUATION_NOTE,
    releases: M,
    rows: { real: real.nRows, releases: synths.map((s) => s.nRows) },
    columns: real.columns.map((c) => ({ name: c.name, kind: c.kind })),
    pmse,
    tvd,
    perColumn: { perRelease: perColumnReleases, mean: meanColumnComparisons(perColumnReleases) },
    correlation,
    regression,
    mlEfficacy: ml,
    distinguishingGame: game,
    disclosure,
    timingsMs,
  };
}
