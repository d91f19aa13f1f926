import type { ParamSpec, ParamValues } from '../types';
import { BINNING_PARAMS, binningChoiceFromParams, type BinningChoice } from '../common/coding/binning-params';
import type { NoisyCountRepair } from '../../privacy/noisy-cell-counts';

export const NOISY_COUNT_REPAIR_PARAM: ParamSpec = {
  name: 'negatives',
  label: 'Negative noisy counts',
  type: 'enum',
  default: 'zero',
  options: [
    { value: 'zero', label: 'Set to 0' },
    { value: 'boundary-inflated', label: 'Clamp to [0, n] (boundary inflated)' },
  ],
  help:
    'How noisy counts are made legitimate before rows are drawn: zero sets negative counts to 0 (Barak et al. ' +
    '2007); boundary-inflated clamps every count to [0, n] (Liu 2016c). Post-processing: no privacy cost.',
};

export const LAPLACE_HISTOGRAM_PARAMS: ParamSpec[] = [...BINNING_PARAMS, NOISY_COUNT_REPAIR_PARAM];

export interface LaplaceHistogramSettings {
  binning: BinningChoice;
  repair: NoisyCountRepair;
}

export function laplaceHistogramSettings(params: ParamValues): LaplaceHistogramSettings {
  return {
    binning: binningChoiceFromParams(params),
    repair: params[NOISY_COUNT_REPAIR_PARAM.name] === 'boundary-inflated' ? 'boundary-inflated' : 'zero',
  };
}
