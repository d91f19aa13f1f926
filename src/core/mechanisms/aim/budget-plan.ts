import type { MeterStep } from '../../privacy/meter';
import type { Neighbouring } from '../../privacy/query-sensitivity';
import { sqrtRationalDown } from '../../privacy/round-up';
import type { ZcdpAccountant } from '../../privacy/zcdp-accountant';
import { parseRational, Rational } from '../../rng/rational';
import {
  histogramL2Squared,
  histogramRho,
  histogramSigma2,
  SELECTION_EPSILON_DIGITS,
  selectionRho,
} from '../../privacy/zcdp-costs';
import { epsilonInWords, sigmaInWords } from '../../privacy/in-words';

/** AIM's starting noise and selection parameters, exact. */
export interface AimBudgetPlan {
  rho: Rational;
  /** The run's neighbouring relation: the sensitivities below are derived under it. */
  neighbouring: Neighbouring;
  rounds: number;
  /** Share of each round's ρ spent measuring (the rest selects). */
  measureShare: Rational;
  /**
   * σ² = T·Δ₂²/(2·share·ρ): measuring costs Δ₂²/(2σ²) = share·ρ/T per marginal (T/(share·ρ) under
   * replace-one, Δ₂² = 2; half that under add/remove, Δ₂² = 1).
   */
  sigma2: Rational;
  /** ε = the largest 12-digit decimal <= √(8(1 − share)ρ/T): selecting costs ε²/8 <= (1 − share)ρ/T. */
  epsilon: Rational;
  /** ρ₀ = d·Δ₂²/(2σ²): the one-way histograms measured first. */
  oneWayRho: Rational;
}

/**
 * AIM's budget (McKenna et al. 2022, Alg. 1; private-pgm `mechanisms/aim.py`) under the run's relation:
 * T rounds share ρ; each round measures one marginal with discrete Gaussian noise of variance σ² (cost
 * Δ₂²/(2σ²), Δ₂² from the query table: 2 under replace-one, 1 under add/remove as in private-pgm, whose
 * σ² at the same cost is then ours) and selects with an exponential mechanism at ε (cost ε²/8, bounded
 * range, whatever the relation: the score's sensitivity scales the scores, not the cost). The d one-way
 * histograms are measured first at the same σ. Requires rounds >= d and 0 < share < 1.
 */
export function planAimBudget(
  rho: Rational,
  d: number,
  rounds: number,
  measureShare: number,
  neighbouring: Neighbouring = 'replace-one',
): AimBudgetPlan {
  const share = parseRational(measureShare);
  const t = Rational.of(rounds);
  const sigma2 = histogramSigma2(share.mul(rho), rounds, neighbouring);
  const epsilon = sqrtRationalDown(
    Rational.of(8).mul(Rational.ONE.sub(share)).mul(rho).div(t),
    SELECTION_EPSILON_DIGITS,
  );
  return {
    rho,
    neighbouring,
    rounds,
    measureShare: share,
    sigma2,
    epsilon,
    oneWayRho: histogramRho(sigma2, neighbouring).mul(Rational.of(d)),
  };
}

/** AIM's two steps on the run's privacy meter, and the ρ of the adaptive rounds. */
export interface AimSteps {
  /** The d one-way histograms: d draws of cost 1/σ² each. */
  oneWays: MeterStep;
  /** The adaptive rounds: each selection (ε²/8) and measurement (1/σ²) is charged here. */
  rounds: MeterStep;
  adaptive: Rational;
}

/**
 * The two reservations of an AIM run, made before its first draw: the one-way histograms (ρ₀), then
 * all the rest for the adaptive rounds, which the run spends through its own ledger (the schedule
 * below) and charges, draw by draw, to the rounds' step on the meter: the registry refuses the release
 * unless the rounds charged exactly this share. claim() and run() both call this.
 */
