import { describe, expect, it } from 'vitest';
import { CliqueTreeModel } from './clique-tree-model';
import { buildJunctionTree } from './junction-tree';
import { estimateByMirrorDescent, PATIENCE, RELATIVE_TOLERANCE, type Measurement } from './mirror-descent';

/** One clique over two attributes of two levels each, total 10. */
function pairModel(): CliqueTreeModel {
  return new CliqueTreeModel(buildJunctionTree(2, [2, 2], [[0, 1]]), [2, 2], 10);
}

function measurement(attrs: number[], y: number[], weight: number): Measurement {
  return { attrs, y: Float64Array.from(y), weight: new Float64Array(y.length).fill(weight) };
}

describe('estimateByMirrorDescent on problems with a closed-form optimum', () => {
  // Each optimum below is exact; the fits converge geometrically, and 1e−4 of the total 10 is far
  // above where the early stop (relative loss change 1e−7 for 100 iterations) leaves them and far
  // below the error of a wrong gradient, weight or step.
  const TOLERANCE = 1e-4;

  it('reproduces a feasible measured table exactly, with zero loss, and stops once no step lowers it', () => {
    // The loss falls geometrically towards 0, so its relative change never settles below 1e−7: the
    // descent ends when no step size lowers the loss any more, long before the iteration limit.
    const model = pairModel();
    const fit = estimateByMirrorDescent(model, [measurement([0, 1], [1, 2, 3, 4], 1)], {
      iterations: 100_000,
    });
    fit.marginals[0]!.forEach((v, c) => expect(Math.abs(v - (c + 1)), `cell ${c}`).toBeLessThan(TOLERANCE));
    expect(fit.loss).toBeLessThan(1e-8);
    expect(fit.iterations).toBeLessThan(10_000);
  });

  it('takes its first steps with α = 1/(n·w_max), doubled after each accepted step', () => {
    // One attribute of two levels, n = 10, y = (7, 3) with weight ½. From the uniform μ0 = (5, 5):
    // ∇ = ½(μ0 − y) = (−1, 1), α = 1/(10·½) = 0.2, θ1 = (0.2, −0.2), μ1 = 10/(1 + e^−0.4). The loss
    // falls from 2 to (μ1 − 7)²/2, more than half the predicted ⟨∇, μ0 − μ1⟩, so the step is kept;
    // then α = 0.4 and θ1 − θ1' = 0.4 + 0.4·(7 − μ1), again accepted (checked below through the loss).
    const model = new CliqueTreeModel(buildJunctionTree(1, [2], [[0]]), [2], 10);
    const y = [measurement([0], [7, 3], 0.5)];
    const mu1 = 10 / (1 + Math.exp(-0.4));
    const one = estimateByMirrorDescent(model, y, { iterations: 1 });
    expect(one.marginals[0]![0]!).toBeCloseTo(mu1, 12);
    expect(one.loss).toBeCloseTo((mu1 - 7) ** 2 / 2, 12);
    const mu2 = 10 / (1 + Math.exp(-(0.4 + 0.4 * (7 - mu1))));
    const two = estimateByMirrorDescent(model, y, { iterations: 2 });
    expect(two.marginals[0]![0]!).toBeCloseTo(mu2, 12);
    expect(two.loss).toBeLessThan(one.loss);
  });

  it('fits a measured one-way marginal and keeps the unmeasured attribute uniform given it', () => {
    // Only attribute 0 is measured, (7, 3); the gradient never varies along attribute 1, so from the
    // uniform start the model stays uniform in it: (3.5, 3.5, 1.5, 1.5).
    const model = pairModel();
    const fit = estimateByMirrorDescent(model, [measurement([0], [7, 3], 1)], { iterations: 2000 });
    [3.5, 3.5, 1.5, 1.5].forEach((expected, c) =>
      expect(Math.abs(fit.marginals[0]![c]! - expected), `cell ${c}`).toBeLessThan(TOLERANCE),
    );
  });

  it('weights two measurements of one marginal by their inverse variances', () => {
    // ½·1·|μ − (6, 4)|² + ½·3·|μ − (8, 2)|² is least at μ = ((6, 4) + 3·(8, 2))/4 = (7.5, 2.5), which
    // sums to the total 10, with loss ½·(1.5² + 1.5²) + (3/2)·(0.5² + 0.5²) = 3.
    const model = pairModel();
    const fit = estimateByMirrorDescent(model, [measurement([1], [6, 4], 1), measurement([1], [8, 2], 3)], {
      iterations: 2000,
    });
    const onOne = model.marginal(fit.marginals, [1]);
    expect(Math.abs(onOne[0]! - 7.5)).toBeLessThan(TOLERANCE);
    expect(Math.abs(onOne[1]! - 2.5)).toBeLessThan(TOLERANCE);
    expect(Math.abs(fit.loss - 3)).toBeLessThan(TOLERANCE);
  });

  it('reports every accepted iteration with a loss that never rises, ending at the returned loss', () => {
    const model = pairModel();
    const seen: [number, number][] = [];
    const fit = estimateByMirrorDescent(model, [measurement([0, 1], [4, 0, 1, 5], 0.5)], {
      iterations: 50,
      onIteration: (iteration, loss) => seen.push([iteration, loss]),
    });
    expect(fit.iterations).toBe(50);
    expect(seen.map(([i]) => i)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    // The start is uniform, 2.5 per cell: loss ½·0.5·(1.5² + 2.5² + 1.5² + 2.5²) = 4.25.
    expect(seen[0]![1]).toBeLessThan(4.25);
    for (let i = 1; i < seen.length; i++) expect(seen[i]![1]).toBeLessThanOrEqual(seen[i - 1]![1]);
    expect(seen.at(-1)![1]).toBe(fit.loss);
  });

  it('returns the start unchanged after no iteration, with its loss', () => {
    const model = pairModel();
    const start = [Float64Array.of(0, Math.log(3), 0, 0)];
    const fit = estimateByMirrorDescent(model, [measurement([0, 1], [1, 1, 1, 1], 2)], {
      iterations: 0,
      start,
    });
    expect(fit.iterations).toBe(0);
    expect(Array.from(fit.theta[0]!)).toEqual(Array.from(start[0]!));
    expect(fit.theta[0]).not.toBe(start[0]);
    // exp θ ∝ (1, 3, 1, 1), total 10: μ = (5/3, 5, 5/3, 5/3); loss = ½·2·((2/3)²·3 + 4²) = 17.333….
    [5 / 3, 5, 5 / 3, 5 / 3].forEach((v, c) => expect(fit.marginals[0]![c]!).toBeCloseTo(v, 12));
    expect(fit.loss).toBeCloseTo(16 + 4 / 3, 10);
  });

  it('stops once the loss has changed by less than 1e−7 relative for 100 iterations in a row', () => {
    const model = pairModel();
    const losses: number[] = [];
    const fit = estimateByMirrorDescent(model, [measurement([0], [10, 4], 1)], {
      iterations: 100_000,
      onIteration: (_, loss) => losses.push(loss),
    });
    // y sums to 14, not 10: the optimum (8, 2) keeps a loss of ½·(2² + 2²) = 4, so the relative change
    // is defined (and differs from the absolute change).
    expect(fit.loss).toBeCloseTo(4, 6);
    expect(fit.iterations).toBe(losses.length);
    expect(fit.iterations).toBeLessThan(100_000);
    const calm = (i: number) => Math.abs(losses[i - 1]! - losses[i]!) / losses[i - 1]! < RELATIVE_TOLERANCE;
    const last = losses.length - 1;
    for (let i = last - PATIENCE + 1; i <= last; i++) expect(calm(i), `iteration ${i + 1}`).toBe(true);
    expect(calm(last - PATIENCE), 'the run of calm iterations starts where it stops counting').toBe(false);
  });

  it('takes no step when no step size gives a finite loss, and returns the start', () => {
    // y = (10^200, 0): ½·(10^200)² overflows, so every candidate's loss is +∞ and none is accepted.
    const model = new CliqueTreeModel(buildJunctionTree(1, [2], [[0]]), [2], 10);
    const fit = estimateByMirrorDescent(model, [measurement([0], [1e200, 0], 1)], { iterations: 20 });
    expect(fit.iterations).toBe(0);
    expect(Array.from(fit.theta[0]!)).toEqual([0, 0]);
    expect(Array.from(fit.marginals[0]!)).toEqual([5, 5]);
  });

  it('refuses a measurement that no clique of the model contains', () => {
    const model = new CliqueTreeModel(buildJunctionTree(3, [2, 2, 2], [[0, 1]]), [2, 2, 2], 10);
    expect(() =>
      estimateByMirrorDescent(model, [measurement([1, 2], [1, 1, 1, 1], 1)], { iterations: 1 }),
    ).toThrow('no clique of the model contains measured attributes [1, 2]');
  });
});
