import { describe, expect, it } from 'vitest';
import { parseRational, Rational } from '../rng/rational';
import { Accountant, OverspendError } from './accountant';
import { parseBudget } from './budget';
import { PrivacyMeter } from './meter';

const r = (x: string): Rational => parseRational(x);

describe('Accountant.reserve (sequential composition)', () => {
  it('sums exactly: ten steps of 0.1 spend exactly 1, the eleventh throws', () => {
    const accountant = new Accountant(parseBudget('1'));
    for (let i = 0; i < 10; i++) accountant.reserve(`step ${i + 1}`, r('0.1'));
    expect(accountant.spent().epsilon.equals(Rational.ONE)).toBe(true);
    expect(accountant.remaining().epsilon.isZero()).toBe(true);
    expect(() => accountant.reserve('step 11', r('0.1'))).toThrow(OverspendError);
    expect(accountant.steps()).toHaveLength(10);
    // Summed in doubles the ten steps give 0.9999999999999999 and leave 1.1e−16 "remaining";
    // summed exactly nothing remains and the claim states the budget itself.
    expect(accountant.claim([]).epsilon).toBe(1);
  });

  it('charges δ as well and refuses a step that would exceed it', () => {
    const accountant = new Accountant(parseBudget('1', '1e-6'));
    accountant.reserve('a', r('0.5'), r('6e-7'));
    expect(() => accountant.reserve('b', r('0.1'), r('5e-7'))).toThrow(/needs δ = 0.0000005/);
    accountant.reserve('c', r('0.5'), r('4e-7'));
    expect(accountant.spent().delta.equals(r('1e-6'))).toBe(true);
  });

  it('records nothing when it throws, and says what was asked and what is left', () => {
    const accountant = new Accountant(parseBudget('1'));
    accountant.reserve('marginals', r('0.7'));
    expect(() => accountant.reserve('model', r('0.4'))).toThrow(
      '"model" needs ε = 0.4, but only 0.3 of ε = 1 is left',
    );
    expect(accountant.spent().epsilon.equals(r('0.7'))).toBe(true);
    expect(accountant.steps().map((s) => s.what)).toEqual(['marginals']);
    accountant.reserve('model', r('0.3'));
    expect(accountant.remaining().epsilon.isZero()).toBe(true);
  });

  it('rejects negative costs', () => {
    const accountant = new Accountant(parseBudget('1'));
    expect(() => accountant.reserve('x', r('-0.1'))).toThrow(RangeError);
    expect(() => accountant.reserve('x', r('0.1'), r('-1e-9'))).toThrow(RangeError);
  });
});

describe('Accountant.reserveParallel', () => {
  it('charges the largest part when rows are split by position', () => {
    const accountant = new Accountant(parseBudget('1', '1e-5'));
    accountant.reserveParallel(
      'per-shard models',
      [
        { epsilon: r('0.2') },
        { epsilon: r('0.5'), delta: r('1e-6') },
        { epsilon: r('0.3'), delta: r('3e-6') },
      ],
      'by-position',
    );
    expect(accountant.spent().epsilon.equals(r('0.5'))).toBe(true);
    expect(accountant.spent().delta.equals(r('3e-6'))).toBe(true);
    expect(accountant.steps()).toHaveLength(1);
    expect(accountant.steps()[0]!.what).toBe(
      'per-shard models (parallel over 3 disjoint parts split by position)',
    );
  });

  it('charges twice the largest ε when parts are cells defined by values (a row can change cell)', () => {
    const accountant = new Accountant(parseBudget('1'));
    accountant.reserveParallel('cell counts', [
      { epsilon: r('0.25') },
      { epsilon: r('0.4') },
      { epsilon: r('0.1') },
    ]);
    expect(accountant.spent().epsilon.equals(r('0.8'))).toBe(true);
    expect(accountant.spent().delta.isZero()).toBe(true);
  });

  it('by value with δ: worst of two parts moving (δa + δb) and one part twice ((1 + e^ε)·δ)', () => {
    const accountant = new Accountant(parseBudget('10', '0.01'));
    // Parts (ε, δ): (1, 1e-4) and (0.1, 3e-4). Moving between them: 4e-4. Inside the first:
    // (1 + e)·1e-4 = 3.718…e-4; inside the second: (1 + e^0.1)·3e-4 = 6.315…e-4, the worst.
    accountant.reserveParallel('cells', [
      { epsilon: r('1'), delta: r('1e-4') },
      { epsilon: r('0.1'), delta: r('3e-4') },
    ]);
    const delta = accountant.spent().delta.toNumber();
    const exact = (1 + Math.exp(0.1)) * 3e-4;
    expect(delta).toBeGreaterThanOrEqual(exact);
    expect(delta).toBeLessThanOrEqual(exact * (1 + 1e-11));
    expect(accountant.spent().epsilon.equals(r('2'))).toBe(true);
  });

  it('throws and charges nothing when the parallel step does not fit', () => {
    const accountant = new Accountant(parseBudget('1'));
    expect(() => accountant.reserveParallel('cells', [{ epsilon: r('0.6') }])).toThrow(OverspendError);
    expect(accountant.spent().epsilon.isZero()).toBe(true);
    expect(accountant.steps()).toHaveLength(0);
    expect(() => accountant.reserveParallel('nothing', [])).toThrow(RangeError);
  });
});

