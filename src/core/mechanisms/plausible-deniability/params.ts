import { BINNING_PARAMS } from '../common/coding/binning-params';
import type { ParamSpec, ParamValues } from '../types';

/** The parameters of the plausible-deniability mechanism, in form order. */
export const PLAUSIBLE_DENIABILITY_PARAMS: ParamSpec[] = [
  {
    name: 'structureShare',
    label: 'Share of rows for the structure',
    type: 'number',
    default: 0.05,
    min: 0.05,
    max: 0.45,
    help:
      'Share of the rows (drawn at random) that learn the network structure (its noisy entropies). The ' +
      'part sizes are floors of n × share, so they are public. The structure needs fewer rows than the ' +
      'conditional tables, whose cells each need rows.',
  },
  {
    name: 'parameterShare',
    label: 'Share of rows for the parameters',
    type: 'number',
    default: 0.45,
    min: 0.05,
    max: 0.45,
    help:
      'Share of the rows that learn the conditional tables. The remaining rows are the seeds; a row is in ' +
      'one part only, so each part is private on its own and the three costs are not added.',
  },
  {
    name: 'k',
    label: 'Plausible seeds k',
    type: 'integer',
    default: 0,
    min: 0,
    max: 1e9,
    help:
      'A seed-based row is released only if about k seeds (the threshold gets exact discrete Laplace noise) ' +
      'could have produced it. 0 (the default) takes the smallest k whose δ fits the budget over all draws.',
  },
  {
    name: 'omegaMin',
    label: 'Fewest resampled attributes',
    type: 'integer',
    default: 0,
    min: 0,
    max: 1000,
    help:
      'Each seed-based row keeps the first m − ω attributes of the seed (in the network order) and draws ' +
      'the other ω from the network; ω is uniform between this and the most. 0: m − 2 (at least 1), the ' +
      'paper’s ω ∈ [m − 2, m]: keeping more of the seed favours common seeds (those that pass the test).',
  },
  {
    name: 'omegaMax',
    label: 'Most resampled attributes',
    type: 'integer',
    default: 0,
    min: 0,
    max: 1000,
    help: 'The largest ω; 0: m, every attribute (a row from the network alone, tested against every seed).',
  },
  {
    name: 'maxParents',
    label: 'Most parents per attribute',
    type: 'integer',
    default: 3,
    min: 0,
    max: 8,
    help: 'The largest parent set an attribute may get in the network.',
  },
  {
    name: 'maxCost',
    label: 'Largest parent configuration count',
    type: 'integer',
    default: 0,
    min: 0,
    max: 1e7,
    help:
      "The most joint levels an attribute's parents may have (the rows of its conditional table). 0: " +
      '⌊n_P/(|x_i|·max(20, 8m/ε_M))⌋ for attribute i, kept within 1 and 100,000, so that cells keep ' +
      'enough rows beside their noise.',
  },
  {
    name: 'prior',
    label: 'Dirichlet prior',
    type: 'number',
    default: 0.1,
    min: 0.01,
    max: 100,
    help:
      'Pseudo-count added to every noisy cell before each release draws its conditional probabilities. Tables ' +
      'of many cells (wide columns under several parents) are pulled toward uniform by a large one.',
  },
  {
    name: 'modelEpsilon',
    label: 'ε of the network',
    type: 'number',
    default: 0,
    min: 0,
    max: 1e6,
    help:
      'ε spent on the structure and, separately, on the parameters (different rows, so not added). 0: the ' +
      'whole ε. At most ε.',
  },
  ...BINNING_PARAMS,
];

/** The mechanism's own settings out of resolved parameters (binning is read by the domain plan). */
export interface PdSettings {
  structureShare: number;
  parameterShare: number;
  k: number;
  omegaMin: number;
  omegaMax: number;
  maxParents: number;
  maxCost: number;
  prior: number;
  modelEpsilon: number;
}

function numberParam(params: ParamValues, name: string): number {
  const value = params[name];
  const spec = PLAUSIBLE_DENIABILITY_PARAMS.find((p) => p.name === name)!;
  return typeof value === 'number' ? value : (spec.default as number);
}

export function pdSettings(params: ParamValues): PdSettings {
  return {
    structureShare: numberParam(params, 'structureShare'),
    parameterShare: numberParam(params, 'parameterShare'),
    k: numberParam(params, 'k'),
    omegaMin: numberParam(params, 'omegaMin'),
    omegaMax: numberParam(params, 'omegaMax'),
    maxParents: numberParam(params, 'maxParents'),
    maxCost: numberParam(params, 'maxCost'),
    prior: numberParam(params, 'prior'),
    modelEpsilon: numberParam(params, 'modelEpsilon'),
  };
}
