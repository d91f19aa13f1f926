import type { MechanismFit } from '../types';

const STUDY_4 = {
  figure:
    'logistic coefficients recovered with 95 % coverage 0.91 and 0.83 at ε = e⁴ (0.33 and 0.08 at ε = e⁻¹; sequential regression 0.01 and 0.00), 5 releases combined',
  table: 'the DIPS study 4 table of 1,000 rows × 2 normal and 3 categorical columns',
  source: 'bench/RESULTS.md, "Study 4, reduced: the SLOMAG model" (modips-glom rows)',
};

/** Where MODIPS is good, from public facts, with the DIPS studies' figures. */
export const modipsFit: MechanismFit = {
  goodFor:
    'numeric columns with declared bounds (model normal), or numeric and a few categorical columns (model glom), from 20 rows, pure ε-DP; each release draws fresh parameters',
  needsDelta: false,
  needsLabel: false,
  rows: { min: 20 },
  goals: {
    distributions: {
      strength: 3,
      why: 'with model normal, a noisy mean and variance per numeric column, drawn from their posterior',
      measured: {
        figure: "the mean's RMSE 0.055 at ε = 1 and its 95 % interval covering 0.90–0.98 at every n and ε",
        table: 'one normal column of 20 to 1,000 rows',
        source: 'bench/RESULTS.md, "DIPS simulation studies 1 and 2", study 2',
      },
      params: { model: 'normal' },
    },
    'regression-inference': {
      strength: 3,
      why: 'with model glom, a normal model within each categorical cell, fresh parameters per release',
      measured: STUDY_4,
      params: { model: 'glom' },
    },
    relationships: {
      strength: 2,
      why: 'with model glom, the numeric columns stay jointly normal within each categorical cell',
      measured: STUDY_4,
      params: { model: 'glom' },
    },
  },
};
