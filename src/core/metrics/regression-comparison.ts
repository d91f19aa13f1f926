import { combineSyntheticReleases } from '../inference/combining-rules';
import { confidenceIntervalOverlap } from '../inference/confidence-interval-overlap';
import {
  fitRegressionOnTables,
  type RegressionFitSummary,
  type RegressionSpec,
} from '../models/regression-fits';
import { mean } from '../stats/mean';
import type { Table } from '../table/types';

export type { RegressionFitSummary, RegressionSpec } from '../models/regression-fits';

export interface ReleaseRegressionComparison {
  fit: RegressionFitSummary;
  /** (β̂_syn − β̂_obs) / se(β̂_obs) per term. */
  standardizedDifference: (number | null)[];
  /** Karr et al. (2006) interval overlap per term. */
  ciOverlap: (number | null)[];
  /** Means over the terms where defined (null if none). */
  meanAbsoluteStandardizedDifference: number | null;
  meanCiOverlap: number | null;
}

/** DIPS combining rules (eqs. 9–11) per term over all releases; null where a release lacks the term. */
export interface CombinedRegressionInference {
  releases: number;
  estimate: (number | null)[];
  standardError: (number | null)[];
  betweenVariance: (number | null)[];
  withinVariance: (number | null)[];
  /** ν per term; null where ν is infinite (B = 0: normal quantile) or the term is not combined. */
  degreesOfFreedom: (number | null)[];
  ciLower: (number | null)[];
  ciUpper: (number | null)[];
  standardizedDifference: (number | null)[];
  ciOverlap: (number | null)[];
}

export interface RegressionComparison {
  family: 'linear' | 'logistic';
  target: string;
  predictors: string[];
  positiveLevel: string | null;
  level: number;
  /** "(Intercept)", numeric predictor names, "<column>=<level>" for treatment dummies. */
  terms: string[];
  /** Predictors dropped because they take one value over all tables' complete cases. */
  droppedConstant: string[];
  real: RegressionFitSummary;
  releases: ReleaseRegressionComparison[];
  /** Present when there are at least two releases. */
  combined: CombinedRegressionInference | null;
}

const finiteOrNull = (x: number | undefined): number | null =>
  x !== undefined && Number.isFinite(x) ? x : null;

function meanOfDefined(
  values: (number | null)[],
  transform: (v: number) => number = (v) => v,
): number | null {
  const defined = values.filter((v): v is number => v !== null).map(transform);
  return defined.length === 0 ? null : mean(defined);
}

function compareToReal(
  real: RegressionFitSummary,
  release: RegressionFitSummary,
): ReleaseRegressionComparison {
  const standardizedDifference = real.coefficients.map((b, j) => {
    const synth = release.coefficients[j];
    const se = real.standardErrors[j];
    return b === null || synth === null || synth === undefined || se === null || se === undefined || se === 0
      ? null
      : (synth - b) / se;
  });
  const ciOverlap = real.coefficients.map((_, j) => {
    const lo = real.ciLower[j];
    const hi = real.ciUpper[j];
    const los = release.ciLower[j];
    const his = release.ciUpper[j];
    if (lo == null || hi == null || los == null || his == null) return null;
    return confidenceIntervalOverlap(lo, hi, los, his);
  });
  return {
    fit: release,
    standardizedDifference,
    ciOverlap,
    meanAbsoluteStandardizedDifference: meanOfDefined(standardizedDifference, Math.abs),
    meanCiOverlap: meanOfDefined(ciOverlap),
  };
}

function combineReleases(
  real: RegressionFitSummary,
  releases: RegressionFitSummary[],
  level: number,
): CombinedRegressionInference {
  const p = real.coefficients.length;
  const out: CombinedRegressionInference = {
    releases: releases.length,
    estimate: [],
    standardError: [],
    betweenVariance: [],
    withinVariance: [],
    degreesOfFreedom: [],
    ciLower: [],
    ciUpper: [],
    standardizedDifference: [],
    ciOverlap: [],
  };
  for (let j = 0; j < p; j++) {
    const estimates = releases.map((fit) => fit.coefficients[j]);
    const ses = releases.map((fit) => fit.standardErrors[j]);
    if (estimates.some((v) => v == null) || ses.some((v) => v == null)) {
      for (const key of Object.keys(out) as (keyof CombinedRegressionInference)[]) {
        if (key !== 'releases') (out[key] as (number | null)[]).push(null);
      }
      continue;
    }
    const combined = combineSyntheticReleases(estimates as number[], ses as number[], level);
    out.estimate.push(combined.estimate);
    out.standardError.push(combined.standardError);
    out.betweenVariance.push(combined.betweenVariance);
    out.withinVariance.push(combined.withinVariance);
    out.degreesOfFreedom.push(finiteOrNull(combined.degreesOfFreedom));
    out.ciLower.push(combined.ciLower);
    out.ciUpper.push(combined.ciUpper);
    const b = real.coefficients[j];
    const se = real.standardErrors[j];
    out.standardizedDifference.push(
      b == null || se == null || se === 0 ? null : (combined.estimate - b) / se,
    );
    const lo = real.ciLower[j];
    const hi = real.ciUpper[j];
    out.ciOverlap.push(
      lo == null || hi == null ? null : confidenceIntervalOverlap(lo, hi, combined.ciLower, combined.ciUpper),
    );
  }
  return out;
}

/**
 * Regression comparison: the user's model fitted on the real table and on each synthetic release,
 * coefficient by coefficient — the "inferential utility" of Karr et al. (2006) and Bowen & Liu (2020).
 *
 * Model: linear (OLS) for a numeric target, logistic (maximum likelihood) for a binary one;
 * intercept plus the predictors, categorical predictors treatment-coded with levels pooled over all
 * tables in code-point order (first level = reference), complete cases only (R's default na.omit).
 * A level absent from one table gives an aliased (null) coefficient there, as R reports NA.
 * Per release and term: standardized difference (β̂_syn − β̂_obs) / se(β̂_obs); Karr et al. (2006) CI
 * overlap of the `level` intervals (linear: β̂ ∓ t_{df} se; logistic: Wald β̂ ∓ z se). With m ≥ 2
 * releases, the DIPS combining rules (Bowen & Liu 2020, eqs. 9–11: β̄, B, W, T = B/m + W,
 * ν = (m − 1)(1 + mW/B)²) and the same two comparisons for the combined estimate.
 * Throws when a column is missing, the target has the wrong type, or the real table has no complete
 * rows. Cost O(Σ n · p²).
 */
export function compareRegressions(real: Table, synths: Table[], spec: RegressionSpec): RegressionComparison {
  const level = spec.level ?? 0.95;
  const fitted = fitRegressionOnTables([real, ...synths], spec, 'The real table');
  const realSummary = fitted.fits[0]!;
  const releaseSummaries = fitted.fits.slice(1);
  return {
    family: fitted.family,
    target: spec.target,
    predictors: [...spec.predictors],
    positiveLevel: fitted.positiveLevel,
    level,
    terms: fitted.terms,
    droppedConstant: fitted.droppedConstant,
    real: realSummary,
    releases: releaseSummaries.map((summary) => compareToReal(realSummary, summary)),
    combined: releaseSummaries.length >= 2 ? combineReleases(realSummary, releaseSummaries, level) : null,
  };
}
