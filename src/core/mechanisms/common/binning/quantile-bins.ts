import { boundScores } from '../../../domain/dp-quantile';
import { searchGrid } from '../../../domain/search-grid';
import type { ChargeableStep, MeterStep } from '../../../privacy/meter';
import { meteredDiscreteGaussian, meteredExponentialMechanism } from '../../../privacy/metered';
import { querySensitivity, type Neighbouring } from '../../../privacy/query-sensitivity';
import { roundDownRational, roundUpRational, sqrtRationalDown } from '../../../privacy/round-up';
import { Rational } from '../../../rng/rational';
import type { Rng } from '../../../rng/types';
import type { Column, Table } from '../../../table/types';
import { activePoints, codedValue, type ShapedCoding } from '../coding/bin-shape';
import type { ColumnCoding } from '../coding/column-coding';
import { columnsForCodings } from '../coding/encode-rows';

/**
 * Quantile bins learned with DP. A numeric coding marked `quantile` (column-coding.ts, from the
 * `binning` parameter) has B bins, B public; its B − 1 edges are chosen here, edge j near the
 * quantile j/B of the column's counted values: the values present that are not point masses, clamped
 * into the bounds (rounded, for an integer column), m of them. Each edge is one exponential mechanism
 * (McSherry & Talwar 2007) over a public grid of candidates inside the bounds (edgeCandidates), scored
 * by domain/dp-quantile.ts's boundScores at the target rank r_j(m) = ⌈j·m/B⌉ (candidate g stands for
 * the grid cell [g, g′) to the next candidate and scores −(distance from r_j to the ranks that cell
 * holds)). r_j never falls and rises by at most 1 when m rises by 1 (j/B <= 1), so the score moves by
 * at most 1 between neighbours under replace-one (n public) and under add/remove alike: query kind
 * `quantile-cell-score` (privacy/query-sensitivity.ts, where the derivation is written out). The
 * number of bins, the targets j/B and the grid are public; only the chosen edges come from the data,
 * and they are released (post-processing: sorting them and spacing equal ones apart is, too).
 */

/** Evenly spaced candidates per column (at least twice the bins): a public constant. */
export const EVEN_GRID_STEPS = 256;

/** Integer columns with at most this many integers take every integer as a candidate edge. */
export const EVERY_INTEGER_LIMIT = 4096;

/**
 * The public candidate edges of a quantile coding, ascending, from its bounds and bin count only:
 * - real: lo + (hi − lo)·i/G for i = 1 … G − 1, G = max(256, 2·bins), together with the readable
 *   log-spaced values of domain/search-grid.ts strictly inside (lo, hi) (so a skewed column has
 *   candidates near its small values too);
 * - integer: every integer first + 1 … first + count − 1 when count <= 4096, else the real candidates
 *   over [first, last] rounded up to integers, those in (first, last].
 * An edge e leaves the values < e below it. At least bins − 1 candidates (bins <= count for integers).
 */
export function edgeCandidates(coding: ShapedCoding): number[] {
  if (coding.kind === 'integer') {
    const last = coding.first + coding.count - 1;
    if (coding.count <= EVERY_INTEGER_LIMIT) {
      return Array.from({ length: coding.count - 1 }, (_, i) => coding.first + 1 + i);
    }
    const rounded = realCandidates(coding.first, last, coding.bins).map((g) => Math.ceil(g));
    return [...new Set(rounded)].filter((g) => g > coding.first && g <= last);
  }
  return realCandidates(coding.lo, coding.hi, coding.bins);
}

function realCandidates(lo: number, hi: number, bins: number): number[] {
  const steps = Math.max(EVEN_GRID_STEPS, 2 * bins);
  const even = Array.from({ length: steps - 1 }, (_, i) => lo + ((hi - lo) * (i + 1)) / steps);
  const readable = searchGrid([lo, hi]).slice(1, -1);
  return [...new Set([...even, ...readable])].filter((g) => g > lo && g < hi).sort((a, b) => a - b);
}

/**
 * The counted values of a column, ascending: present, clamped (and rounded), not point masses (declared,
 * or candidates the detection step accepted, so detection runs first).
 */
