import type { Schema } from '../../table/types';
import type { ParamSpec, ParamValues } from '../types';

/** rpart's "unlimited" depth: maxdepth cannot exceed 30 (rpart.control). */
export const UNLIMITED_TREE_DEPTH = 30;

/** rpart.control defaults, which the paper's trees used apart from the depth: minsplit 20, minbucket round(20/3) = 7. */
export const PMSE_TREE_MIN_SPLIT = 20;
export const PMSE_TREE_MIN_BUCKET = 7;

/** CART settings of the propensity model inside u(X, θ) (rpart.control meaning). */
export interface PmseTreeSettings {
  maxDepth: number;
  minSplit: number;
  minBucket: number;
  cp: number;
}

/**
 * The greedy propensity trees of u(X, θ) (depth 2, 5, unlimited): rpart with the paper's settings
 * (minsplit 20, minbucket 7, the chosen cp). Their Δu is not proven: with cp > 0 or minbucket > 1 the
 * set of allowed splits depends on the data, and one moved row can switch a split on or off and change
 * u by about cp/8 (cp·n/8 times 1/n; test in sensitivity.test.ts). rpart also applies a split at the
 * midpoint of two neighbouring values, which for values one ulp apart can round onto the lower value,
 * so the partition applied need not be the one searched; these trees are unproven anyway.
 */
export function greedyTreeSettings(settings: Pick<PmseSettings, 'treeDepth' | 'cp'>): PmseTreeSettings {
  return {
    maxDepth: settings.treeDepth,
    minSplit: PMSE_TREE_MIN_SPLIT,
    minBucket: PMSE_TREE_MIN_BUCKET,
    cp: settings.cp,
  };
}

/** G of the grid-tree quality: splits at the synthetic values of ranks round(g·(n − 1)/G), g = 0 … G. */
export const GRID_TREE_SIZE = 32;

/** The `treeDepth` value of the exhaustive depth-2 tree on the synthetic-quantile grid. */
export const GRID_TREE_DEPTH_VALUE = '2-grid';

/**
 * The quality function u(X, θ) of a run, as plain data (structured-clone friendly):
 * - `grid-tree`: the best depth-2 tree on a grid of synthetic quantiles (grid-tree-quality.ts);
 * - `exhaustive-stump` (depth 1): the best single split, every synthetic value a grid edge
 *   (grid-tree-quality.ts at depth 1), which is the best split over every threshold;
 * - `greedy-tree`: an rpart tree grown greedily with cp pruning (depth 2, 5, unlimited).
 */
export type PmseQuality =
  | { kind: 'grid-tree'; depth: 2; gridSize: number }
  | { kind: 'exhaustive-stump' }
  | { kind: 'greedy-tree'; tree: PmseTreeSettings };

/** The quality function the settings select. */
export function pmseQualityOf(
  settings: Pick<PmseSettings, 'treeDepthLabel' | 'treeDepth' | 'cp'>,
): PmseQuality {
  if (settings.treeDepthLabel === GRID_TREE_DEPTH_VALUE) {
    return { kind: 'grid-tree', depth: 2, gridSize: GRID_TREE_SIZE };
  }
  if (settings.treeDepth === 1) return { kind: 'exhaustive-stump' };
  return { kind: 'greedy-tree', tree: greedyTreeSettings(settings) };
}

/**
 * Whether Δu = 1/(2n) is proven for this quality function: a maximum over partitions fixed before
 * the real data are read (the grid tree, the exhaustive stump; README, "Quality functions"). Greedy
 * cp-pruned trees are not.
 */
export function isProvenQuality(quality: PmseQuality): boolean {
  return quality.kind !== 'greedy-tree';
}

/** Standard deviation of the per-chain jitter around the neutral starting point (standardised units). */
export const START_JITTER_SD = 0.5;

/** Largest number of points kept per trace (the trace is thinned evenly). */
export const TRACE_POINT_LIMIT = 1000;

