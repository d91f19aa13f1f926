import type { ParamSpec, ParamValues } from '../types';

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
  return typeof bins === 'number' && bins > 0
    ? { rule: 'fixed', fixedBins: bins, ...perColumn }
    : { rule: 'scott', fixedBins: 0, ...perColumn };
}

/** Binning parameters in form order, for the mechanisms that bin numeric columns. */
export const BINNING_PARAMS: ParamSpec[] = [BIN_COUNT_PARAM, COLUMN_BINS_PARAM];
