import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { cli, tempFiles } from './cli-harness';

// The solver reaches its gap on every real run, so a failed certificate is made here by a solver that
// can be told to stop at β = 0, where ‖∇J(0)‖/λ is far above the allowed gap for data with a relation.
const solver = vi.hoisted(() => ({ stopAtZero: false }));
vi.mock('../../src/core/mechanisms/dp-sequential-regression/regularized-logistic', async (importOriginal) => {
  const original =
    await importOriginal<
      typeof import('../../src/core/mechanisms/dp-sequential-regression/regularized-logistic')
    >();
  return {
    ...original,
    fitRegularizedLogistic: (...args: Parameters<typeof original.fitRegularizedLogistic>) =>
      solver.stopAtZero
        ? new Float64Array((args[0].classes - 1) * args[0].d)
        : original.fitRegularizedLogistic(...args),
  };
});

const WARNING =
  /^warning \(from the real data, for you only\): The regression of `g` ended ‖∇J\(β_T\)‖\/λ = /m;

async function synth(stopAtZero: boolean) {
  solver.stopAtZero = stopAtZero;
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
  return { ...result, report: readFileSync(path('report.json'), 'utf8') };
}

describe('dpsynth synth with dp-sequential-regression: the solver certificate', () => {
  it('warns the data holder on stderr when ‖∇J(β_T)‖/λ exceeds the allowed gap, and not in the report', async () => {
    const result = await synth(true);
    expect(result.code).toBe(0);
    // n = 200, λ = 0.01, K = 2: allowed gap = 2/(200·0.01)/1000 = 1.00e−3.
    expect(result.stderr).toMatch(WARNING);
    expect(result.stderr).toMatch(/above the allowed gap 1\.00e-3 /);
    expect(result.stdout).not.toMatch(/∇J/);
    expect(result.report).not.toMatch(/∇J|solverGap|allowed gap/);
  });

  it('says nothing when the solver ends within the gap', async () => {
    const result = await synth(false);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toMatch(/allowed gap/);
  });
});
