import type { BinnedDomain } from './binned-domain';
import { DOMAIN_CELL_LIMIT } from './column-coding';
import { formatCount } from './format-count';

/**
 * The size of a binned domain in one sentence, from the plan (public facts only):
 * "Cross-tabulation of 1,083 cells: age 19, sex 3, … (each count includes a missing-value cell)."
 * Empty when the plan has problems (check() reports those).
 */
export function describeBinnedDomain(domain: BinnedDomain, what = 'Cross-tabulation'): string[] {
  if (domain.problems.length > 0 || domain.codings.length === 0) return [];
  const perColumn = domain.codings.map((coding) => `${coding.name} ${coding.levels}`).join(', ');
  const complete = domain.codings.some((coding) => coding.complete);
  const missingNote = complete
    ? 'each count includes a missing-value cell, except for the columns that cannot be missing'
    : 'each count includes a missing-value cell';
  const lines = [`${what} of ${formatCount(domain.domainCells)} cells: ${perColumn} (${missingNote}).`];
  if (domain.scottLowered) {
    lines.push(
      `Scott's rule gives ${domain.scottLowered.scott} bins per numeric column; the default lowers that to ` +
        `${domain.scottLowered.cap} so the cross-tabulation stays within ${formatCount(DOMAIN_CELL_LIMIT)} cells. ` +
        'Set bins or columnBins to choose yourself.',
    );
  }
  return lines;
}
