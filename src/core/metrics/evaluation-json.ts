import type { ReportedMechanism } from '../privacy/report';
import type { PrivacyClaim } from '../privacy/types';
import { mean } from '../stats/mean';
import type { SubsetTvd } from './tvd';
import type {
  MetricSections,
  PmseSection,
  PmseSettings,
  TvdOrderReport,
  TvdSection,
  UtilityReport,
} from './utility-report';

/** The evaluation report's format name and version (version 1 was the studio's earlier nested file). */
export const EVALUATION_FORMAT = 'dpsynth-evaluation-report';
export const EVALUATION_FORMAT_VERSION = 2;

/** What the evaluation JSON says about where its numbers come from, beside the UtilityReport. */
export interface EvaluationJsonMeta {
  appVersion: string;
  /** ISO time; the CLI leaves it out, so that a seeded `dpsynth metrics --json` prints the same bytes. */
  createdAt?: string;
  /** The real file (a path in the CLI, the file name loaded in the studio). */
  realFile?: string;
  /** One name per release, in release order. */
  syntheticFiles?: string[];
  /** Real rows kept back from the mechanism, on which ML efficacy is scored. */
  holdout?: { file?: string; rows: number };
  /** The run that made the releases, when known (the studio). */
  run?: { mechanism?: ReportedMechanism; claim: PrivacyClaim };
}

/** A file (when named) and its row count. */
export interface EvaluatedFile {
  file?: string;
  rows: number;
}

/** The pMSE summary: means over releases beside each release's numbers. */
export interface EvaluationPmse {
  model: 'cart' | 'logit';
  /** Mean pMSE over releases. */
  value: number;
  /** Mean S_pMSE; null when a release has no null expectation. */
  ratio: number | null;
  /** Means over releases; null when a release lacks them. */
  nullMean: number | null;
  rawRatio: number | null;
  k: number | null;
  /** CART only: the tree settings and the permutations of the null. */
  cart?: Extract<PmseSettings, { cart: unknown }>['cart'];
  permutations?: number;
  droppedConstant: string[];
  warnings: string[];
  perRelease: PmseSection['perRelease'];
}

/**
 * The evaluation report, one shape for `dpsynth metrics --json` and the studio's "Download
 * evaluation report": the format and version, where the numbers come from, the pMSE summary and
 * every section of the UtilityReport, and the note that it is for the data holder.
 */
export interface EvaluationJson {
  format: typeof EVALUATION_FORMAT;
  formatVersion: typeof EVALUATION_FORMAT_VERSION;
  appVersion: string;
  createdAt?: string;
  mechanism?: ReportedMechanism;
  claim?: PrivacyClaim;
  real: EvaluatedFile;
  synthetic: EvaluatedFile[];
  holdout?: EvaluatedFile;
  columns: { name: string; type: 'numeric' | 'categorical' }[];
  pmse: EvaluationPmse;
  /** Mean TVD of the k-way marginals by k; null for a k skipped (reason in `tvdSkipped`). */
  tvd: Record<string, number | null>;
  tvdSkipped?: Record<string, string>;
  /** Each subset's TVD averaged over releases, by k. */
  tvdSubsets: Record<string, SubsetTvd[]>;
  tvdPerRelease: Record<string, TvdOrderReport>;
  tvdFullTable: TvdSection['fullTable'];
  kMarginalScore: number | null;
  perColumn: MetricSections['perColumn'];
  correlation: MetricSections['correlation'];
  regression: MetricSections['regression'];
  mlEfficacy: MetricSections['mlEfficacy'];
  distinguishingGame: MetricSections['distinguishingGame'];
  disclosure: MetricSections['disclosure'];
  note: string;
}

/** The mean of the values, or null when any is null (a key every release must have). */
function meanOfAll(values: (number | null)[]): number | null {
  if (values.length === 0 || values.some((v) => v === null)) return null;
  return mean(values as number[]);
}

/** Each subset's TVD averaged over releases (subsets matched by their column names). */
function meanSubsetTvds(perRelease: SubsetTvd[][]): SubsetTvd[] {
  const key = (columns: string[]) => columns.join('\u0000');
  const sums = new Map<string, number>();
  for (const subsets of perRelease) {
    for (const s of subsets) sums.set(key(s.columns), (sums.get(key(s.columns)) ?? 0) + s.tvd);
  }
  return perRelease[0]!.map((s) => ({
    columns: s.columns,
    tvd: sums.get(key(s.columns))! / perRelease.length,
  }));
}

