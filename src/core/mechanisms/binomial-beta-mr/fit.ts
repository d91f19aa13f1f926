import type { MechanismFit } from '../types';

/** Where the McClure–Reiter Binomial–Beta synthesizer is good, from public facts, with the DIPS study's figures. */
export const binomialBetaMrFit: MechanismFit = {
  goodFor:
    'one binary column with a share near one half, under 100 rows, at ε up to 1; biased towards uniform',
  needsDelta: false,
  needsLabel: false,
  rows: { max: 100 },
  columns: { max: 1 },
  epsilon: { max: 1 },
  goals: {
    distributions: {
      strength: 1,
      why: 'draws rows from a posterior mean pulled towards uniform',
      measured: {
        figure:
          'proportion RMSE 0.083 for a share of 0.5 at 40 rows and ε = 1, but bias +0.267 for a share of 0.1 at 1,000 rows',
        table: 'one binary column',
        source: 'bench/RESULTS.md, "DIPS simulation studies 1 and 2", study 1',
      },
    },
  },
};