describe('Accountant.split', () => {
  it('divides exactly', () => {
    expect(Accountant.split(Rational.ONE, 3).equals(Rational.of(1, 3))).toBe(true);
    const accountant = new Accountant(parseBudget('1'));
    const share = Accountant.split(accountant.remaining().epsilon, 3);
    for (let i = 0; i < 3; i++) accountant.reserve(`third ${i + 1}`, share);
    expect(accountant.remaining().epsilon.isZero()).toBe(true);
    expect(() => accountant.reserve('more', Rational.of(1, 10 ** 15))).toThrow(OverspendError);
  });

  it('splits what remains', () => {
    const accountant = new Accountant(parseBudget('1'));
    accountant.reserve('first', r('0.4'));
    expect(accountant.splitRemainingEpsilon(4).equals(r('0.15'))).toBe(true);
  });

  it('needs a whole number of parts', () => {
    expect(() => Accountant.split(Rational.ONE, 0)).toThrow(RangeError);
    expect(() => Accountant.split(Rational.ONE, 2.5)).toThrow(RangeError);
  });
});

describe('Accountant.claim', () => {
  it('states pure DP with numbers rounded up (1/3 shows 0.333334)', () => {
    const accountant = new Accountant(parseBudget('1'));
    accountant.reserve('one third', Rational.of(1, 3));
    const claim = accountant.claim(['An assumption.']);
    expect(claim).toEqual({
      notion: 'pure-dp',
      epsilon: 0.333334,
      delta: 0,
      neighbouring: 'replace-one',
      bound: 'proven',
      steps: [{ what: 'one third', epsilon: 0.333334 }],
      assumptions: ['An assumption.'],
    });
  });

  it('states an unproven bound with its reason when given one, and refuses an empty reason', () => {
    const accountant = new Accountant(parseBudget('1'));
    accountant.reserve('all', Rational.ONE);
    const claim = accountant.claim(['Why.'], { unprovenBecause: 'greedy trees, depth 5' });
    expect(claim.bound).toBe('unproven');
    expect(claim.unprovenBecause).toBe('greedy trees, depth 5');
    expect(claim.assumptions).toEqual(['Why.']);
    expect(accountant.claim([]).unprovenBecause).toBeUndefined();
    expect(() => accountant.claim([], { unprovenBecause: '  ' })).toThrow(/needs a reason/);
  });

  it('states approximate DP once δ is spent; decimals the user typed stay as typed', () => {
    const accountant = new Accountant(parseBudget('0.9', '1e-6'));
    accountant.reserve('a', r('0.3'));
    accountant.reserve('b', r('0.6'), r('1e-6'));
    const claim = accountant.claim([]);
    expect(claim.notion).toBe('approx-dp');
    expect(claim.epsilon).toBe(0.9);
    expect(claim.delta).toBe(1e-6);
    expect(claim.steps).toEqual([
      { what: 'a', epsilon: 0.3 },
      { what: 'b', epsilon: 0.6, delta: 1e-6 },
    ]);
  });

  it('never shows less than was spent', () => {
    const accountant = new Accountant(parseBudget('1'));
    const parts = [Rational.of(1, 7), Rational.of(2, 9), Rational.of(1, 11)];
    for (const part of parts) accountant.reserve('part', part);
    const claim = accountant.claim([]);
    expect(parseRational(claim.epsilon).compare(accountant.spent().epsilon)).toBeGreaterThanOrEqual(0);
    expect(claim.epsilon).toBe(0.455989); // 1/7 + 2/9 + 1/11 = 316/693 = 0.4559884…, rounded up
  });

  it('copies the assumptions', () => {
    const accountant = new Accountant(parseBudget('1'));
    const assumptions = ['x'];
    const claim = accountant.claim(assumptions);
    assumptions.push('y');
    expect(claim.assumptions).toEqual(['x']);
  });
});

