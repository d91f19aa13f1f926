import { describe, expect, it } from 'vitest';
import type { Schema } from '../../table/types';
import { resolveParams } from '../params';
import { inverseTemperatureAt } from '../../mcmc/adaptive-metropolis';
import { pmseMechanism } from './index';
import { initialInverseTemperature } from './plan';
import {
  drawIterations,
  drawsPerChain,
  GRID_TREE_DEPTH_VALUE,
  GRID_TREE_SIZE,
  isProvenQuality,
  pmseQualityOf,
  readPmseSettings,
  splitNameList,
  UNLIMITED_TREE_DEPTH,
} from './pmse-params';

const schema: Schema = {
  version: 1,
  columns: [
    { name: 'a', type: 'numeric', source: 'declared' },
    { name: 'b', type: 'numeric', source: 'declared' },
  ],
  missing: [],
};

describe('pMSE mechanism parameters', () => {
  it('reads the defaults: schema order, the depth-2 grid tree (proven), cp 0.01, m 1, 2 chains', () => {
    const settings = readPmseSettings(resolveParams(pmseMechanism, {}), schema);
    expect(settings).toMatchObject({
      columnOrder: ['a', 'b'],
      missingColumns: [],
      treeDepth: 2,
      treeDepthLabel: GRID_TREE_DEPTH_VALUE,
      cp: 0.01,
      m: 1,
      chains: 2,
    });
    expect(readPmseSettings(resolveParams(pmseMechanism, { treeDepth: 'unlimited' }), schema).treeDepth).toBe(
      UNLIMITED_TREE_DEPTH,
    );
    expect(UNLIMITED_TREE_DEPTH).toBe(30);
    expect(pmseQualityOf(settings)).toEqual({ kind: 'grid-tree', depth: 2, gridSize: GRID_TREE_SIZE });
  });

  it('calls only the exact searches proven: the grid tree and the exhaustive stump', () => {
    const qualityFor = (treeDepth: string) =>
      pmseQualityOf(readPmseSettings(resolveParams(pmseMechanism, { treeDepth }), schema));
    expect(isProvenQuality(qualityFor(GRID_TREE_DEPTH_VALUE))).toBe(true);
    expect(qualityFor('1')).toEqual({ kind: 'exhaustive-stump' });
    expect(isProvenQuality(qualityFor('1'))).toBe(true);
    expect(qualityFor('5')).toEqual({
      kind: 'greedy-tree',
      tree: { maxDepth: 5, minSplit: 20, minBucket: 7, cp: 0.01 },
    });
    for (const greedy of ['2', '5', 'unlimited']) expect(isProvenQuality(qualityFor(greedy))).toBe(false);
  });

  it('parses text parameters from the command line', () => {
    const settings = readPmseSettings(
      resolveParams(pmseMechanism, { columnOrder: ' b , a ', missingColumns: 'a,', treeDepth: '2' }),
      schema,
    );
    expect(settings.columnOrder).toEqual(['b', 'a']);
    expect(settings.missingColumns).toEqual(['a']);
    expect(settings.treeDepth).toBe(2);
    expect(splitNameList(' , x,,y ')).toEqual(['x', 'y']);
  });

  it('names the parameter count formula in the form help', () => {
    const order = pmseMechanism.params.find((spec) => spec.name === 'columnOrder')!;
    expect(order.help).toMatch(/two numeric columns → 5/);
  });

  it('deals releases round-robin and spaces a chain’s draws by the thinning, the last at the end', () => {
    expect(drawsPerChain(10, 2)).toEqual([5, 5]);
    expect(drawsPerChain(5, 3)).toEqual([2, 2, 1]);
    expect(drawsPerChain(1, 3)).toEqual([1, 0, 0]);
    expect(drawIterations(5, 2500, 500)).toEqual([500, 1000, 1500, 2000, 2500]);
    expect(drawIterations(0, 10, 5)).toEqual([]);
    expect(() => drawIterations(6, 2500, 500)).toThrow(RangeError);
  });
});

describe('tempered burn-in', () => {
  it('starts burn-in at a scale of max(300, 60·k) and leaves smaller scales alone', () => {
    // ε/(2Δu) with Δu = 1/n: 10·5000/2 = 25,000; k = 5 → β₀ = 300/25000 = 0.012; k = 50 → 3000/25000.
    expect(initialInverseTemperature(10, 1 / 5000, 5)).toBeCloseTo(0.012, 15);
    expect(initialInverseTemperature(10, 1 / 5000, 50)).toBeCloseTo(0.12, 15);
    // With Δu = 1/(2n) the scale doubles: 50,000 → β₀ = 0.006.
    expect(initialInverseTemperature(10, 1 / 10000, 5)).toBeCloseTo(0.006, 15);
    // ε/l = 0.1 at n = 5000 with Δu = 1/n has scale 250: no tempering.
    expect(initialInverseTemperature(0.1, 1 / 5000, 5)).toBe(1);
  });

  it('raises β geometrically to 1 over the first 40 % of burn-in', () => {
    expect(inverseTemperatureAt(0, 1000, 0.01)).toBeCloseTo(0.01, 15);
    expect(inverseTemperatureAt(200, 1000, 0.01)).toBeCloseTo(0.1, 12);
    expect(inverseTemperatureAt(400, 1000, 0.01)).toBe(1);
    expect(inverseTemperatureAt(0, 1000, 1)).toBe(1);
  });
});