export function countedValues(column: Column, coding: ShapedCoding): Float64Array {
  if (column.kind !== 'numeric') throw new Error(`column \`${coding.name}\` is not numeric in the table.`);
  const points = new Set(activePoints(coding));
  const out: number[] = [];
  for (let i = 0; i < column.values.length; i++) {
    const value = column.values[i]!;
    if (column.missing[i] === 1 || Number.isNaN(value)) continue;
    const x = codedValue(value, coding);
    if (!points.has(x)) out.push(x);
  }
  return Float64Array.from(out).sort();
}

/** r_j(m) = ⌈j·m/B⌉, exactly in integers: never falls, and rises by at most 1 when m rises by 1. */
export function edgeRank(j: number, bins: number, m: number): number {
  return Math.floor((j * m + bins - 1) / bins);
}

/**
 * Candidate indices made strictly increasing (post-processing of the DP choices): sorted, each at
 * least one above the one before, then each at most one below the one after and at most K − 1.
 * Needs K >= the number of indices.
 */
export function strictlyIncreasing(indices: readonly number[], candidates: number): number[] {
  const out = [...indices].sort((a, b) => a - b);
  for (let j = 1; j < out.length; j++) out[j] = Math.max(out[j]!, out[j - 1]! + 1);
  for (let j = out.length - 1; j >= 0; j--) {
    out[j] = Math.min(out[j]!, j === out.length - 1 ? candidates - 1 : out[j + 1]! - 1);
  }
  return out;
}

/**
 * The B − 1 edges of one quantile coding: one metered exponential mechanism per edge at ε each, on
 * `step` (query kind quantile-cell-score, Δ = 1 under either relation). Returns the edges, strictly
 * increasing, inside the bounds.
 */
export function dpQuantileEdges(
  step: ChargeableStep,
  column: Column,
  coding: ShapedCoding,
  epsilon: Rational,
  rng: Rng,
): number[] {
  const candidates = edgeCandidates(coding);
  if (candidates.length < coding.bins - 1) {
    throw new Error(`\`${coding.name}\` has fewer candidate edges than its ${coding.bins} bins need.`);
  }
  const sorted = countedValues(column, coding);
  const chosen: number[] = [];
  for (let j = 1; j < coding.bins; j++) {
    const scores = boundScores(sorted, edgeRank(j, coding.bins, sorted.length), candidates, 'lower');
    chosen.push(meteredExponentialMechanism(step, { kind: 'quantile-cell-score' }, scores, epsilon, rng));
  }
  return strictlyIncreasing(chosen, candidates.length).map((i) => candidates[i]!);
}

/** The codings with quantile bins, the ones the binning step learns edges for (bins − 1 draws each). */
export function quantileCodings(codings: readonly ColumnCoding[]): ShapedCoding[] {
  return codings.filter(
    (coding): coding is ShapedCoding => coding.kind !== 'categorical' && coding.quantile !== undefined,
  );
}

/** The number of edge draws of a domain: Σ (bins − 1) over its quantile codings. Public. */
export function quantileEdgeDraws(codings: readonly ColumnCoding[]): number {
  return quantileCodings(codings).reduce((sum, coding) => sum + coding.bins - 1, 0);
}

/**
 * The codings with their candidate point masses decided and their edges learned, in order (the others
 * unchanged), drawing through `step`: per column, first the detection (one draw), then the edges (the
 * values they rank leave out the accepted point masses: adaptive, on a DP output). Cost
 * O(Σ (n log n + B·K)) over the quantile columns.
 */
export function learnQuantileEdges(
  table: Table,
  codings: readonly ColumnCoding[],
  step: ChargeableStep,
  plan: Pick<QuantileBinPlan, 'epsilonPerEdge' | 'detectionSigma2' | 'pointMassShare'>,
  rng: Rng,
): ColumnCoding[] {
  const columns = columnsForCodings(table, codings);
  return codings.map((coding, j) => {
    if (coding.kind === 'categorical') return coding;
    let shaped: ShapedCoding = coding;
    if (coding.candidates !== undefined) {
      const accepted = detectPointMasses(
        step,
        columns[j]!,
        coding,
        plan.detectionSigma2!,
        plan.pointMassShare,
        rng,
      );
      shaped = { ...shaped, candidates: { values: [...coding.candidates.values], accepted } };
    }
    if (shaped.quantile !== undefined) {
      const edges = dpQuantileEdges(step, columns[j]!, shaped, plan.epsilonPerEdge, rng);
      shaped = { ...shaped, quantile: { edges } };
    }
    return shaped;
  });
}

