import type { MechanismFit } from '../types';

/** Where the smoothed histogram is good, from public facts, with the DIPS study's figures. */
export const smoothedHistogramFit: MechanismFit = {
  goodFor:
    'one or two small categorical columns under 100 rows at ε up to 1; biased towards uniform and does not improve with n',
  needsDelta: false,
  needsLabel: false,
  rows: { max: 100 },
  columns: { max: 2 },
  epsilon: { max: 1 },
  goals: {
    distributions: {
      strength: 1,
      why: 'shrinks every proportion towards uniform',
      measured: {
        figure:
          'proportion RMSE 0.096 (Laplace histogram 0.190) for a share of 0.5 at ε = e⁻⁴ and 40 rows, but bias +0.267 for a share of 0.1 at ε = 1 and 1,000 rows',
        table: 'one binary column',
        source: 'bench/RESULTS.md, "DIPS simulation studies 1 and 2", study 1',
      },
    },
  },
};
