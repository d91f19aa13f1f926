import { throwIfAborted, type AbortSignalLike } from '../../abort';
import type { CliqueTreeModel } from './clique-tree-model';
import { addProjected, projection, sumProjected } from './factor-index';

/** A noisy measurement of the marginal on `attrs`: values y and per-cell weights 1/σ² of its noise. */
export interface Measurement {
  attrs: number[];
  y: Float64Array;
  weight: Float64Array;
}

export interface EstimationOptions {
  /** Most iterations of mirror descent. */
  iterations: number;
  signal?: AbortSignalLike;
  /** Starting log-potentials (a warm start); zero (uniform) when absent. */
  start?: Float64Array[];
  /**
   * The calibrated marginals of `start` on this model, when known (saves one calibration). They must
   * be exactly `model.calibrate(start)`: they are trusted, not checked.
   */
  startMarginals?: readonly Float64Array[];
  /** Called after each iteration with its number and loss. */
  onIteration?: (iteration: number, loss: number) => void;
}

export interface Estimate {
  theta: Float64Array[];
  marginals: Float64Array[];
  loss: number;
  iterations: number;
}

/** Early stop: the relative change of the loss stays below this … */
export const RELATIVE_TOLERANCE = 1e-7;
/** … for this many consecutive iterations. */
export const PATIENCE = 100;
/** Most halvings of the step size within one iteration before the descent is taken to have converged. */
const MAX_HALVINGS = 40;

/**
 * Fits the model to noisy marginal measurements: minimises  L(μ) = Σ_m ½ Σ_cells w_m (Q_m μ − y_m)²
 * (Q_m μ: the model's marginal on m's attributes, w_m = 1/σ_m²) over the distributions the clique
 * tree can express, by entropic mirror descent on the log-potentials, θ ← θ − α ∇_μ L(μ(θ))
 * (McKenna, Sheldon & Miklau 2019, "Graphical-model based estimation and inference for differential
 * privacy", ICML, Algorithm 1), with the Armijo rule of private-pgm's FactoredInference: after each
 * step, halve α until the loss falls by at least ½⟨∇L, μ_old − μ_new⟩, then double α for the next
 * iteration. Stops after `iterations`, or when the relative change of the loss stays below 1e−7 for
 * 100 iterations. Post-processing of the measurements: it never sees the data.
 * Cost per iteration: one or more calibrations, O(Σ clique cells).
 */
export function estimateByMirrorDescent(
  model: CliqueTreeModel,
  measurements: readonly Measurement[],
  options: EstimationOptions,
): Estimate {
  const plan = measurements.map((m) => {
    const clique = model.cliqueContaining(m.attrs);
    if (clique < 0)
      throw new Error(`no clique of the model contains measured attributes [${m.attrs.join(', ')}]`);
    const cliqueAttrs = model.cliques[clique]!;
    const whole = cliqueAttrs.length === m.attrs.length;
    return {
      clique,
      // null when the measurement covers its whole clique: the projection is the identity.
      walk: whole ? null : projection(cliqueAttrs, m.attrs, model.sizes),
      y: m.y,
      weight: m.weight,
      projected: new Float64Array(m.y.length),
      residual: new Float64Array(m.y.length),
    };
  });
  let weightMax = 0;
  for (const m of measurements) for (const w of m.weight) weightMax = Math.max(weightMax, w);

  // L(μ), leaving each measurement's weighted residual w (Q μ − y) in its plan for the gradient.
  const lossAt = (marginals: readonly Float64Array[]): number => {
    let loss = 0;
    for (const { clique, walk, y, weight, projected, residual } of plan) {
      const modelMarginal = walk ? sumProjected(marginals[clique]!, walk, projected) : marginals[clique]!;
      for (let c = 0; c < residual.length; c++) {
        const diff = modelMarginal[c]! - y[c]!;
        const weighted = weight[c]! * diff;
        loss += 0.5 * weighted * diff;
        residual[c] = weighted;
      }
    }
    return loss;
  };
  // ∇_μ L = Σ_m Q_mᵀ w_m (Q_m μ − y_m), from the residuals of the last `lossAt`.
  const gradientInto = (gradient: Float64Array[]): void => {
    for (const g of gradient) g.fill(0);
    for (const { clique, walk, residual } of plan) {
      const g = gradient[clique]!;
      if (walk) addProjected(g, walk, residual);
      else for (let c = 0; c < g.length; c++) g[c] += residual[c]!;
    }
  };

  let theta = options.start ? options.start.map((t) => Float64Array.from(t)) : model.zeroPotentials();
  let marginals =
    options.start && options.startMarginals
      ? options.startMarginals.map((m) => Float64Array.from(m))
      : model.calibrate(theta);
  const gradient = model.zeroPotentials();
  let loss = lossAt(marginals);
  gradientInto(gradient);
  let nextTheta = model.zeroPotentials();
  let nextMarginals = model.zeroPotentials();
  // A step of α = 1/(n·w_max) moves a cell's log-potential by about its relative error; Armijo adapts it.
  let alpha = 1 / (model.total * Math.max(weightMax, Number.MIN_VALUE));
  let calm = 0;
  let iteration = 0;
  for (iteration = 0; iteration < options.iterations; iteration++) {
    throwIfAborted(options.signal);
    let nextLoss = Infinity;
    let accepted = false;
    for (let halving = 0; halving <= MAX_HALVINGS; halving++) {
      for (let i = 0; i < theta.length; i++) {
        const t = theta[i]!;
        const g = gradient[i]!;
        const target = nextTheta[i]!;
        for (let c = 0; c < t.length; c++) target[c] = t[c]! - alpha * g[c]!;
      }
      model.calibrate(nextTheta, nextMarginals);
      nextLoss = lossAt(nextMarginals);
      let predicted = 0;
      for (let i = 0; i < gradient.length; i++) {
        const g = gradient[i]!;
        const before = marginals[i]!;
        const after = nextMarginals[i]!;
        for (let c = 0; c < g.length; c++) predicted += g[c]! * (before[c]! - after[c]!);
      }
      if (Number.isFinite(nextLoss) && loss - nextLoss >= 0.5 * predicted) {
        accepted = true;
        break;
      }
      alpha /= 2;
    }
    if (!accepted) break; // no step decreases the loss measurably: converged to machine precision
    const change = Math.abs(loss - nextLoss) / Math.max(Math.abs(loss), Number.MIN_VALUE);
    [theta, nextTheta] = [nextTheta, theta];
    [marginals, nextMarginals] = [nextMarginals, marginals];
    gradientInto(gradient); // the residuals are the accepted step's: lossAt ran on it last
    loss = nextLoss;
    alpha *= 2;
    options.onIteration?.(iteration + 1, loss);
    calm = change < RELATIVE_TOLERANCE ? calm + 1 : 0;
    if (calm >= PATIENCE) {
      iteration++;
      break;
    }
  }
  return { theta, marginals, loss, iterations: iteration };
}
