import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { cli, tempFiles } from './cli-harness';

// The solver reaches its gap on every real run, so a failed certificate is made here by a solver that
// can be told to stop at β = 0, where ‖∇J(0)‖/λ is far above the allowed gap for data with a relation:
// always ('always'), or only with the first iteration count asked for ('first').
const solver = vi.hoisted(() => ({
  stopAtZero: 'never' as 'never' | 'always' | 'first',
  counts: [] as number[],
}));
vi.mock('../../src/core/mechanisms/dp-sequential-regression/regularized-logistic', async (importOriginal) => {
  const original =
    await importOriginal<
      typeof import('../../src/core/mechanisms/dp-sequential-regression/regularized-logistic')
    >();
  return {
    ...original,
    fitRegularizedLogistic: (...args: Parameters<typeof original.fitRegularizedLogistic>) => {
      solver.counts.push(args[2]);
      const zero =
        solver.stopAtZero === 'always' || (solver.stopAtZero === 'first' && solver.counts.length === 1);
      return zero
        ? new Float64Array((args[0].classes - 1) * args[0].d)
        : original.fitRegularizedLogistic(...args);
    },
  };
});

const WARNING =
  /^warning \(from the real data, for you only\): The regression of `g` ended ‖∇J\(β_T\)‖\/λ = /m;

async function synth(stopAtZero: 'never' | 'always' | 'first') {
  solver.stopAtZero = stopAtZero;
  solver.counts = [];
  // g is a whenever x < 0.5: the mean loss has gradient far from 0 at β = 0.
  const lines = ['x,g'];
  for (let i = 0; i < 200; i++) lines.push(`${(i % 100) / 100},${i % 100 < 50 ? 'a' : 'b'}`);
  const schema = {
    version: 1,
    columns: [
      { name: 'x', type: 'numeric', bounds: [0, 1], source: 'declared' },
      { name: 'g', type: 'categorical', categories: ['a', 'b'], source: 'declared' },
    ],
  };
  const path = tempFiles({ 'data.csv': lines.join('\n') + '\n', 's.json': JSON.stringify(schema) });
  const result = await cli(
    'synth',
    path('data.csv'),
    ...['--schema', path('s.json'), '--mechanism', 'dp-sequential-regression', '--epsilon', '1'],
    ...['--seed', '5', '--out', path('synth.csv'), '--report', path('report.json')],
  );
  const report = existsSync(path('report.json')) ? readFileSync(path('report.json'), 'utf8') : null;
  return { ...result, report, written: existsSync(path('synth.not-for-release.csv')) };
}

describe('dpsynth synth with dp-sequential-regression: the solver certificate', () => {
  it('releases nothing and counts the run as spent when ‖∇J(β)‖/λ stays above the gap up to 16·T steps', async () => {
    const result = await synth('always');
    // n = 200, λ = 0.01, K = 2: gap = 2/(200·0.01)/1000 = 1.00e−3; T, 2T, 4T, 8T, 16T tried.
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/did not certify its fit within .* solver steps .* above the gap 1\.00e-3/);
    expect(result.stderr).toMatch(/nothing is released and the run counts as spent/);
    const t = solver.counts[0]!;
    expect(solver.counts).toEqual([t, 2 * t, 4 * t, 8 * t, 16 * t]);
    expect(result.report).toBeNull();
    expect(result.written).toBe(false);
  });

  it('redoes a fit whose certificate fails with twice the steps, and releases it when it holds', async () => {
    const result = await synth('first');
    expect(result.code).toBe(0);
    expect(solver.counts).toEqual([solver.counts[0]!, 2 * solver.counts[0]!]);
    expect(result.stderr).not.toMatch(WARNING);
    // Public diagnostics state the public T, never the steps the fit took.
    const iterations = JSON.stringify(JSON.parse(result.report!)).match(/"iterations":(\d+)/g) ?? [];
    expect(iterations.every((entry) => entry === `"iterations":${solver.counts[0]}`)).toBe(true);
    expect(result.report).not.toMatch(/∇J|solverGap|allowed gap/);
  });

  it('says nothing when the solver ends within the gap', async () => {
    const result = await synth('never');
    expect(result.code).toBe(0);
    expect(solver.counts).toHaveLength(1);
    expect(result.stderr).not.toMatch(/allowed gap|did not certify/);
  });
});
