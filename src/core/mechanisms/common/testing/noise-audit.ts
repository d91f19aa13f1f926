import type { Neighbouring } from '../../../privacy/query-sensitivity';
import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../../rng/seeded-rng';
import { chiSquareGoodnessOfFit } from '../../../stats/chi-square-goodness-of-fit';
import { countDraws, powerAgainst, type IntegerPmf } from '../../../rng/testing/distribution-fit';
import type { Schema, Table } from '../../../table/types';
import type { Mechanism, ParamValues, Release } from '../../types';

/**
 * Run-path noise audit: does the noise a mechanism's `run` actually draws match the ε it reserves?
 *
 * Many seeded `run` calls on a small fixed table; one released statistic per synthetic dataset
 * (e.g. the number of synthetic rows in one cell); Pearson's chi-square test of their counts against
 * the exact distribution the claim implies, computed independently of the mechanism's code, at
 * α = 10⁻⁶. A correct mechanism passes with probability 1 − 10⁻⁶, and the seeds are fixed, so
 * the outcome is reproducible.
 *
 * Power: each `broken` entry names a bug (no noise, total ε per release, Δ = 1, …) by the budget
 * at which a correct run draws exactly what the broken code would. The audit shows, first by the
 * noncentral chi-square (powerAgainst: mean − 5 sd of X² above the critical value), then by running
 * the mechanism at that budget, that the same test rejects it.
 *
 * Use, in `<id>/noise-audit.test.ts`: `describeNoiseAudit(myAudit)`. The README says more.
 */

/** The budget of one audited configuration. */
export interface AuditBudget {
  /** Total ε given to the run. */
  epsilon: number;
  /** Number of synthetic datasets M. */
  releases: number;
  /** δ given to the run (0 when absent; zCDP mechanisms need δ > 0). */
  delta?: number;
}

export interface NoiseAudit {
  mechanism: Mechanism;
  table: Table;
  schema: Schema;
  params?: ParamValues;
  /** The claimed configuration. */
  budget: AuditBudget;
  /**
   * The released statistic of one synthetic dataset. The M datasets of a run must be independent
   * given the data (fresh noise per release, or independent draws), so each counts as one
   * observation.
   */
  statistic?: (dataset: Table) => number;
  /**
   * Instead of `statistic`, for mechanisms whose released tables have no closed-form distribution
   * (a graphical model fitted to noisy marginals): the observations of one run, one per release,
   * e.g. the noise of a measurement that a spy on the noise step recorded during `run`.
   */
  observeRun?: (release: Release) => number[];
  /** The exact distribution of the statistic under a correct run at this budget. */
  expected: (budget: AuditBudget) => IntegerPmf;
  /** Bugs, each as the budget at which a correct run draws what the bug draws. At least one. */
  broken: Record<string, AuditBudget>;
  /** What is observed, when a mechanism has more than one audit (e.g. "one-way histogram"). */
  what?: string;
  /** The runs' neighbouring relation (default replace-one): the claim's sensitivities are under it. */
  neighbouring?: Neighbouring;
  /** Number of runs of the claimed configuration (default 4,000; observations = runs·M). */
  runs?: number;
  seed?: number;
}

/** Level of every audit test: a correct mechanism fails with probability 10⁻⁶. */
export const AUDIT_ALPHA = 1e-6;

const DEFAULT_RUNS = 4_000;

/** The statistic of every dataset of `runs` seeded runs at `budget`, counted per value of `pmf`. */
export async function observeStatistic(
  audit: NoiseAudit,
  budget: AuditBudget,
  runs: number,
  seed: number,
  pmf: IntegerPmf,
): Promise<Float64Array> {
  const rng = new SeededRng(seed);
  const n = audit.table.nRows;
  const values: number[] = [];
  for (let run = 0; run < runs; run++) {
    const release = await audit.mechanism.run(audit.table, audit.schema, audit.params ?? {}, {
      n,
      schema: audit.schema,
      epsilon: String(budget.epsilon),
      delta: budget.delta ?? 0,
      releases: budget.releases,
      seeded: true,
      rng,
      progress: () => {},
      signal: { aborted: false },
      ...(audit.neighbouring === undefined ? {} : { neighbouring: audit.neighbouring }),
    });
    const observed =
      audit.observeRun?.(release) ?? release.datasets.map((dataset) => audit.statistic!(dataset));
    if (observed.length !== budget.releases)
      throw new Error(`a run gave ${observed.length} observations for ${budget.releases} releases`);
    values.push(...observed);
  }
  let next = 0;
  return countDraws(() => values[next++]!, values.length, pmf);
}

function describePmf(pmf: IntegerPmf): string {
  return Array.from(pmf.probabilities, (p, i) => `${pmf.lo + i}:${p.toFixed(4)}`).join(' ');
}

/**
 * Registers the audit as Vitest tests: the claimed configuration fits its exact distribution;
 * for every broken variant, the test has power (computed) and rejects the variant's own runs.
 */
export function describeNoiseAudit(audit: NoiseAudit): void {
  const runs = audit.runs ?? DEFAULT_RUNS;
  const seed = audit.seed ?? 20_261_123;
  const observations = runs * audit.budget.releases;
  const truth = audit.expected(audit.budget);

  const about = audit.what === undefined ? '' : `, ${audit.what}`;
  const relation = audit.neighbouring === undefined ? '' : `, ${audit.neighbouring}`;
  describe(`${audit.mechanism.id}: run-path noise audit at ε = ${audit.budget.epsilon}, M = ${audit.budget.releases}${relation}${about}`, () => {
    it('the released statistic follows the exact distribution the claim implies (chi-square, α = 1e-6)', async () => {
      const observed = await observeStatistic(audit, audit.budget, runs, seed, truth);
      const fit = chiSquareGoodnessOfFit(observed, truth.probabilities);
      expect(
        fit.pValue,
        `X² = ${fit.statistic.toFixed(1)} on ${fit.degreesOfFreedom} df; observed ${Array.from(observed).join(',')}; expected ${describePmf(truth)}`,
      ).toBeGreaterThan(AUDIT_ALPHA);
    });

    for (const [bug, budget] of Object.entries(audit.broken)) {
      it(`rejects ${bug}: computed power, then the runs themselves`, async () => {
        const wrong = audit.expected(budget);
        const power = powerAgainst(truth, wrong, observations, AUDIT_ALPHA);
        expect(
          power.fiveSigmaLowerStatistic,
          `noncentrality ${power.noncentrality.toFixed(1)} on ${power.degreesOfFreedom} df; critical ${power.critical.toFixed(1)}`,
        ).toBeGreaterThan(power.critical);
        // The broken variant's runs: as many observations as the audit itself uses.
        const brokenRuns = Math.ceil(observations / budget.releases);
        const observed = await observeStatistic(audit, budget, brokenRuns, seed + 1, truth);
        const fit = chiSquareGoodnessOfFit(observed, truth.probabilities);
        expect(fit.pValue, `X² = ${fit.statistic.toFixed(1)} on ${fit.degreesOfFreedom} df`).toBeLessThan(
          AUDIT_ALPHA,
        );
      });
    }
  });
}
