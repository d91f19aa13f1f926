import { parseRational, type Rational } from '../../rng/rational';
import { BINNING_PARAMS, binningChoiceFromParams, type BinningChoice } from '../common/coding/binning-params';
import type { ParamSpec, ParamValues } from '../types';

export type ModipsModel = 'normal' | 'glom' | 'loglinear';

export const MODIPS_PARAMS: ParamSpec[] = [
  {
    name: 'model',
    label: 'Synthesis model',
    type: 'enum',
    default: 'loglinear',
    options: [
      { value: 'loglinear', label: 'Saturated log-linear (all columns, numeric ones binned)' },
      { value: 'normal', label: 'Normal (numeric columns, each on its own)' },
      { value: 'glom', label: 'General location (numeric columns normal within each categorical cell)' },
    ],
    help:
      'loglinear: noisy counts of the full cross-tabulation, then Dirichlet and multinomial draws (DIPS §5). ' +
      'normal: noisy mean and variance of each numeric column, then inverse-gamma and normal draws (DIPS §4.2). ' +
      'glom: noisy cell counts of the categorical cross-tabulation, cell sums and pooled within-cell scatter of ' +
      'the numeric columns, then Dirichlet, inverse-Wishart and normal draws (DIPS §4.3.1).',
  },
  {
    name: 'prior',
    label: 'Dirichlet prior per cell',
    type: 'number',
    default: 0.5,
    min: 0.001,
    max: 1000,
    help: 'loglinear and glom: the weight α each cell adds to its noisy count in Dirichlet(α + n*). Public; no privacy cost.',
  },
  {
    name: 'missingShare',
    label: 'Budget share for missing counts',
    type: 'number',
    default: 0.1,
    min: 0.01,
    max: 0.5,
    help:
      'normal: the share of each column’s budget spent on its count of missing values; the rest is split ' +
      'evenly between the mean and the variance, as in DIPS §4.2. glom: the share of each release’s budget ' +
      'spent on the numeric columns’ counts of missing values; the rest is split evenly between the cell ' +
      'counts, each column’s cell sums and each entry of the scatter matrix, as in DIPS §4.3.1.',
  },
  ...BINNING_PARAMS,
];

export interface ModipsSettings {
  model: ModipsModel;
  /** Exact α of the log-linear model, from the decimal the user gave. */
  prior: Rational;
  /** Exact share of a column's ε for its missing count. */
  missingShare: Rational;
  binning: BinningChoice;
}

export function modipsSettings(params: ParamValues): ModipsSettings {
  return {
    model: params.model === 'normal' ? 'normal' : params.model === 'glom' ? 'glom' : 'loglinear',
    prior: parseRational(Number(params.prior ?? 0.5)),
    missingShare: parseRational(Number(params.missingShare ?? 0.1)),
    binning: binningChoiceFromParams(params),
  };
}