describe('Accountant.reserveParallel by value, δ of the worst part', () => {
  it('takes the largest (1 + e^ε)·δ whatever the order of the parts', () => {
    // Parts (ε, δ): (0.1, 3e-4) then (1, 1e-4). Inside the first: (1 + e^0.1)·3e-4 = 6.3155…e-4,
    // the worst; inside the second: (1 + e)·1e-4 = 3.718…e-4; moving between them: 4e-4.
    const accountant = new Accountant(parseBudget('10', '0.01'));
    accountant.reserveParallel('cells', [
      { epsilon: r('0.1'), delta: r('3e-4') },
      { epsilon: r('1'), delta: r('1e-4') },
    ]);
    const delta = accountant.spent().delta.toNumber();
    const exact = (1 + Math.exp(0.1)) * 3e-4;
    expect(delta).toBeGreaterThanOrEqual(exact);
    expect(delta).toBeLessThanOrEqual(exact * (1 + 1e-11));
    expect(accountant.steps()[0]!.what).toBe('cells (parallel over 2 disjoint parts split by value)');
  });

  it('states δ = 1 for a step whose δ terms reach 1, and δ = 1 when e^ε overflows', () => {
    // (1 + e)·0.4 = 1.487 > 1: a probability bound above 1 says nothing, so it is stated as 1.
    const accountant = new Accountant(parseBudget('2000', '0.5'));
    expect(() => accountant.reserveParallel('cells', [{ epsilon: r('1'), delta: r('0.4') }])).toThrow(
      '"cells (parallel over 1 disjoint parts split by value)" needs δ = 1, but only 0.5 of δ = 0.5 is left',
    );
    // e^710 overflows a double (above e^709.78): no finite bound on (1 + e^ε)·δ, so δ = 1.
    expect(() => accountant.reserveParallel('wide', [{ epsilon: r('710'), delta: r('1e-9') }])).toThrow(
      /"wide \(parallel over 1 disjoint parts split by value\)" needs δ = 1, but only/,
    );
    expect(accountant.spent().delta.isZero()).toBe(true);
  });
});

describe('a split by position under add/remove neighbours', () => {
  it('is refused (its part sizes come from n), and allowed under replace-one', () => {
    const parts = [{ epsilon: Rational.of(1, 2) }, { epsilon: Rational.of(1, 4) }];
    const addRemove = new Accountant(parseBudget('1', '0'), new PrivacyMeter('add-remove'));
    expect(() => addRemove.reserveParallel('parts', parts, 'by-position')).toThrow('needs replace-one');
    expect(() => addRemove.reserveParallel('cells', parts, 'by-value')).not.toThrow();
    const replaceOne = new Accountant(parseBudget('1', '0'), new PrivacyMeter('replace-one'));
    expect(() => replaceOne.reserveParallel('parts', parts, 'by-position')).not.toThrow();
  });
});
