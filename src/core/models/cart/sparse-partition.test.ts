import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../rng/seeded-rng';
import type { CartColumn, CartInput, CartOptions } from './cart-types';
import { CartWorkspace } from './cart-workspace';
import { RpartTreeGrower } from './grow-rpart-tree';

// The sparse partition (few rows to the smaller child: binary search + run copies) must leave the
// tree and every buffer exactly as the row-by-row partition does. Compared on tables with ties,
// −0 next to +0 (equal in the tree, sorted apart), a categorical column, and weak signals whose
// trees make many lopsided splits; ratio Infinity never takes the sparse path, 1 always does.

function tableWithTies(rng: SeededRng, n: number): CartInput {
  const numeric = (make: (i: number) => number): CartColumn => ({
    kind: 'numeric',
    values: Float64Array.from({ length: n }, (_, i) => make(i)),
  });
  const columns: CartColumn[] = [
    numeric(() => rng.nextFloat()),
    numeric(() => Math.round(rng.nextFloat() * 10) / 10),
    numeric(() => (rng.nextFloat() < 0.5 ? -0 : rng.nextFloat() < 0.5 ? 0 : 1)),
    { kind: 'categorical', nLevels: 5, codes: Uint32Array.from({ length: n }, () => rng.nextUint32() % 5) },
    numeric(() => Math.floor(rng.nextFloat() * 1000)),
  ];
  const y = Uint8Array.from({ length: n }, () => (rng.nextFloat() < 0.5 ? 1 : 0));
  return { columns, y, n };
}

function fitAll(input: CartInput, ratio: number, options: CartOptions, relabels: Uint8Array[]) {
  const workspace = new CartWorkspace();
  workspace.load(input);
  const grower = new RpartTreeGrower(workspace, ratio);
  return relabels.map((labels) => {
    workspace.relabel(labels);
    const nodes = grower.grow(options);
    const w = workspace;
    return {
      nodes,
      start: Array.from(w.nodeStart.subarray(0, nodes)),
      end: Array.from(w.nodeEnd.subarray(0, nodes)),
      split: Array.from(w.nodeSplitColumn.subarray(0, nodes)),
      threshold: Array.from(w.nodeThreshold.subarray(0, nodes)),
      complexity: Array.from(w.nodeComplexity.subarray(0, nodes)),
      class1: Array.from(w.nodeClass1.subarray(0, nodes)),
      buffers: [0, 1].map((parity) =>
        w.packedBuffers[parity]!.map((packed, slot) => [
          Array.from(packed.subarray(0, w.n)),
          Array.from(w.rowBuffers[parity]![slot]!.subarray(0, w.n)),
        ]),
      ),
    };
  });
}

describe('the sparse partition of lopsided splits', () => {
  it('grows the same trees and leaves the same buffers as the row-by-row partition', () => {
    const rng = new SeededRng('sparse partition');
    const options: CartOptions = { maxDepth: 30, minSplit: 15, minBucket: 5, cp: 0.001 };
    for (const n of [200, 3000]) {
      const input = tableWithTies(rng, n);
      const relabels = Array.from({ length: 4 }, () =>
        Uint8Array.from({ length: n }, () => (rng.nextFloat() < 0.4 ? 1 : 0)),
      );
      const never = fitAll(input, Infinity, options, relabels);
      const always = fitAll(input, 1, options, relabels);
      const byDefault = fitAll(input, 48, options, relabels);
      expect(always).toEqual(never);
      expect(byDefault).toEqual(never);
      // The comparison is not vacuous: the trees split many times, down to small nodes.
      expect(Math.min(...never.map((fit) => fit.nodes))).toBeGreaterThan(n === 200 ? 5 : 50);
    }
  });

  it('handles a categorical split (the smaller side gathered from the node rows) the same way', () => {
    const rng = new SeededRng('categorical first');
    const n = 1000;
    const codes = Uint32Array.from({ length: n }, () => rng.nextUint32() % 40);
    // Level 0 (about 25 rows) is almost all class 1: the root splits it off on the categorical column.
    const y = Uint8Array.from(codes, (code) => (code === 0 ? 1 : rng.nextFloat() < 0.3 ? 1 : 0));
    const input: CartInput = {
      n,
      y,
      columns: [
        { kind: 'categorical', nLevels: 40, codes },
        { kind: 'numeric', values: Float64Array.from({ length: n }, () => rng.nextFloat()) },
        { kind: 'numeric', values: Float64Array.from({ length: n }, () => rng.nextFloat()) },
      ],
    };
    const options: CartOptions = { maxDepth: 30, minSplit: 10, minBucket: 3, cp: 0 };
    const never = fitAll(input, Infinity, options, [y]);
    expect(never[0]!.split[0]).toBe(0);
    expect(fitAll(input, 1, options, [y])).toEqual(never);
  });
});