/**
 * The counts of the partition of the rows into {coded value = v_k} for each candidate v_k and one cell
 * for every other row (missing cells, declared point masses, other values): K + 1 counts summing to the
 * number of rows. Cost O(n·K).
 */
export function candidateCounts(column: Column, coding: ShapedCoding): Float64Array {
  if (column.kind !== 'numeric') throw new Error(`column \`${coding.name}\` is not numeric in the table.`);
  const values = coding.candidates?.values ?? [];
  const counts = new Float64Array(values.length + 1);
  for (let i = 0; i < column.values.length; i++) {
    const value = column.values[i]!;
    const present = column.missing[i] !== 1 && !Number.isNaN(value);
    const k = present ? values.indexOf(codedValue(value, coding)) : -1;
    counts[k >= 0 ? k : values.length]! += 1;
  }
  return counts;
}

/**
 * Which candidate point masses v₁ … v_K of a column get their level: the counts of the partition of
 * the rows into {value = v₁}, …, {value = v_K} and every other row (missing cells and declared point
 * masses included; values clamped and rounded as coded) get discrete Gaussian noise of variance σ²
 * in one metered draw (query kind partition-counts: Δ₂² = 2 under replace-one, one row leaving a cell
 * and joining another; 1 under add/remove, one cell ±1), and v_k is accepted when its noisy count
 * reaches `share` times the sum of all the noisy counts (a noisy row count, so n is never read):
 * post-processing of the noisy counts, which are not released.
 */
export function detectPointMasses(
  step: ChargeableStep,
  column: Column,
  coding: ShapedCoding,
  sigma2: Rational,
  share: number,
  rng: Rng,
): boolean[] {
  const values = coding.candidates?.values ?? [];
  const noisy = meteredDiscreteGaussian(
    step,
    { kind: 'partition-counts' },
    candidateCounts(column, coding),
    sigma2,
    rng,
  );
  const total = noisy.reduce((sum, c) => sum + c, 0);
  return values.map((_, k) => noisy[k]! >= share * total && noisy[k]! > 0);
}

/**
 * The zCDP binning step of a run: how many edge draws at which ε each, how many detection draws
 * (one per column with candidate point masses) at which σ², the detection threshold, ρ in all.
 */
export interface QuantileBinPlan {
  draws: number;
  epsilonPerEdge: Rational;
  detections: number;
  detectionSigma2?: Rational;
  pointMassShare: number;
  rho: Rational;
}

/** Significant digits of the per-edge ε (rounded down from its target). */
const EDGE_EPSILON_DIGITS = 12;

/**
 * The binning step of a zCDP mechanism, from public facts only (the codings' bin counts, the budget,
 * the share): each of the D draws is an exponential mechanism at ε, ε-DP with bounded range, hence
 * ε²/8-zCDP (Cesar & Rogers 2021, Lemma 3.2), under either relation (its score sensitivity is 1 under
 * both). ε = the largest 12-digit decimal <= √(8·share·ρ/D), so D·ε²/8 <= share·ρ, exactly. Undefined
 * when there is nothing to learn (no quantile coding with more than one bin).
 */
export function planQuantileBinStep(
  rhoBudget: Rational,
  codings: readonly ColumnCoding[],
  share: Rational,
  neighbouring: Neighbouring = 'replace-one',
  pointMassShare = 0,
): QuantileBinPlan | undefined {
  const draws = quantileEdgeDraws(codings);
  const detections = quantileCodings(codings).filter((coding) => coding.candidates !== undefined).length;
  if (draws === 0 && detections === 0) return undefined;
  const total = share.mul(rhoBudget);
  // Detection gets a quarter of the share (all of it when there is no edge to learn).
  const detectionRho = detections === 0 ? Rational.ZERO : draws === 0 ? total : total.div(Rational.of(4));
  const target = Rational.of(8)
    .mul(total.sub(detectionRho))
    .div(Rational.of(Math.max(draws, 1)));
  const epsilonPerEdge = draws === 0 ? Rational.ZERO : sqrtRationalDown(target, EDGE_EPSILON_DIGITS);
  // Each detection draw costs Δ₂²/(2σ²) = detectionRho/detections: σ² = detections·Δ₂²/(2·detectionRho).
  const l2Squared = querySensitivity({ kind: 'partition-counts' }, neighbouring).l2Squared;
  const detectionSigma2 =
    detections === 0
      ? undefined
      : Rational.of(detections).mul(l2Squared).div(Rational.of(2).mul(detectionRho));
  const edgeRho = epsilonPerEdge.mul(epsilonPerEdge).div(Rational.of(8)).mul(Rational.of(draws));
  return {
    draws,
    epsilonPerEdge,
    detections,
    ...(detectionSigma2 === undefined ? {} : { detectionSigma2 }),
    pointMassShare,
    rho: edgeRho.add(detectionRho),
  };
}

