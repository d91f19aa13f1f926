import type { Rng } from '../rng/types';
import type { Table } from '../table/types';
import { SYNTHPOP_CART_DEFAULTS, type CartInput, type CartOptions } from '../models/cart/cart-types';
import { CartWorkspace } from '../models/cart/cart-workspace';
import { RpartTreeGrower } from '../models/cart/grow-rpart-tree';
import { fitCart, predictInSample } from '../models/cart/fit-cart';
import { buildDesignMatrix, cartInputFromPredictors, poolPredictors } from '../models/design-matrix';
import {
  fitLogisticRegression,
  type LogisticRegressionOptions,
} from '../models/logistic/fit-logistic-regression';
import { alignColumnsByName } from './align-columns';
import { shuffleInPlace } from '../rng/shuffle';
import { cartPmseFromLeaves, pmseOfPropensities } from './pmse-helpers';
import { mean } from '../stats/mean';

export interface PmseOptions {
  model: 'cart' | 'logit';
  /** Tree settings (default synthpop's: cp 0.001, minbucket 5, minsplit 15, maxdepth 30). */
  cart?: CartOptions;
  /** CART permutation null replicates (default 50, synthpop's nperms); 0 skips the null. */
  permutations?: number;
  /** Logit: 0 = main effects, 1 = plus all pairwise interactions (default 1, synthpop's maxorder). */
  maxOrder?: 0 | 1;
  /** Logit IRLS settings (default: synthpop's maxit 200, R's epsilon 1e-8, no ridge). */
  logit?: LogisticRegressionOptions;
  /** Return the propensity scores (real rows, synthetic rows). */
  keepPropensities?: boolean;
  /**
   * CART: the permutation null's mean pMSE when it was computed elsewhere (e.g. on other threads by
   * cartPmseNullSum over the same input); the refits here are then skipped.
   */
  nullMean?: number;
}

export interface PmseResult {
  model: 'cart' | 'logit';
  /** pMSE = (1/N) Σ (p̂_i − c)², c = n_synth / N. */
  value: number;
  /** S_pMSE (see computePmse); null when no null expectation exists. */
  ratio: number | null;
  /** Logit: E[pMSE] = (k−1)(1−c)²c/N. CART: mean permutation pMSE (not halved). */
  nullMean: number | null;
  /** CART: pMSE / nullMean, without synthpop's halving. */
  rawRatio?: number;
  /** Logit: identified coefficients incl. the intercept (rank of the design). */
  k?: number;
  /** Logit: fitted probabilities within 1e-8 of 0 or 1 (separation: the MLE does not exist). */
  nExtreme?: number;
  /** Logit: whether IRLS converged. */
  converged?: boolean;
  /** CART: leaves of the fitted tree. */
  leaves?: number;
  /** Columns dropped because they are constant in the pooled data. */
  droppedConstant: string[];
  propensities?: { real: Float64Array; synth: Float64Array };
}

/**
 * Propensity-score mean squared error of a synthetic table against the real one (Snoke,
 * Raab, Nowok, Dibben & Slavković 2018, "General and specific utility measures for synthetic
 * data", JRSS A; Snoke & Slavković 2018, Algorithm 1), with synthpop::utility.gen's defaults:
 * stack real (label 0) then synthetic (label 1) rows after the normative preprocessing
 * (design-matrix.ts poolPredictors), fit a classifier on all N rows, p̂_i = in-sample propensity,
 *   pMSE = (1/N) Σ_i (p̂_i − c)²,  c = n_synth / N.
 *
 * S_pMSE (`ratio`):
 * - logit: pMSE / E[pMSE] with the closed-form null E[pMSE] = (k − 1)(1 − c)² c / N, k = rank of
 *   the design incl. the intercept (Snoke et al. 2018, §3.2; synthpop pMSEExp);
 * - CART: S = pMSE / (m̄ / 2), m̄ = mean pMSE over `permutations` refits with the labels permuted
 *   (same tree settings). The factor 2 follows synthpop ("reduced by factor of 2 for lack of
 *   conditioning"): permuting labels makes real and synthetic rows two independent samples of one
 *   distribution, whereas the null of Snoke et al. (2018) is synthetic data drawn from a correct
 *   model fitted to (conditioned on) the real data, whose expected pMSE is about half as large —
 *   for logit exactly (k−1)(1−c)²c/N against (k−1)c(1−c)/N for independent samples, a ratio
 *   1 − c = 1/2 at equal sizes (checked in pmse.test.ts). `rawRatio` = pMSE / m̄ (≈ 1 when the
 *   synthetic rows are an independent sample of the real distribution).
 *
 * Matches R's rpart / glm (tests/fixtures/pmse): CART to 1e-12 relative, logit to 1e-6.
 * The logit is fitted unpenalised (no ridge), as glm and synthpop fit it, so the numbers are
 * comparable; under separation that fit does not exist, and instead of hiding it behind a ridge the
 * result counts the propensities within 1e-8 of 0 or 1 (nExtreme) and the reports warn.
 * Throws when the column sets or kinds differ. Randomness (permutations only) from `rng`.
 */