export const PMSE_PARAMS: ParamSpec[] = [
  {
    name: 'columnOrder',
    label: 'Column order',
    type: 'text',
    default: '',
    help:
      'Comma-separated column names in the order the sequential model draws them; empty = schema order. ' +
      'Each column is modelled given the earlier ones: numeric ~ Normal(linear in earlier columns, σ²), ' +
      'categorical ~ multinomial logit. Parameters: numeric column with design width p (1 + earlier features) ' +
      'has p + 1, a categorical one with K levels (K − 1)·p, a missing flag p more; two numeric columns → 5.',
  },
  {
    name: 'missingColumns',
    label: 'Columns that may be missing',
    type: 'text',
    default: '',
    help:
      'Comma-separated names of columns declared able to hold missing values (public knowledge, not read ' +
      'from the data); each gets a modelled missing flag. Missing values in other columns are encoded as the ' +
      'column centre for the pMSE and never synthesised.',
  },
  {
    name: 'treeDepth',
    label: 'pMSE tree depth',
    type: 'enum',
    default: GRID_TREE_DEPTH_VALUE,
    options: [
      {
        value: GRID_TREE_DEPTH_VALUE,
        label:
          '2 on a grid — proven sensitivity (best depth-2 tree, splits at 33 synthetic quantiles per column)',
      },
      { value: '1', label: '1 — proven sensitivity (best split over all thresholds)' },
      { value: '2', label: '2' },
      { value: '5', label: '5' },
      { value: 'unlimited', label: 'unlimited (rpart maximum, 30)' },
    ],
    help:
      'The propensity tree in the quality function u. "2 on a grid" (the default) takes the best tree of ' +
      'depth 2 whose splits lie at 33 quantiles of each synthetic column; it sees relationships between ' +
      'columns. "1" takes the best single split over every threshold. Both are exact searches over ' +
      'partitions fixed before the real data are read, so Δu = 1/(2n) is proven. 2, 5 and unlimited are ' +
      'rpart trees fitted greedily with cp pruning: Δu can then exceed the paper’s 1/n (paper Table 1: ' +
      '0.3–2.5 % of random neighbours; chosen neighbours can move u by about cp·n/8 times it). At every ' +
      'depth ε holds only for exact draws of the exponential mechanism, which the MCMC chains approximate, ' +
      'so the claim says ε is not a proven bound.',
  },
  {
    name: 'cp',
    label: 'Tree complexity parameter (cp)',
    type: 'number',
    default: 0.01,
    min: 0,
    max: 1,
    help:
      'rpart cp of the greedy propensity trees (depth 2, 5, unlimited): a split must cut the risk by cp × ' +
      'root risk (paper: 0.01). The exact searches ("2 on a grid", 1) do not use it.',
  },
  {
    name: 'm',
    label: 'Synthetic datasets per evaluation (m)',
    type: 'integer',
    default: 1,
    min: 1,
    max: 100,
    help: 'u(X, θ) averages the pMSE over m synthetic datasets from g(θ) (paper eq. 3); cost grows with m.',
  },
  {
    name: 'chains',
    label: 'MCMC chains',
    type: 'integer',
    default: 2,
    min: 1,
    max: 64,
    help: 'Independent Metropolis chains (run in parallel workers); releases are shared out among them. R̂ compares them.',
  },
  {
    name: 'burnIn',
    label: 'Burn-in iterations',
    type: 'integer',
    default: 1500,
    min: 0,
    max: 10_000_000,
    help: 'Iterations per chain during which the proposal adapts; they are discarded.',
  },
  {
    name: 'steps',
    label: 'Iterations after burn-in',
    type: 'integer',
    default: 2500,
    min: 2,
    max: 10_000_000,
    help:
      'Iterations per chain with the proposal frozen; releases are drawn from them and R̂ is computed on them. ' +
      'Must exceed (draws per chain − 1) × thinning.',
  },
  {
    name: 'thinning',
    label: 'Iterations between released draws',
    type: 'integer',
    default: 500,
    min: 1,
    max: 10_000_000,
    help:
      'When a chain provides several releases, they are taken this many iterations apart, the last at the ' +
      'final iteration, so that they are nearly independent.',
  },
  {
    name: 'proposalScale',
    label: 'Initial proposal scale',
    type: 'number',
    default: 0.1,
    min: 1e-6,
    max: 100,
    help: 'Starting standard deviation of the random-walk proposal per parameter (standardised units); adapted during burn-in.',
  },
];

/** Typed view of the mechanism's parameters. */
export interface PmseSettings {
  columnOrder: string[];
  missingColumns: string[];
  treeDepth: number;
  treeDepthLabel: string;
  cp: number;
  m: number;
  chains: number;
  burnIn: number;
  steps: number;
  thinning: number;
  proposalScale: number;
}

/** Comma-separated names → trimmed non-empty names. */
export function splitNameList(text: string): string[] {
  return text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name.length > 0);
}

/** Reads resolved parameter values (defaults filled in for absent ones). */
export function readPmseSettings(params: ParamValues, schema: Schema): PmseSettings {
  const value = (name: string) => params[name] ?? PMSE_PARAMS.find((spec) => spec.name === name)!.default;
  const order = splitNameList(String(value('columnOrder')));
  const depthLabel = String(value('treeDepth'));
  return {
    columnOrder: order.length > 0 ? order : schema.columns.map((column) => column.name),
    missingColumns: splitNameList(String(value('missingColumns'))),
    treeDepth:
      depthLabel === 'unlimited'
        ? UNLIMITED_TREE_DEPTH
        : depthLabel === GRID_TREE_DEPTH_VALUE
          ? 2
          : Number(depthLabel),
    treeDepthLabel: depthLabel,
    cp: Number(value('cp')),
    m: Number(value('m')),
    chains: Number(value('chains')),
    burnIn: Number(value('burnIn')),
    steps: Number(value('steps')),
    thinning: Number(value('thinning')),
    proposalScale: Number(value('proposalScale')),
  };
}

/** How many releases each chain provides when `releases` are dealt round-robin over `chains`. */
export function drawsPerChain(releases: number, chains: number): number[] {
  return Array.from(
    { length: chains },
    (_, chain) => Math.floor(releases / chains) + (chain < releases % chains ? 1 : 0),
  );
}

/**
 * Post-burn-in iterations (1 … steps) at which a chain providing `draws` releases records them:
 * the last iteration and then every `thinning` iterations before it, earliest first.
 * Throws RangeError when they do not fit in `steps`.
 */
export function drawIterations(draws: number, steps: number, thinning: number): number[] {
  if (draws === 0) return [];
  const first = steps - (draws - 1) * thinning;
  if (first < 1) {
    throw new RangeError(
      `${draws} draws ${thinning} iterations apart need more than ${(draws - 1) * thinning} iterations after burn-in; got ${steps}.`,
    );
  }
  return Array.from({ length: draws }, (_, j) => first + j * thinning);
}
