import { describe, expect, it } from 'vitest';
import { multinomialDirichletPrior, mcclureReiterPrior } from '../dirichlet-prior';
import { drawFromPriorAndBalls } from '../../rng/polya-urn';
import { sparseFromDenseCounts } from '../../cells/sparse-cell-counts';
import { Rational } from '../../rng/rational';
import { SeededRng } from '../../rng/seeded-rng';
import { uniformInt } from '../../rng/uniform-int';
import { Accountant } from '../accountant';
import { MeterMismatchError, PrivacyMeter } from '../meter';
import { meteredNoisyPositiveCells } from './noisy-positive-cells';
import { meteredPriorUrnDraws } from './prior-urn-draws';
import { meteredSmoothedHistogramDraws } from './smoothed-histogram-draws';
import { smoothingWeight } from './smoothing-weight';
import { perturbCellCounts, recordingStep } from './testing';

const r = (num: number, den = 1) => Rational.of(num, den);
const PARTITION = { kind: 'partition-counts' } as const;
const idle = { aborted: false };
const COUNTS = sparseFromDenseCounts([5, 0, 0, 12, 0, 3, 0, 0]);

describe('meteredNoisyPositiveCells', () => {
  it('draws what the unmetered sanitizer draws, empty cells included, and charges ε = Δ₁/t once', () => {
    for (const epsilon of [r(1, 2), r(200)]) {
      // ε = 1/2: geometric skipping (1/t = 1/4); ε = 200: noise on every cell (1/t = 100 > 64).
      const scale = r(2).div(epsilon);
      const step = recordingStep('approx-dp');
      const options = { domainCells: 8, upper: Infinity, signal: idle };
      const metered = meteredNoisyPositiveCells(step, PARTITION, COUNTS, scale, new SeededRng('m'), options);
      const raw = perturbCellCounts(new SeededRng('m'), COUNTS, epsilon, {
        domainCells: 8,
        repair: 'zero',
        nRows: 20,
        signal: idle,
      });
      expect(Array.from(metered.cells)).toEqual(Array.from(raw.cells));
      expect(Array.from(metered.weights)).toEqual(Array.from(raw.weights));
      // Replace-one: Δ₁ = 2, so ε = 2/t, exactly the ε the scale was made for.
      expect(step.charges).toEqual([{ notion: 'approx-dp', epsilon, delta: Rational.ZERO }]);
    }
  });

  it('charges 1/t under add-remove and ε²/2 on a zCDP step', () => {
    const addRemove = recordingStep('approx-dp', 'add-remove');
    const options = { domainCells: 8, upper: Infinity, signal: idle };
    meteredNoisyPositiveCells(addRemove, PARTITION, COUNTS, r(4), new SeededRng(1), options);
    expect(addRemove.charges).toEqual([{ notion: 'approx-dp', epsilon: r(1, 4), delta: Rational.ZERO }]);
    const zcdp = recordingStep('zcdp');
    meteredNoisyPositiveCells(zcdp, PARTITION, COUNTS, r(4), new SeededRng(1), options);
    // ε = 2/4 = 1/2 → ρ = 1/8 (Bun & Steinke 2016, Prop. 1.4).
    expect(zcdp.charges).toEqual([{ notion: 'zcdp', rho: r(1, 8) }]);
  });

  it('refuses noise at half the planned scale before drawing anything', () => {
    const accountant = new Accountant({ epsilon: r(1), delta: Rational.ZERO }, new PrivacyMeter());
    const step = accountant.reserve('noisy counts', r(1, 2));
    const rng = new SeededRng('untouched');
    const options = { domainCells: 8, upper: Infinity, signal: idle };
    // Planned ε = 1/2 means t = 4; t = 2 would cost ε = 1.
    expect(() => meteredNoisyPositiveCells(step, PARTITION, COUNTS, r(2), rng, options)).toThrow(
      MeterMismatchError,
    );
    expect(rng.nextUint32()).toBe(new SeededRng('untouched').nextUint32());
    meteredNoisyPositiveCells(step, PARTITION, COUNTS, r(4), rng, options);
    expect(() => accountant.meter.settle()).not.toThrow();
  });
});