export function computePmse(real: Table, synth: Table, options: PmseOptions, rng: Rng): PmseResult {
  const pairs = alignColumnsByName(real, synth);
  const pooled = poolPredictors([real, synth], { columns: pairs.map((pair) => pair.name) });
  const nReal = real.nRows;
  const nSynth = synth.nRows;
  const total = nReal + nSynth;
  if (nReal < 1 || nSynth < 1) throw new RangeError('pMSE needs at least one real and one synthetic row');
  const share = nSynth / total;
  const labels = new Uint8Array(total).fill(1, nReal);

  if (options.model === 'cart') {
    const cartOptions = options.cart ?? SYNTHPOP_CART_DEFAULTS;
    const input = cartInputFromPredictors(pooled, labels);
    const workspace = new CartWorkspace();
    const tree = fitCart(input, cartOptions, workspace);
    const propensities = predictInSample(tree);
    const value = pmseOfPropensities(propensities, share);
    const permutations = options.permutations ?? 50;
    let nullMean: number | null = options.nullMean ?? null;
    if (nullMean === null && permutations > 0) {
      nullMean = refitPermuted(workspace, labels, cartOptions, share, permutations, rng) / permutations;
    }
    return {
      model: 'cart',
      value,
      ratio: nullMean !== null && nullMean > 0 ? value / (nullMean / 2) : null,
      nullMean,
      ...(nullMean !== null && nullMean > 0 ? { rawRatio: value / nullMean } : {}),
      leaves: tree.leafCount,
      droppedConstant: pooled.droppedConstant,
      ...(options.keepPropensities ? { propensities: splitPropensities(propensities, nReal) } : {}),
    };
  }

  const design = buildDesignMatrix(pooled, { maxOrder: options.maxOrder ?? 1 });
  const fit = fitLogisticRegression(design.X, design.nRows, design.nColumns, labels, options.logit);
  const value = pmseOfPropensities(fit.fitted, share);
  const k = fit.rank;
  const expected = ((k - 1) * (1 - share) * (1 - share) * share) / total;
  return {
    model: 'logit',
    value,
    ratio: expected > 0 ? value / expected : null,
    nullMean: expected > 0 ? expected : null,
    k,
    nExtreme: fit.nExtreme,
    converged: fit.converged,
    droppedConstant: pooled.droppedConstant,
    ...(options.keepPropensities ? { propensities: splitPropensities(fit.fitted, nReal) } : {}),
  };
}

/**
 * The CART pMSE null's raw material: Σ over `permutations` refits of the pMSE with the stacked labels
 * permuted (uniform shuffles from `rng`, each applied to the previous order), same tree settings.
 * `input` is the stacked table with labels 0 (real) and 1 (synthetic), as cartPmseInput builds it;
 * share = n_synth/N. Sums from several calls with independent generators add up to one null.
 */
export function cartPmseNullSum(
  input: CartInput,
  options: CartOptions,
  share: number,
  permutations: number,
  rng: Rng,
): number {
  const workspace = new CartWorkspace();
  workspace.load(input);
  return refitPermuted(workspace, input.y, options, share, permutations, rng);
}

/** One seeded part of a CART pMSE null: `permutations` shuffles drawn one after another from `rng`. */
export interface CartNullPart {
  permutations: number;
  rng: Rng;
}

