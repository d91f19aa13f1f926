import type { Schema } from '../../../table/types';
import type { ParamSpec, ParamValues } from '../../types';
import { planBinnedDomain } from '../binning/binned-domain';
import { parseRational, type Rational } from '../../../rng/rational';
import { BINNING_PARAMS, BINNING_SHARE_PARAM, binningChoiceFromParams } from '../coding/binning-params';
import { DOMAIN_CELL_LIMIT, type ColumnCoding } from '../coding/column-coding';
import { formatCount } from '../../../format/format-count';

/** The attributes of a graphical model: one per schema column, its levels including the missing level. */
export interface PgmDomain {
  codings: ColumnCoding[];
  /** Level count of attribute j (bins or categories, plus one missing level). */
  sizes: number[];
  problems: string[];
  /** With quantile bins (`binning` = quantile): the share of the budget their edges spend. */
  binningShare?: Rational;
  /** With quantile bins: the detection threshold of candidate point masses (0: none). */
  pointMassShare?: number;
}

/**
 * The model's domain from the schema and parameters only (privacy rule 2): numeric columns cut on
 * their declared bounds into `bins`/`columnBins` bins, categorical columns on their categories, and a
 * missing level for every column. No full cross-tabulation is ever built, so there is no limit on its
 * size; `largestMarginal` limits the largest marginal the mechanism will measure.
 */
export function planPgmDomain(schema: Schema, params: ParamValues, n: number | undefined): PgmDomain {
  const choice = binningChoiceFromParams(params);
  const domain = planBinnedDomain(schema, choice, n, false);
  const share = params[BINNING_SHARE_PARAM.name];
  return {
    codings: domain.codings,
    sizes: domain.codings.map((coding) => coding.levels),
    problems: domain.problems,
    ...(choice.method === 'quantile'
      ? {
          binningShare: parseRational(
            typeof share === 'number' ? share : Number(BINNING_SHARE_PARAM.default),
          ),
          pointMassShare: choice.pointMassShare ?? 0,
        }
      : {}),
  };
}

/** The sentence refusing a marginal above the cell limit, or undefined when it fits. */
export function marginalLimitProblem(names: string[], cells: number, what: string): string | undefined {
  if (cells <= DOMAIN_CELL_LIMIT) return undefined;
  return (
    `${what} on ${names.map((name) => `\`${name}\``).join(' × ')} has ${formatCount(cells)} cells, more than ` +
    `the limit of ${formatCount(DOMAIN_CELL_LIMIT)}: choose fewer bins (a smaller \`bins\` or \`columnBins\`).`
  );
}

/**
 * `sampling`: how rows are drawn from the fitted model. The default, 'balanced', departs from
 * private-pgm (whose `synthetic_data` is 'round'): it rounds each group's counts without bias and
 * spreads them over the rows sorted by the columns drawn before, which lowered the mean 2- and 3-way TVD on a census-shaped
 * table (bench/RESULTS.md, census-shape); 'round' stays available for comparison with private-pgm.
 */
export const SAMPLING_PARAM: ParamSpec = {
  name: 'sampling',
  label: 'Sampling',
  type: 'enum',
  default: 'balanced',
  options: [
    { value: 'balanced', label: 'balanced: rounded counts, spread evenly' },
    { value: 'round', label: 'round: rounded counts, shuffled (private-pgm)' },
    { value: 'sample', label: 'sample: independent draws' },
  ],
  help:
    'How synthetic rows are drawn from the fitted model, one column at a time given the columns it depends on. ' +
    '"balanced" gives each group of rows its expected counts, rounded up or down at random so that they are right on ' +
    'average, and spreads them evenly over the rows sorted by the columns already drawn, so that combinations of ' +
    'columns the model holds only indirectly also come out close to the model; "round" rounds the counts as ' +
    'private-pgm does and gives them to rows at random; "sample" draws every row independently, the choice when ' +
    'the rows must be independent draws (for example to study sampling variation). All are post-processing and cost ' +
    'no budget.',
};

/** The binning parameters, shared with the histogram mechanisms. */
export const PGM_BINNING_PARAMS: ParamSpec[] = BINNING_PARAMS;