export function reserveAimBudget(
  accountant: Pick<ZcdpAccountant, 'reserve' | 'rhoBudget'>,
  plan: AimBudgetPlan,
  d: number,
): AimSteps {
  const oneWays = accountant.reserve(
    `one-way histograms of the ${d} columns, discrete Gaussian noise with σ = ${sigmaInWords(plan.sigma2)} on every cell`,
    plan.oneWayRho,
  );
  const adaptive = accountant.rhoBudget.sub(plan.oneWayRho);
  const rounds = accountant.reserve(
    'adaptive rounds until this share is spent, each choosing a marginal with the exponential mechanism ' +
      `(ε = ${epsilonInWords(plan.epsilon)} at first, doubled when the model stops improving; sensitivity ` +
      `${plan.neighbouring === 'add-remove' ? '' : '2 × '}the ` +
      `largest candidate weight) and measuring it with discrete Gaussian noise (σ = ${sigmaInWords(plan.sigma2)} at ` +
      'first, halved with ε); the last round spends what is left',
    adaptive,
  );
  return { oneWays, rounds, adaptive };
}

/** The cost of one round: Δ₂²/(2σ²) + ε²/8 (1/σ² + ε²/8 under replace-one). */
export function roundRho(
  sigma2: Rational,
  epsilon: Rational,
  neighbouring: Neighbouring = 'replace-one',
): Rational {
  return histogramRho(sigma2, neighbouring).add(selectionRho(epsilon));
}

/**
 * The ρ of the same AIM run under replace-one neighbours, when it was planned under add/remove
 * (privacy/relation-conversion.ts). The one-way histograms' ρ₀ doubles (Δ₂² = 1 → 2). In the rounds,
 * measuring m doubles and selecting s quadruples (score sensitivity 1 → 2, so ε-bounded-range becomes
 * 2ε-bounded-range, (2ε)²/8). Every round keeps s <= (1 − share)·(its cost): the first has
 * ε²/8 <= (1 − share)·ρ/T (ε rounded down) beside m = share·ρ/T, an anneal multiplies both by 4, and the
 * last selects with ε²/8 <= (1 − share)·remaining and measures the rest. So over the rounds' reserved
 * ρ_r, s <= (1 − share)·ρ_r and 2m + 4s = 2ρ_r + 2s <= (4 − 2·share)·ρ_r, whatever the adaptive choices.
 * Total: 2ρ₀ + (4 − 2·share)·ρ_r, an upper bound (exact when the selections' ε are not rounded).
 */
export function aimReplaceOneRho(plan: AimBudgetPlan, adaptive: Rational): Rational {
  if (plan.neighbouring !== 'add-remove') throw new RangeError('the plan is already under replace-one');
  const two = Rational.of(2);
  return two.mul(plan.oneWayRho).add(Rational.of(4).sub(two.mul(plan.measureShare)).mul(adaptive));
}

/**
 * A ρ budget reserved once on the accountant and spent step by step inside the run (a privacy filter:
 * fully adaptive composition of zCDP, each step's cost chosen from earlier outputs, never past the
 * total). Throws before spending past it.
 */
export class RhoLedger {
  private spentRho = Rational.ZERO;
  constructor(readonly total: Rational) {}

  spend(rho: Rational): void {
    const next = this.spentRho.add(rho);
    if (next.compare(this.total) > 0) throw new Error(`an adaptive round would spend past the reserved ρ`);
    this.spentRho = next;
  }

  spent(): Rational {
    return this.spentRho;
  }

  remaining(): Rational {
    return this.total.sub(this.spentRho);
  }
}

/** The final round's parameters: spend exactly `remaining`, ε from the selection share, the rest measuring. */
export function finalRound(
  remaining: Rational,
  measureShare: Rational,
  neighbouring: Neighbouring = 'replace-one',
): { sigma2: Rational; epsilon: Rational } {
  const epsilon = sqrtRationalDown(
    Rational.of(8).mul(Rational.ONE.sub(measureShare)).mul(remaining),
    SELECTION_EPSILON_DIGITS,
  );
  const measuring = remaining.sub(selectionRho(epsilon));
  // Δ₂²/(2σ²) = measuring: σ² = Δ₂²/(2·measuring), 1/measuring under replace-one.
  return { epsilon, sigma2: histogramL2Squared(neighbouring).div(Rational.of(2).mul(measuring)) };
}

/** The parameters of one round, already charged to the ledger. */
export interface AimRound {
  sigma2: Rational;
  epsilon: Rational;
  /** True for the round that spends all that was left; no round follows it. */
  last: boolean;
}

