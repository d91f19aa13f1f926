import type { ParamSpec, ParamValues } from '../types';

/** How numeric columns are cut into bins; shared by the histogram-style mechanisms. */
export interface BinningChoice {
  rule: 'scott' | 'fixed';
  /** Bins per numeric column when rule = 'fixed'. */
  fixedBins: number;
}

/** `bins`: 0 for Scott's rule from public inputs, otherwise the bin count of every numeric column. */
export const BIN_COUNT_PARAM: ParamSpec = {
  name: 'bins',
  label: 'Bins per numeric column',
  type: 'integer',
  default: 0,
  min: 0,
  max: 1000,
  help:
    "0 (the default) applies Scott's rule with σ = (upper − lower)/6 taken from the declared bounds, never " +
    'from the data: ceil(6·n^(1/3)/3.49) equal-width bins, 18 for n = 1,000. Any other value is the number ' +
    'of equal-width bins for every numeric column. Integer columns never get more bins than there are ' +
    'integers in their bounds.',
};

/** The binning choice out of a resolved parameter set (Scott's rule when `bins` is 0 or absent). */
export function binningChoiceFromParams(params: ParamValues): BinningChoice {
  const bins = params[BIN_COUNT_PARAM.name];
  return typeof bins === 'number' && bins > 0
    ? { rule: 'fixed', fixedBins: bins }
    : { rule: 'scott', fixedBins: 0 };
}
