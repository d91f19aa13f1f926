import type { BinnedDomain } from './binned-domain';
import { DOMAIN_CELL_LIMIT } from '../coding/column-coding';
import { quantileBinSentences } from './describe-bin-shape';
import { formatCount } from '../../../format/format-count';

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
  const integers = domain.codings.filter((coding) => coding.kind === 'integer');
  const perInteger = integers.filter((coding) => coding.bins === coding.count).map((coding) => coding.name);
  const grouped = integers
    .filter((coding) => coding.bins < coding.count)
    .map((coding) => `${coding.name} (${formatCount(coding.count)} integers in ${coding.bins} bins)`);
  if (perInteger.length > 0) {
    lines.push(`One level per whole number: ${perInteger.join(', ')}.`);
  }
  if (grouped.length > 0) {
    lines.push(
      `Bins of consecutive whole numbers, synthetic values drawn uniformly among the integers of their bin: ${grouped.join(', ')}.`,
    );
  }
  // Declared point masses and the rule inside a bin (nothing for a schema without point masses).
  lines.push(...quantileBinSentences(undefined, domain.codings));
  if (domain.scottLowered && domain.scottLowered.cap >= domain.scottLowered.scott) {
    lines.push(
      `Only whole-number columns of at most ${domain.scottLowered.cap} integers get one level per integer (the ` +
        `others follow Scott's rule), so the cross-tabulation stays within ${formatCount(DOMAIN_CELL_LIMIT)} ` +
        'cells. Set bins or columnBins to choose yourself.',
    );
  } else if (domain.scottLowered) {
    lines.push(
      `Scott's rule gives ${domain.scottLowered.scott} bins per numeric column; the default lowers that to ` +
        `${domain.scottLowered.cap} so the cross-tabulation stays within ${formatCount(DOMAIN_CELL_LIMIT)} cells. ` +
        'Set bins or columnBins to choose yourself.',
    );
  }
  return lines;
}