/**
 * AIM's rounds (paper Alg. 1, lines 9–20) as a schedule over a ledger holding the ρ reserved for them.
 * Each round costs 1/σ² + ε²/8 and is charged before it draws anything. When less than twice that is
 * left, the round instead spends exactly what is left (`finalRound`) and is the last. `anneal()` (the
 * model stopped improving) quarters σ² and doubles ε, so later rounds cost four times as much.
 *
 * Why the ledger can never overspend, whatever the anneal decisions: a round that is not the last
 * starts with remaining >= 2·cost, so it leaves >= cost > 0; the last spends exactly the remaining ρ
 * (its ε²/8 <= (1 − share)·remaining < remaining, the rest measures). Every round but the last costs at
 * least the first round's cost c₀ > 0 (anneal only raises it), so there are at most ρ/c₀ + 1 rounds.
 * The decisions depend only on earlier DP outputs, so how many rounds run is post-processing.
 */
export class AimRoundSchedule {
  private sigma2: Rational;
  private epsilon: Rational;
  private ended = false;
  private readonly neighbouring: Neighbouring;

  constructor(
    private readonly ledger: RhoLedger,
    start: Pick<AimBudgetPlan, 'sigma2' | 'epsilon' | 'measureShare'> & { neighbouring?: Neighbouring },
    private readonly measureShare: Rational = start.measureShare,
  ) {
    this.sigma2 = start.sigma2;
    this.epsilon = start.epsilon;
    this.neighbouring = start.neighbouring ?? 'replace-one';
  }

  get finished(): boolean {
    return this.ended;
  }

  /** The next round's σ² and ε, charged to the ledger. Throws after the last round. */
  nextRound(): AimRound {
    if (this.ended) throw new Error('AIM has no round left: the last one spent the whole share');
    const remaining = this.ledger.remaining();
    if (remaining.compare(Rational.of(2).mul(roundRho(this.sigma2, this.epsilon, this.neighbouring))) < 0) {
      ({ sigma2: this.sigma2, epsilon: this.epsilon } = finalRound(
        remaining,
        this.measureShare,
        this.neighbouring,
      ));
      this.ended = true;
    }
    this.ledger.spend(selectionRho(this.epsilon));
    this.ledger.spend(histogramRho(this.sigma2, this.neighbouring));
    return { sigma2: this.sigma2, epsilon: this.epsilon, last: this.ended };
  }

  /** σ ← σ/2 and ε ← 2ε for the rounds after this one. */
  anneal(): void {
    this.sigma2 = this.sigma2.div(Rational.of(4));
    this.epsilon = this.epsilon.mul(Rational.of(2));
  }
}

/**
 * The work bound of one refit: mirror descent runs at most AIM_REFIT_WORK / (model cells) iterations
 * (never more than maxIters, never fewer than AIM_MIN_REFIT_ITERATIONS), so a round's fit costs about
 * the same whatever ε lets into the model; the fit the rows are drawn from gets
 * AIM_FINAL_FIT_WORK_SHARES times that work. 20,000,000 keeps the 1,000 iterations of maxIters' default
 * for models up to 20,000 cells (AIM's model at ε ≤ 1 on kernlab's income, 8,993 × 14: 4,040 cells) and
 * gives 200 iterations at the default model size's 100,000 cells. A quarter of that (5,000,000) left the
 * per-round fits of the census table's 1 MB model under-converged: 0.0007–0.0016 more mean 2-way TVD at
 * ε = 1, 5 trials per relation (bench/RESULTS.md, "AIM's work per refit on the census table").
 * Iteration counts are post-processing of the measurements: the claim does not depend on them.
 */
export const AIM_REFIT_WORK = 20_000_000;
export const AIM_MIN_REFIT_ITERATIONS = 20;
export const AIM_FINAL_FIT_WORK_SHARES = 10;

/** Iterations of one refit on a model of `modelCells` cells: min(maxIters, max(20, ⌊work/cells⌋)). */
export function refitIterations(maxIters: number, modelCells: number, final: boolean): number {
  const work = AIM_REFIT_WORK * (final ? AIM_FINAL_FIT_WORK_SHARES : 1);
  return Math.min(maxIters, Math.max(AIM_MIN_REFIT_ITERATIONS, Math.floor(work / Math.max(1, modelCells))));
}
