import type { ParamSpec, ParamValues } from '../types';

/** How a synthetic row is drawn from its mixture component. */
export type ClustmixSpread = 'gaussian' | 'centroid';

export const CLUSTMIX_PARAMS: ParamSpec[] = [
  {
    name: 'label',
    label: 'Label column',
    type: 'text',
    default: '',
    help:
      'Optional categorical column to keep as a class: clusters are formed within each class (its levels and ' +
      'missing), every synthetic row takes its cluster’s class, and the adapt step needs it. Empty = none.',
  },
  {
    name: 'clusters',
    label: 'Clusters K',
    type: 'integer',
    default: 0,
    min: 0,
    max: 1000,
    help:
      'Number of clusters; 0 = ⌊n/(2·l_min)⌋ within [classes, 500]. With a label, K is rounded down to a ' +
      'multiple of the number of classes (at least one per class).',
  },
  {
    name: 'sigmaMax',
    label: 'Largest noise SD of a cluster mean',
    type: 'number',
    default: 0.1,
    min: 0.001,
    max: 1,
    help:
      'Clusters are kept when their noisy size is at least l_min, the size at which the noise SD of one ' +
      'coordinate of the mean (on the 0–1 scale) equals this value.',
  },
  {
    name: 'iterations',
    label: 'Lloyd iterations T',
    type: 'integer',
    default: 4,
    min: 0,
    max: 50,
    help: 'Noisy k-means iterations before the final release; 0 = centroids stay where they were drawn.',
  },
  {
    name: 'clip',
    label: 'Clipping radius per column',
    type: 'number',
    default: 0.2,
    min: 0.01,
    max: 1,
    help:
      'A row’s residual to its centroid is clipped to norm C = clip·√p (p encoded columns; each column ' +
      'spans distance 1). Smaller C means less noise and more bias for far rows.',
  },
  {
    name: 'approxShare',
    label: 'Share of ρ for the iterations',
    type: 'number',
    default: 0.3,
    min: 0,
    max: 0.9,
    help: 'Fraction of the zCDP budget ρ spent on the T iterations (evenly); with T = 0 it goes to the final release.',
  },
  {
    name: 'adaptShare',
    label: 'Share of ρ for the adapt step',
    type: 'number',
    default: 0,
    min: 0,
    max: 0.9,
    help:
      'Fraction of ρ spent on the random-feature moments of the adapt step; when the step does not run (no ' +
      'label, α = 1, no steps or 0, the default: it lowered the TSTR AUC in 11 of 12 cells of the bench) it ' +
      'goes to the final release. 0.2 was the earlier default.',
  },
  {
    name: 'alpha',
    label: 'Adapt: weight of staying at the centroids α',
    type: 'number',
    default: 0.5,
    min: 0,
    max: 1,
    help: 'α in eq. 5: 1 keeps the centroids, 0 only fits the kernel ridge regression loss.',
  },
  {
    name: 'features',
    label: 'Adapt: random Fourier frequencies F',
    type: 'integer',
    default: 32,
    min: 4,
    max: 256,
    help: 'F frequencies give 2F random features (cos and sin) approximating a Gaussian kernel.',
  },
  {
    name: 'lengthScale',
    label: 'Adapt: kernel length scale',
    type: 'number',
    default: 0.5,
    min: 0.01,
    max: 10,
    help: 'Gaussian kernel length scale ℓ = lengthScale·√p in the encoded space.',
  },
  {
    name: 'ridge',
    label: 'Adapt: ridge λ',
    type: 'number',
    default: 0.001,
    min: 1e-8,
    max: 10,
    help: 'Regularisation λ of the kernel ridge regression on the cluster centres.',
  },
  {
    name: 'kipSteps',
    label: 'Adapt: optimisation steps',
    type: 'integer',
    default: 200,
    min: 0,
    max: 5000,
    help: 'Adam steps minimising eq. 5 over the cluster centres; 0 = no adapt step.',
  },
  {
    name: 'spread',
    label: 'Spread around the centre',
    type: 'enum',
    default: 'gaussian',
    options: [
      { value: 'gaussian', label: 'Gaussian (cluster spread)' },
      { value: 'centroid', label: 'Centre only' },
    ],
    help: 'Numeric values are drawn from an isotropic Gaussian around the cluster centre, or set to the centre.',
  },
];

/** Resolved parameters, typed. */
export interface ClustmixSettings {
  label: string;
  clusters: number;
  sigmaMax: number;
  iterations: number;
  clip: number;
  approxShare: number;
  adaptShare: number;
  alpha: number;
  features: number;
  lengthScale: number;
  ridge: number;
  kipSteps: number;
  spread: ClustmixSpread;
}

function defaultOf(name: string): number | string {
  return CLUSTMIX_PARAMS.find((spec) => spec.name === name)!.default as number | string;
}

/** The settings from resolved parameter values (defaults where absent). */
export function readClustmixSettings(params: ParamValues): ClustmixSettings {
  const num = (name: string): number => Number(params[name] ?? defaultOf(name));
  return {
    label: String(params.label ?? '').trim(),
    clusters: num('clusters'),
    sigmaMax: num('sigmaMax'),
    iterations: num('iterations'),
    clip: num('clip'),
    approxShare: num('approxShare'),
    adaptShare: num('adaptShare'),
    alpha: num('alpha'),
    features: num('features'),
    lengthScale: num('lengthScale'),
    ridge: num('ridge'),
    kipSteps: num('kipSteps'),
    spread: params.spread === 'centroid' ? 'centroid' : 'gaussian',
  };
}
