import { parseRational, Rational } from '../rng/rational';

/** A total privacy budget, held as exact rationals (privacy rule 7). */
export interface PrivacyBudget {
  epsilon: Rational;
  delta: Rational;
}

/** The budget the user gave cannot be used: a problem with their input (CLI exit code 2). */
export class BudgetError extends Error {
  override name = 'BudgetError';
}

function parseOrNull(value: string | number): Rational | null {
  try {
    return parseRational(value);
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

/**
 * Parses a budget exactly: "0.1" is 1/10, not the nearest double; numbers are read as the decimal
 * they print as. ε must be a finite number > 0; δ a number in [0, 1), 0 when not given.
 * Throws BudgetError naming the value given, e.g. "ε must be a positive number; got '0'".
 */
export function parseBudget(epsilon: string | number, delta?: string | number): PrivacyBudget {
  const parsedEpsilon = parseOrNull(epsilon);
  if (parsedEpsilon === null || !parsedEpsilon.isPositive()) {
    throw new BudgetError(`ε must be a positive number; got '${String(epsilon)}'`);
  }
  if (delta === undefined) return { epsilon: parsedEpsilon, delta: Rational.ZERO };
  const parsedDelta = parseOrNull(delta);
  if (parsedDelta === null || parsedDelta.isNegative() || parsedDelta.compare(Rational.ONE) >= 0) {
    throw new BudgetError(`δ must be a number from 0 up to but not including 1; got '${String(delta)}'`);
  }
  return { epsilon: parsedEpsilon, delta: parsedDelta };
}
