import type { BinnedDomain } from './binned-domain';
import { formatCount } from './format-count';

/**
 * The size of a binned domain in one sentence, from the plan (public facts only):
 * "Cross-tabulation of 1,083 cells: age 19, sex 3, … (each count includes a missing-value cell)."
 * Empty when the plan has problems (check() reports those).
 */
export function describeBinnedDomain(domain: BinnedDomain, what = 'Cross-tabulation'): string[] {
  if (domain.problems.length > 0 || domain.codings.length === 0) return [];
  const perColumn = domain.codings.map((coding) => `${coding.name} ${coding.levels}`).join(', ');
  return [
    `${what} of ${formatCount(domain.domainCells)} cells: ${perColumn} (each count includes a missing-value cell).`,
  ];
}
