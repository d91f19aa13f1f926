import { describe, expect, it } from 'vitest';
import { Rational } from '../rng/rational';
import { BudgetError, parseBudget } from './budget';

describe('parseBudget', () => {
  it('parses decimals exactly and defaults δ to 0', () => {
    const budget = parseBudget('0.1');
    expect(budget.epsilon.equals(Rational.of(1, 10))).toBe(true);
    expect(budget.delta.isZero()).toBe(true);
    const withDelta = parseBudget(1, '1e-6');
    expect(withDelta.epsilon.equals(Rational.ONE)).toBe(true);
    expect(withDelta.delta.equals(Rational.of(1, 1_000_000))).toBe(true);
    expect(parseBudget(0.3, 0).delta.isZero()).toBe(true);
    expect(parseBudget('1/3').epsilon.equals(Rational.of(1, 3))).toBe(true);
  });

  const badEpsilons: (string | number)[] = ['0', '-1', 'abc', '', 'Infinity', 'NaN', Infinity, -0.5, 0];
  for (const value of badEpsilons) {
    it(`rejects ε = ${JSON.stringify(String(value))} with a message naming it`, () => {
      expect(() => parseBudget(value)).toThrow(BudgetError);
      expect(() => parseBudget(value)).toThrow(`ε must be a positive number; got '${String(value)}'`);
    });
  }

  const badDeltas: (string | number)[] = ['1', 1, '-0.1', -0.1, '1.5', 'abc', '', 'Infinity'];
  for (const value of badDeltas) {
    it(`rejects δ = ${JSON.stringify(String(value))} with a message naming it`, () => {
      expect(() => parseBudget('1', value)).toThrow(BudgetError);
      expect(() => parseBudget('1', value)).toThrow(`got '${String(value)}'`);
      expect(() => parseBudget('1', value)).toThrow(/^δ must be a number from 0 up to but not including 1/);
    });
  }

  it('is a named error the command line can recognise as a user mistake', () => {
    try {
      parseBudget('0');
      expect.unreachable();
    } catch (error) {
      expect((error as Error).name).toBe('BudgetError');
    }
  });
});
