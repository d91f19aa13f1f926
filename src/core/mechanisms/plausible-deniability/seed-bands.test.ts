import { describe, expect, it } from 'vitest';
import { recordingStep } from '../../privacy/metered/testing';
import { Rational } from '../../rng/rational';
import { SeededRng } from '../../rng/seeded-rng';
import type { Rng } from '../../rng/types';
import { uniformInt } from '../../rng/uniform-int';
import {
  drawCumulativeTables,
  generateFrom,
  kahnOrder,
  noisyTableCounts,
  tableShapes,
  type BayesNet,
} from '../../models/bayes-net';
import { literalPlausibleSeeds, seedBandCounts } from './seed-bands';

/** A random seed table (seeds × m levels, few levels so that bands are large) and a random network over it. */
function randomCase(rng: Rng) {
  const m = 2 + uniformInt(rng, 4);
  const levels = Array.from({ length: m }, () => 2 + uniformInt(rng, 2));
  const seeds = 10 + uniformInt(rng, 40);
  const seedLevels = new Uint32Array(seeds * m);
  for (let s = 0; s < seeds; s++)
    for (let j = 0; j < m; j++) seedLevels[s * m + j] = uniformInt(rng, levels[j]!);
  // Parents: each attribute may take one earlier attribute (in index order) as its parent.
  const parents = levels.map((_, i) => (i > 0 && uniformInt(rng, 2) === 1 ? [uniformInt(rng, i)] : []));
  const shapes = tableShapes(parents, levels);
  const columns = levels.map((_, j) =>
    Uint32Array.from({ length: seeds }, (__, s) => seedLevels[s * m + j]!),
  );
  const counts = noisyTableCounts(
    recordingStep('approx-dp'),
    rng,
    columns,
    shapes,
    Uint32Array.from({ length: seeds }, (_, s) => s),
    Rational.of(1),
  );
  const net: BayesNet = {
    shapes,
    order: kahnOrder(parents),
    cumulative: drawCumulativeTables(rng, shapes, counts, 1),
  };
  return { m, levels, seeds, seedLevels, net };
}

/** Pr{y = M_ω(d)} exactly as eq. 3 defines it: 0 unless d agrees with y on σ(1..m − ω), else Π θ of the rest. */
function generationProbability(
  net: BayesNet,
  m: number,
  seedLevels: Uint32Array,
  d: number,
  y: Uint32Array,
  omega: number,
): number {
  const kept = m - omega;
  for (let q = 0; q < kept; q++) {
    const a = net.order[q]!;
    if (seedLevels[d * m + a] !== y[a]) return 0;
  }
  let p = 1;
  for (let q = kept; q < m; q++) {
    const child = net.order[q]!;
    const shape = net.shapes[child]!;
    let configuration = 0;
    for (let a = 0; a < shape.parents.length; a++) configuration += y[shape.parents[a]!]! * shape.strides[a]!;
    const cum = net.cumulative[child]!;
    const at = configuration * shape.childLevels + y[child]!;
    p *= cum[at]! - (y[child]! === 0 ? 0 : cum[at - 1]!);
  }
  return p;
}

describe('plausible-seed counts by one sort', () => {
  it('equal #{d′ : d′ agrees with d on σ(1..m − ω)} counted by brute force', () => {
    const rng = new SeededRng('bands');
    for (let trial = 0; trial < 40; trial++) {
      const { m, seeds, seedLevels, net } = randomCase(rng);
      const bands = seedBandCounts(seedLevels, m, net.order, 1, m);
      for (let omega = 1; omega <= m; omega++) {
        for (let d = 0; d < seeds; d++) {
          let brute = 0;
          for (let e = 0; e < seeds; e++) {
            let same = true;
            for (let q = 0; q < m - omega && same; q++) {
              const a = net.order[q]!;
              same = seedLevels[d * m + a] === seedLevels[e * m + a];
            }
            if (same) brute++;
          }
          expect(bands.counts[(omega - 1) * seeds + d]).toBe(brute);
        }
      }
    }
  });

  it('equal the literal Privacy Test 2 count k′ for γ = 1.5 and γ = 4 on rows generated from random tables', () => {
    const rng = new SeededRng('literal');
    let compared = 0;
    for (let trial = 0; trial < 40; trial++) {
      const { m, seeds, seedLevels, net } = randomCase(rng);
      const bands = seedBandCounts(seedLevels, m, net.order, 1, m);
      for (let draw = 0; draw < 10; draw++) {
        const d = uniformInt(rng, seeds);
        const omega = 1 + uniformInt(rng, m);
        const y = seedLevels.slice(d * m, d * m + m);
        generateFrom(rng, net, y, m - omega);
        for (const gamma of [1.5, 4]) {
          const literal = literalPlausibleSeeds(seeds, d, gamma, (e) =>
            generationProbability(net, m, seedLevels, e, y, omega),
          );
          expect(literal).toBe(bands.counts[(omega - 1) * seeds + d]);
          compared++;
        }
      }
    }
    expect(compared).toBe(800);
  });
});