/**
 * The refits of cartPmseNullSum one at a time, for threads that share them out. Refits are numbered
 * across `parts` (part 0's first); refit r of a part fits the labels after r + 1 shuffles from the
 * part's generator, exactly as cartPmseNullSum does, so its pMSE does not depend on which caller
 * computes it. `claim()` gives the next refit number to compute (increasing; anything ≥ the total
 * stops), `record(t, pMSE)` receives each result. Refits claimed elsewhere are only shuffled past
 * (one shuffle, no fit). Summing a part's pMSEs from r = 0 on gives cartPmseNullSum's sum exactly.
 * The stacked input is loaded on the first claim only.
 */
export function cartPmseNullRefits(
  input: CartInput,
  options: CartOptions,
  share: number,
  parts: readonly CartNullPart[],
  claim: () => number,
  record: (refit: number, pmse: number) => void,
): void {
  const starts: number[] = [];
  let total = 0;
  for (const part of parts) {
    starts.push(total);
    total += part.permutations;
  }
  const permuted = parts.map(() => input.y.slice());
  const shuffled = parts.map(() => 0);
  let workspace: CartWorkspace | undefined;
  let grower: RpartTreeGrower | undefined;
  for (let t = claim(); t < total; t = claim()) {
    if (workspace === undefined) {
      workspace = new CartWorkspace();
      workspace.load(input);
      grower = new RpartTreeGrower(workspace);
    }
    let k = parts.length - 1;
    while (starts[k]! > t) k--;
    const r = t - starts[k]!;
    if (shuffled[k]! > r) throw new RangeError(`refit ${t} claimed after a later one of its part.`);
    while (shuffled[k]! <= r) {
      shuffleInPlace(parts[k]!.rng, permuted[k]!);
      shuffled[k]!++;
    }
    workspace.relabel(permuted[k]!);
    grower!.grow(options);
    record(t, cartPmseFromLeaves(workspace, share));
  }
}

/** The stacked CART input of computePmse (real rows labelled 0, then synthetic rows labelled 1) and c. */
export function cartPmseInput(real: Table, synth: Table): { input: CartInput; share: number } {
  const pairs = alignColumnsByName(real, synth);
  const pooled = poolPredictors([real, synth], { columns: pairs.map((pair) => pair.name) });
  const total = real.nRows + synth.nRows;
  const labels = new Uint8Array(total).fill(1, real.nRows);
  return { input: cartInputFromPredictors(pooled, labels), share: synth.nRows / total };
}

function refitPermuted(
  workspace: CartWorkspace,
  labels: Uint8Array,
  options: CartOptions,
  share: number,
  permutations: number,
  rng: Rng,
): number {
  const grower = new RpartTreeGrower(workspace);
  const permuted = labels.slice();
  let sum = 0;
  for (let r = 0; r < permutations; r++) {
    shuffleInPlace(rng, permuted);
    workspace.relabel(permuted);
    grower.grow(options);
    sum += cartPmseFromLeaves(workspace, share);
  }
  return sum;
}

function splitPropensities(all: Float64Array, nReal: number): { real: Float64Array; synth: Float64Array } {
  return { real: all.slice(0, nReal), synth: all.slice(nReal) };
}

/**
 * pMSE of several synthetic releases against one real table: one computePmse per release
 * (synthpop utility.gen with m > 1 reports each release and their mean). meanRatio is null when
 * any release has no ratio.
 */
export function computePmseReleases(
  real: Table,
  synths: readonly Table[],
  options: PmseOptions,
  rng: Rng,
): { perRelease: PmseResult[]; meanValue: number; meanRatio: number | null } {
  if (synths.length === 0) throw new RangeError('computePmseReleases needs at least one synthetic table');
  const perRelease = synths.map((synth) => computePmse(real, synth, options, rng));
  const meanValue = mean(perRelease.map((result) => result.value));
  const ratios = perRelease.map((result) => result.ratio);
  const meanRatio = ratios.every((ratio): ratio is number => ratio !== null) ? mean(ratios) : null;
  return { perRelease, meanValue, meanRatio };
}

export { makeCartPmseEvaluator, type CartPmseEvaluator } from './pmse-cart-evaluator';
