/** Privacy notions a claim can state (DESIGN.md §2). */
export type PrivacyNotion = 'pure-dp' | 'approx-dp' | 'gdp';

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
  neighbouring: 'replace-one';
  steps: ClaimStep[];
  assumptions: string[];
}
