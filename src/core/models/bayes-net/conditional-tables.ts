import { Rational } from '../../rng/rational';
import type { ChargeableStep } from '../../privacy/meter';
import { meteredDiscreteLaplace } from '../../privacy/metered/discrete-laplace';
import { sampleDirichlet } from '../../rng/dirichlet';
import type { Rng } from '../../rng/types';

/**
 * The parameters of the Bayesian network (Bindschaedler, Shokri & Gunter §3.4): for each attribute
 * a table of counts over (parent configuration, level), made private with noise, and conditional
 * probabilities drawn from a Dirichlet posterior.
 */

/** The shape of attribute i's conditional table: its parents and the strides of their levels. */
export interface TableShape {
  child: number;
  parents: number[];
  /** stride of parent a in the configuration index: config = Σ level(parents[a])·strides[a]. */
  strides: number[];
  configurations: number;
  childLevels: number;
}

export function tableShapes(parents: readonly number[][], levels: readonly number[]): TableShape[] {
  return parents.map((ps, child) => {
    const strides: number[] = [];
    let configurations = 1;
    for (let a = ps.length - 1; a >= 0; a--) {
      strides[a] = configurations;
      configurations *= levels[ps[a]!]!;
    }
    return { child, parents: [...ps], strides, configurations, childLevels: levels[child]! };
  });
}

/** Cells of all tables, Σ_i configurations_i·|x_i|. */
export function tableCells(shapes: readonly TableShape[]): number {
  return shapes.reduce((sum, s) => sum + s.configurations * s.childLevels, 0);
}

/**
 * Scale of the discrete Laplace noise on every cell: 2m/ε. Replacing one row moves one count from
 * one cell to another in each of the m tables (L1 2 per table; the paper's 1 is for add/remove), so
 * the m tables together have L1 sensitivity 2m.
 */
export function tableNoiseScale(m: number, epsilon: Rational): Rational {
  return Rational.of(2 * m).div(epsilon);
}

/**
 * Noisy counts ñ of every cell of every table over `rows`: count + exact discrete Laplace noise of
 * {@link tableNoiseScale}, negatives set to 0 (eq. 14). ε-DP under replace-one, charged to `step`
 * table by table (query `partition-counts`). Cell index:
 * configuration·|x_i| + level; noise drawn table by table, cell by cell. Cost O(m·rows + cells).
 */
export function noisyTableCounts(
  step: ChargeableStep,
  rng: Rng,
  columns: readonly Uint32Array[],
  shapes: readonly TableShape[],
  rows: Uint32Array,
  epsilon: Rational,
): Float64Array[] {
  const scale = tableNoiseScale(shapes.length, epsilon);
  return shapes.map((shape) => {
    const counts = new Float64Array(shape.configurations * shape.childLevels);
    const child = columns[shape.child]!;
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      let configuration = 0;
      for (let a = 0; a < shape.parents.length; a++) {
        configuration += columns[shape.parents[a]!]![row]! * shape.strides[a]!;
      }
      counts[configuration * shape.childLevels + child[row]!]!++;
    }
    // Each table is counts over a partition (L1 2 under replace-one): ε/m per table, ε for the m.
    const noisy = meteredDiscreteLaplace(step, { kind: 'partition-counts' }, counts, scale, rng);
    for (let c = 0; c < noisy.length; c++) noisy[c] = Math.max(0, noisy[c]!);
    return noisy;
  });
}

/**
 * Conditional probabilities θ of one release (post-processing of ñ): for every parent configuration,
 * θ ~ Dirichlet(prior + ñ) over the child's levels (eq. 12), stored as cumulative sums ending in 1.
 */
export function drawCumulativeTables(
  rng: Rng,
  shapes: readonly TableShape[],
  counts: readonly Float64Array[],
  prior: number,
): Float64Array[] {
  return shapes.map((shape, i) => {
    const k = shape.childLevels;
    const cumulative = new Float64Array(shape.configurations * k);
    const alpha = new Float64Array(k);
    for (let c = 0; c < shape.configurations; c++) {
      for (let l = 0; l < k; l++) alpha[l] = prior + counts[i]![c * k + l]!;
      const theta = sampleDirichlet(rng, alpha);
      let sum = 0;
      for (let l = 0; l < k; l++) {
        sum += theta[l]!;
        cumulative[c * k + l] = sum;
      }
      cumulative[c * k + k - 1] = 1;
    }
    return cumulative;
  });
}
