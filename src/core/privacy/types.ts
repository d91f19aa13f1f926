import type { Neighbouring } from './query-sensitivity';

/** Privacy notions a claim can state (DESIGN.md §2). */
export type PrivacyNotion = 'pure-dp' | 'approx-dp' | 'gdp';

/**
 * Whether the stated budget is a proven upper bound on the privacy loss. "unproven" means a step of the
 * mechanism (for example a sensitivity) is not known to hold in the configuration run; the claim then
 * names the reason in `unprovenBecause` and explains it among the assumptions.
 */
export type ClaimBound = 'proven' | 'unproven';

/** How a claim builder is told that its bound is not proven: a short reason for the headline. */
export interface UnprovenBound {
  /** Short phrase for the headline, e.g. "greedy trees, depth 5". */
  unprovenBecause: string;
}

/** One composed step of a claim: what was released and what it cost. */
export interface ClaimStep {
  what: string;
  epsilon: number;
  delta?: number;
  mu?: number;
  /** zCDP cost of the step, when the budget was composed in zero-concentrated DP. */
  rho?: number;
}

/**
 * The privacy claim shown before and after a run and written into the release report.
 * Every number is rounded up from the exact value, never down (privacy rule 7).
 */
export interface PrivacyClaim {
  notion: PrivacyNotion;
  epsilon: number;
  delta: number;
  mu?: number;
  /** Total ρ when the budget was composed in zCDP; epsilon and delta are then its (ε, δ) conversion. */
  rho?: number;
  /**
   * Which datasets are neighbours (DESIGN.md §3 rule 1): 'replace-one' (one row replaced, n public) or
   * 'add-remove' (one row added or removed, n private), the run's choice.
   */
  neighbouring: Neighbouring;
  /**
   * What the guarantee implies under the other relation, as a sentence (privacy/relation-conversion.ts),
   * so a figure can be compared with one stated under the other relation.
   */
  otherRelation?: string;
  /** "proven" unless a step of the mechanism rests on an unproven bound (see `unprovenBecause`). */
  bound: ClaimBound;
  /** Present exactly when `bound` is "unproven": why, in a short phrase shown in the headline. */
  unprovenBecause?: string;
  steps: ClaimStep[];
  assumptions: string[];
  /**
   * Present when the schema's facts were learned with DP: the claim is then the sequential
   * composition of the domain steps and the mechanism's own claim, whose totals are kept here.
   */
  composedOf?: ComposedClaimParts;
}

/** The two parts of a claim on a schema learned with DP (privacy/domain-claim.ts). */
export interface ComposedClaimParts {
  /** Σ ε and Σ δ of the domain steps, rounded up. */
  domain: { epsilon: number; delta: number };
  /** The mechanism's own claim totals, as it stated them. */
  mechanism: { notion: PrivacyNotion; epsilon: number; delta: number; mu?: number; rho?: number };
}
