import type { ParamSpec, ParamValues } from '../../types';

/** How numeric columns are cut into bins; shared by the histogram-style mechanisms. */
export interface BinningChoice {
  rule: 'scott' | 'fixed';
  /** Bins per numeric column when rule = 'fixed'. */
  fixedBins: number;
  /** Bin counts of named columns, overriding the rule for them (from `columnBins`). */
  perColumn: Record<string, number>;
  /** Why `columnBins` could not be read, one sentence each (reported by `check`). */
  problems: string[];
  /**
   * With rule 'scott': the most bins a column following the rule gets. Set by planBinnedDomain when
   * Scott's counts would make the cross-tabulation exceed the cell limit (from n and the schema only).
   */
  scottCap?: number;
  /**
   * 'equal-width' (absent: the default) or 'quantile': bins whose edges a DP step learns at run time
   * (quantile-bins.ts); the number of bins is the same either way.
   */
  method?: 'equal-width' | 'quantile';
  /** With quantile bins: the share of rows a candidate point mass needs (noisy) to get its level; 0: no detection. */
  pointMassShare?: number;
}

/** Largest bin count of one column, as for `bins`. */
export const MAX_BINS_PER_COLUMN = 1000;

/** `bins`: 0 for Scott's rule from public inputs, otherwise the bin count of every numeric column. */
export const BIN_COUNT_PARAM: ParamSpec = {
  name: 'bins',
  label: 'Bins per numeric column',
  type: 'integer',
  default: 0,
  min: 0,
  max: MAX_BINS_PER_COLUMN,
  help:
    "0 (the default) applies Scott's rule with σ = (upper − lower)/6 taken from the declared bounds, never " +
    'from the data: ceil(6·n^(1/3)/3.49) equal-width bins, 18 for n = 1,000, lowered evenly when the ' +
    'cross-tabulation would pass 20,000,000 cells. Any other value is the number ' +
    'of equal-width bins for every numeric column not named in the per-column list. Integer columns never ' +
    'get more bins than there are integers in their bounds, and their bins hold whole integers; with 0, an ' +
    'integer column whose bounds hold at most 256 integers gets one level per integer.',
};

/** `columnBins`: "age=10, income=25" sets the bin count of those columns. */
export const COLUMN_BINS_PARAM: ParamSpec = {
  name: 'columnBins',
  label: 'Bins for named numeric columns',
  type: 'text',
  default: '',
  help:
    'Comma-separated name=count pairs, e.g. "age=10, income=25": the number of equal-width bins of each named ' +
    `numeric column (1 to ${MAX_BINS_PER_COLUMN}), overriding the bins above. A public choice like the ` +
    'bounds: pick it from what you know about the variable, not from the data. Empty: every column follows ' +
    'the bins above.',
};

/** Reads "age=10, income=25" (the text after the last "=" of an entry is the count). */
export function parseColumnBins(text: string): Pick<BinningChoice, 'perColumn' | 'problems'> {
  const perColumn: Record<string, number> = {};
  const problems: string[] = [];
  for (const entry of text.split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    const eq = entry.lastIndexOf('=');
    const name = eq > 0 ? entry.slice(0, eq).trim() : '';
    const countText = eq > 0 ? entry.slice(eq + 1).trim() : '';
    const count = Number(countText);
    if (name === '' || !/^\d+$/.test(countText) || count < 1 || count > MAX_BINS_PER_COLUMN) {
      problems.push(
        `columnBins entry "${entry}" must be name=count with a whole count from 1 to ${MAX_BINS_PER_COLUMN}.`,
      );
    } else if (name in perColumn) {
      problems.push(`columnBins names \`${name}\` twice.`);
    } else {
      perColumn[name] = count;
    }
  }
  return { perColumn, problems };
}

/** The binning choice out of a resolved parameter set (Scott's rule when `bins` is 0 or absent). */
export function binningChoiceFromParams(params: ParamValues): BinningChoice {
  const bins = params[BIN_COUNT_PARAM.name];
  const columnBins = params[COLUMN_BINS_PARAM.name];
  const perColumn = parseColumnBins(typeof columnBins === 'string' ? columnBins : '');
  // Only a quantile choice adds a field, so equal-width choices stay exactly as they were.
  const share = params[POINT_MASS_SHARE_PARAM.name];
  const method =
    params[BINNING_METHOD_PARAM.name] === 'quantile'
      ? {
          method: 'quantile' as const,
          pointMassShare: typeof share === 'number' ? share : Number(POINT_MASS_SHARE_PARAM.default),
        }
      : {};
  return typeof bins === 'number' && bins > 0
    ? { rule: 'fixed', fixedBins: bins, ...perColumn, ...method }
    : { rule: 'scott', fixedBins: 0, ...perColumn, ...method };
}

/** `binning`: equal-width bins (the default) or bins at DP quantiles learned from a share of the budget. */
export const BINNING_METHOD_PARAM: ParamSpec = {
  name: 'binning',
  label: 'Bin edges',
  type: 'enum',
  default: 'equal-width',
  options: [
    { value: 'equal-width', label: 'equal width over the bounds' },
    { value: 'quantile', label: 'quantiles of the data, learned with DP' },
  ],
  help:
    '"equal-width" cuts each numeric column into bins of equal width over its bounds. "quantile" puts the edges of ' +
    'the same number of bins near the quantiles j/B of the values (B bins, point masses left out), each edge chosen by ' +
    'the exponential mechanism over a public grid within the bounds, paid from the share of the budget below; whole-' +
    'number columns with one level per integer keep it. Either way a synthetic value is drawn uniformly within its ' +
    'bin (among the whole numbers of the bin that are not point masses, for an integer column).',
};

/** `binningShare`: the share of the budget the quantile bin edges spend. */
export const BINNING_SHARE_PARAM: ParamSpec = {
  name: 'binningShare',
  label: 'Budget share of the bin edges',
  type: 'number',
  default: 0.1,
  min: 0.01,
  max: 0.5,
  help:
    'With quantile bins: the share of the budget spent on learning the bin edges (the rest goes to the mechanism). ' +
    'Unused with equal-width bins.',
};

/** `pointMassShare`: the detection threshold for candidate point masses under quantile bins. */
export const POINT_MASS_SHARE_PARAM: ParamSpec = {
  name: 'pointMassShare',
  label: 'Point masses found with DP: least share of rows',
  type: 'number',
  default: 0.1,
  min: 0,
  max: 1,
  help:
    'With quantile bins: the candidate values 0 (when inside the bounds) and the two bounds each get a level of ' +
    'their own, and a value is synthesized there exactly when its noisy count (paid from the bin-edge share) ' +
    'reaches this share of the noisy row count; otherwise its level stays closed and its values stay in their ' +
    'bin. 0: no candidates, only the point masses the schema declares.',
};

/** The quantile-binning parameters, for the mechanisms that run the binning step. */
export const QUANTILE_BINNING_PARAMS: ParamSpec[] = [
  BINNING_METHOD_PARAM,
  BINNING_SHARE_PARAM,
  POINT_MASS_SHARE_PARAM,
];

/** Binning parameters in form order, for the mechanisms that bin numeric columns. */
export const BINNING_PARAMS: ParamSpec[] = [BIN_COUNT_PARAM, COLUMN_BINS_PARAM];
