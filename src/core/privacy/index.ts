export type { ClaimBound, ClaimStep, PrivacyClaim, PrivacyNotion, UnprovenBound } from './types';
export { claimBound, unprovenBoundPhrase } from './claim-bound';
export { BudgetError, parseBudget, type PrivacyBudget } from './budget';
export { isSpentBudgetError, SpentBudgetError } from './spent-budget-error';
export {
  Accountant,
  OverspendError,
  type AccountedStep,
  type BudgetReserver,
  type ParallelPart,
  type PartitionKind,
} from './accountant';
export { ZcdpAccountant, type ZcdpStep } from './zcdp-accountant';
export {
  composeGdp,
  gaussianMu,
  gdpClaim,
  gdpDelta,
  gdpEpsilonForDelta,
  gdpMuForBudget,
  type GdpStep,
} from './gdp';
export {
  composeZcdp,
  zcdpRhoDiscreteGaussian,
  zcdpRhoForBudget,
  zcdpRhoFromPureEpsilon,
  zcdpRhoFromSquaredSensitivity,
  zcdpToApproxDp,
} from './zcdp';
export {
  DEFAULT_SIGNIFICANT_DIGITS,
  roundDown,
  roundDownRational,
  roundUp,
  roundUpRational,
  roundUpSqrtRational,
} from './round-up';
export { formatRational } from './format-rational';
export { exponentialUpperBound } from './exp-upper-bound';
export { inferredFields, schemaAssumptions, SEEDED_ASSUMPTION, standardAssumptions } from './assumptions';
export {
  buildReleaseReport,
  type ReleaseReport,
  type ReleaseReportInput,
  type CumulativeBudget,
  WITHHELD,
  type ReportedMechanism,
  type ReportParamValue,
} from './report';