describe('meteredSmoothedHistogramDraws', () => {
  const cellOfRealRow = Uint32Array.of(0, 0, 3, 5, 5, 5, 1, 0, 2, 0);
  const design = { epsilon: r(3, 2), calls: 3 };

  it('draws the mixture with λ from K, n, T = calls·rows and ε, and charges ε/calls per call', () => {
    const step = recordingStep('approx-dp');
    const drawn = meteredSmoothedHistogramDraws(
      step,
      PARTITION,
      cellOfRealRow,
      16,
      10,
      design,
      new SeededRng('s'),
      idle,
    );
    // The same draws by hand: a 53-bit uniform below λ picks a uniform cell, else a uniform real row's cell.
    const lambda = smoothingWeight(16, 10, 30, 1.5);
    const rng = new SeededRng('s');
    const expected = Array.from({ length: 10 }, () =>
      rng.nextFloat() < lambda ? uniformInt(rng, 16) : cellOfRealRow[uniformInt(rng, 10)]!,
    );
    expect(Array.from(drawn)).toEqual(expected);
    expect(step.charges).toEqual([{ notion: 'approx-dp', epsilon: r(1, 2), delta: Rational.ZERO }]);
  });

  it('settles the planned ε after its calls, and refuses a λ sized for fewer calls', () => {
    const accountant = new Accountant({ epsilon: r(3, 2), delta: Rational.ZERO }, new PrivacyMeter());
    const step = accountant.reserve('30 rows from one smoothed histogram', r(3, 2));
    for (let call = 0; call < 3; call++) {
      meteredSmoothedHistogramDraws(
        step,
        PARTITION,
        cellOfRealRow,
        16,
        10,
        design,
        new SeededRng(call),
        idle,
      );
    }
    expect(() => accountant.meter.settle()).not.toThrow();
    const small = new Accountant({ epsilon: r(3, 2), delta: Rational.ZERO }, new PrivacyMeter());
    const once = small.reserve('30 rows', r(3, 2));
    // λ sized for one call of 10 rows costs the whole ε per call: the second call is refused.
    const oneCall = { epsilon: r(3, 2), calls: 1 };
    meteredSmoothedHistogramDraws(once, PARTITION, cellOfRealRow, 16, 10, oneCall, new SeededRng(1), idle);
    expect(() =>
      meteredSmoothedHistogramDraws(once, PARTITION, cellOfRealRow, 16, 10, oneCall, new SeededRng(2), idle),
    ).toThrow(MeterMismatchError);
  });

  it('refuses add-remove neighbours (λ reads n) and queries other than partition counts', () => {
    expect(() =>
      meteredSmoothedHistogramDraws(
        recordingStep('approx-dp', 'add-remove'),
        PARTITION,
        cellOfRealRow,
        16,
        10,
        design,
        new SeededRng(1),
        idle,
      ),
    ).toThrow('public only under replace-one');
    expect(() =>
      meteredSmoothedHistogramDraws(
        recordingStep('approx-dp'),
        { kind: 'count' },
        cellOfRealRow,
        16,
        10,
        design,
        new SeededRng(1),
        idle,
      ),
    ).toThrow('counts over a partition');
  });
});

describe('meteredPriorUrnDraws', () => {
  const balls = { cells: COUNTS.cells, counts: COUNTS.counts };

  it('draws the urn with the α it derives from ε and m, and charges exactly ε', () => {
    for (const draw of ['posterior', 'posterior-mean'] as const) {
      const step = recordingStep('approx-dp');
      const epsilon = r(1, 3);
      const result = meteredPriorUrnDraws(
        step,
        PARTITION,
        balls,
        { domainCells: 8, rows: 20, draw, epsilon },
        new SeededRng(draw),
      );
      const prior =
        draw === 'posterior' ? multinomialDirichletPrior(20, epsilon) : mcclureReiterPrior(20, epsilon);
      expect(result.prior.equals(prior)).toBe(true);
      const reference = drawFromPriorAndBalls(new SeededRng(draw), {
        domainCells: 8,
        prior,
        balls,
        draws: 20,
        reinforce: draw === 'posterior',
      });
      expect(Array.from(result.cells)).toEqual(Array.from(reference));
      expect(step.charges).toEqual([{ notion: 'approx-dp', epsilon, delta: Rational.ZERO }]);
    }
  });

  it('uses the derived α: m = 100, ε = 1 → 58.198 (posterior), n = 100 → 99.50 (posterior mean)', () => {
    // α = m/(e^ε − 1) = 100/1.71828 = 58.198; α = 1/(e^(1/100) − 1) = 99.50 (dirichlet-prior.ts).
    const posterior = meteredPriorUrnDraws(
      recordingStep('approx-dp'),
      PARTITION,
      balls,
      { domainCells: 8, rows: 100, draw: 'posterior', epsilon: r(1) },
      new SeededRng(1),
    );
    expect(posterior.prior.toNumber()).toBeCloseTo(58.198, 3);
    const mean = meteredPriorUrnDraws(
      recordingStep('approx-dp'),
      PARTITION,
      balls,
      { domainCells: 8, rows: 100, draw: 'posterior-mean', epsilon: r(1) },
      new SeededRng(1),
    );
    expect(mean.prior.toNumber()).toBeCloseTo(99.5, 2);
  });

  it('refuses a draw whose ε passes its step (α too small) before drawing, and non-partition queries', () => {
    const accountant = new Accountant({ epsilon: r(1), delta: Rational.ZERO }, new PrivacyMeter());
    const step = accountant.reserve('a posterior draw', r(1, 2));
    const rng = new SeededRng('untouched');
    expect(() =>
      meteredPriorUrnDraws(
        step,
        PARTITION,
        balls,
        { domainCells: 8, rows: 20, draw: 'posterior', epsilon: r(1) },
        rng,
      ),
    ).toThrow(MeterMismatchError);
    expect(rng.nextUint32()).toBe(new SeededRng('untouched').nextUint32());
    expect(() =>
      meteredPriorUrnDraws(
        recordingStep(),
        { kind: 'count' },
        balls,
        { domainCells: 8, rows: 20, draw: 'posterior', epsilon: r(1) },
        new SeededRng(1),
      ),
    ).toThrow('counts of a partition');
  });
});