/**
 * The binning step's ρ under replace-one neighbours when it was planned under add/remove
 * (privacy/relation-conversion.ts). The edge draws are unchanged: their score moves by at most 1 under
 * both relations (query kind `quantile-cell-score`), so the D draws still cost D·ε²/8. Each detection
 * draw counts a partition (the rows at each candidate and the rest), whose Δ₂² is 1 under add/remove and
 * 2 under replace-one, so its ρ = Δ₂²/(2σ²) doubles. Exact: edgeRho + 2·detectionRho, where
 * edgeRho = D·ε²/8 and detectionRho = plan.rho − edgeRho.
 */
export function quantileBinReplaceOneRho(plan: QuantileBinPlan): Rational {
  const edgeRho = plan.epsilonPerEdge
    .mul(plan.epsilonPerEdge)
    .div(Rational.of(8))
    .mul(Rational.of(plan.draws));
  const detectionRho = plan.rho.sub(edgeRho);
  return edgeRho.add(Rational.of(2).mul(detectionRho));
}

/** The ρ left for the mechanism after the binning step (all of it without one). */
export function rhoAfterBinning(rhoBudget: Rational, plan: QuantileBinPlan | undefined): Rational {
  return plan === undefined ? rhoBudget : rhoBudget.sub(plan.rho);
}

/** Reserves the binning step on a zCDP accountant; claim() and run() both call this, first. */
export function reserveQuantileBinStep(
  accountant: { reserve(what: string, rho: Rational): MeterStep },
  plan: QuantileBinPlan,
  codings: readonly ColumnCoding[],
): MeterStep {
  const columns = quantileCodings(codings).map((coding) => `${coding.name} ${coding.bins}`);
  const detection =
    plan.detectionSigma2 === undefined
      ? ''
      : `; candidate point masses of ${plan.detections} column${plan.detections === 1 ? '' : 's'}: counts of the ` +
        `rows at each candidate and of the rest, discrete Gaussian noise with σ² = ${String(roundDownRational(plan.detectionSigma2))}` +
        `, a level when the noisy count reaches ${plan.pointMassShare} of the noisy total`;
  return accountant.reserve(
    `quantile bin edges (${columns.join(', ')} bins): ${plan.draws} exponential-mechanism draws over a public grid ` +
      `within the bounds, ε = ${String(roundUpRational(plan.epsilonPerEdge))} each, scoring the distance to the ` +
      `target rank ⌈j·m/B⌉ of the m values that are not point masses (sensitivity 1)${detection}`,
    plan.rho,
  );
}

/**
 * The learned edges for a release's diagnostics (DP outputs: post-processing), `{ binEdges: { column:
 * edges } }`, or nothing when no coding has quantile bins (so other releases stay as they were).
 */
export function quantileEdgeDiagnostics(codings: readonly ColumnCoding[]): {
  binEdges?: Record<string, number[]>;
  pointMassesFound?: Record<string, number[]>;
} {
  const learned = quantileCodings(codings).filter((coding) => coding.quantile?.edges !== undefined);
  if (learned.length === 0) return {};
  const detected = learned.filter((coding) => coding.candidates?.accepted !== undefined);
  const found = (coding: ShapedCoding) =>
    coding.candidates!.values.filter((_, k) => coding.candidates!.accepted![k]);
  return {
    binEdges: Object.fromEntries(learned.map((coding) => [coding.name, [...coding.quantile!.edges!]])),
    ...(detected.length === 0
      ? {}
      : { pointMassesFound: Object.fromEntries(detected.map((coding) => [coding.name, found(coding)])) }),
  };
}
