import type { ParamSpec, ParamValues } from '../types';

/** How numeric columns are cut into bins; shared by the histogram-style mechanisms. */
export interface BinningChoice {
  rule: 'scott' | 'fixed';
  /** Bins per numeric column when rule = 'fixed'. */
  fixedBins: number;
}

export const BINNING_RULE_PARAM: ParamSpec = {
  name: 'binning',
  label: 'Bins per numeric column',
  type: 'enum',
  default: 'scott',
  options: [
    { value: 'scott', label: "Scott's rule from the bounds and n" },
    { value: 'fixed', label: 'The number given in `bins`' },
  ],
  help:
    "scott: ceil(6·n^(1/3)/3.49) equal-width bins, Scott's rule with σ = (upper − lower)/6 taken from the " +
    'declared bounds, never from the data; fixed: the number given in `bins`. Integer columns never get ' +
    'more bins than there are integers in their bounds.',
};

export const FIXED_BIN_COUNT_PARAM: ParamSpec = {
  name: 'bins',
  label: 'Fixed bin count',
  type: 'integer',
  default: 10,
  min: 2,
  max: 1000,
  help: 'Equal-width bins per numeric column when binning = fixed.',
};

/** The binning parameters out of a resolved parameter set (defaults when absent). */
export function binningChoiceFromParams(params: ParamValues): BinningChoice {
  const rule = params[BINNING_RULE_PARAM.name] === 'fixed' ? 'fixed' : 'scott';
  const bins = params[FIXED_BIN_COUNT_PARAM.name];
  return { rule, fixedBins: typeof bins === 'number' ? bins : Number(FIXED_BIN_COUNT_PARAM.default) };
}