/** Warnings about the pMSE fit: a logistic model that separates real from synthetic rows. */
export function pmseWarnings(pmse: PmseSection): string[] {
  if (pmse.model !== 'logit') return [];
  const releases = pmse.perRelease.length;
  return pmse.perRelease.flatMap((r, j) => {
    const extreme = r.extremePropensities ?? 0;
    if (extreme === 0) return [];
    return [
      `${releases > 1 ? `release ${j + 1}: ` : ''}the logistic model separates real from synthetic rows ` +
        `(${extreme} fitted propensities within 1e-8 of 0 or 1): the maximum-likelihood fit does not exist ` +
        'and pMSE/S_pMSE depend on the optimiser; use --pmse-model cart',
    ];
  });
}

/** The pMSE section summarised over releases (means of the per-release values). */
function pmseSummary(pmse: PmseSection): EvaluationPmse {
  const perRelease = pmse.perRelease;
  return {
    model: pmse.model,
    value: pmse.mean.value,
    ratio: pmse.mean.ratio,
    nullMean: meanOfAll(perRelease.map((r) => r.nullMean)),
    rawRatio: meanOfAll(perRelease.map((r) => r.rawRatio)),
    k: meanOfAll(perRelease.map((r) => r.k)),
    ...('cart' in pmse.settings
      ? { cart: pmse.settings.cart, permutations: pmse.settings.permutations }
      : {}),
    droppedConstant: pmse.droppedConstant,
    warnings: pmseWarnings(pmse),
    perRelease,
  };
}

/**
 * Writes the evaluation JSON of a UtilityReport: plain JSON (JSON.stringify it as it is), in a
 * fixed key order, with no wall-clock timing, so that it depends only on the report and `meta`.
 * The real file, the releases and the kept-back rows are named when `meta` names them; `mechanism`
 * and `claim` appear when `meta.run` gives them. Nothing in it is differentially private (`note`).
 */
export function evaluationJson(report: UtilityReport, meta: EvaluationJsonMeta): EvaluationJson {
  const files = meta.syntheticFiles;
  if (files !== undefined && files.length !== report.releases) {
    throw new Error(`The evaluation has ${report.releases} releases but ${files.length} file names.`);
  }
  const tvd: Record<string, number | null> = {};
  const tvdSkipped: Record<string, string> = {};
  const tvdSubsets: Record<string, SubsetTvd[]> = {};
  for (const [k, order] of Object.entries(report.tvd.byK)) {
    if (order.mean === null || order.perRelease === null) {
      tvd[k] = null;
      tvdSkipped[k] = order.skipped ?? 'not computed.';
      continue;
    }
    tvd[k] = order.mean;
    tvdSubsets[k] = meanSubsetTvds(order.perRelease.map((r) => r.subsets));
  }
  const named = (file: string | undefined, rows: number): EvaluatedFile =>
    file === undefined ? { rows } : { file, rows };
  return {
    format: EVALUATION_FORMAT,
    formatVersion: EVALUATION_FORMAT_VERSION,
    appVersion: meta.appVersion,
    ...(meta.createdAt === undefined ? {} : { createdAt: meta.createdAt }),
    ...(meta.run?.mechanism === undefined ? {} : { mechanism: meta.run.mechanism }),
    ...(meta.run === undefined ? {} : { claim: meta.run.claim }),
    real: named(meta.realFile, report.rows.real),
    synthetic: report.rows.releases.map((rows, j) => named(files?.[j], rows)),
    ...(meta.holdout === undefined ? {} : { holdout: named(meta.holdout.file, meta.holdout.rows) }),
    columns: report.columns.map((c) => ({ name: c.name, type: c.kind })),
    pmse: pmseSummary(report.pmse),
    tvd,
    ...(Object.keys(tvdSkipped).length > 0 ? { tvdSkipped } : {}),
    tvdSubsets,
    tvdPerRelease: report.tvd.byK,
    tvdFullTable: report.tvd.fullTable,
    kMarginalScore: report.tvd.kMarginalScore?.mean ?? null,
    perColumn: report.perColumn,
    correlation: report.correlation,
    regression: report.regression,
    mlEfficacy: report.mlEfficacy,
    distinguishingGame: report.distinguishingGame,
    disclosure: report.disclosure,
    note: report.note,
  };
}
