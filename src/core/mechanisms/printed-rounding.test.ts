import { describe, expect, it } from 'vitest';
import { parseBudget } from '../privacy/budget';
import { roundDownRational, roundUpRational } from '../privacy/round-up';
import type { PrivacyClaim } from '../privacy/types';
import { parseRational, Rational } from '../rng/rational';
import { mcclureReiterPrior, multinomialDirichletPrior } from '../privacy/dirichlet-prior';
import { mixedTable } from './common/testing/fixtures';
import { resolveParams } from './params';
import { planPlausibleDeniability } from './plausible-deniability/plan';
import { MECHANISMS } from './registry';
import type { Mechanism, PublicContext } from './types';

// Privacy rule 7: every printed privacy value rounds in the safe direction. For every registered
// mechanism, with its default parameters on a small declared schema, the numbers its claim steps and
// its describe lines print beside a privacy symbol are read back and compared with the exact values
// they stand for:
// - ε, δ, ρ, μ and the test noise ε0 (a larger value is a weaker guarantee): printed ≥ exact;
// - the prior weight α of the Dirichlet synthesizers (ε = ln(1 + m/α), so a larger α means a
//   smaller ε): printed ≤ exact, so that ε recomputed from the printed α is ≥ the claimed ε.
// A printed number is compared with every exact candidate it may be a rounding of (it lies within one
// unit of its last printed digit of the candidate); each printed number must be matched by one, so a
// new symbol or value without an exact counterpart here fails rather than passing unchecked.

type Symbol = 'ε' | 'ε0' | 'δ' | 'ρ' | 'μ' | 'α';
const SAFE_UP: readonly Symbol[] = ['ε', 'ε0', 'δ', 'ρ', 'μ'];

interface Printed {
  symbol: Symbol;
  text: string;
  value: string;
}

const NUMBER = String.raw`\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?`;
/** A number right after "=" and not the start of a formula ("1/(e^ε − 1)"). */
const PLAIN_VALUE = new RegExp(String.raw`^(${NUMBER})(?![\d/(^·×*+−-]|\s*[/·×*+−-]\s)`);
/** A formula's result: the first "= number" after it, before the clause ends. */
const FORMULA_VALUE = new RegExp(String.raw`^[^,;]{0,60}?=\s*(${NUMBER})(?![\d/(^])`);

/**
 * Numbers printed for a symbol: "ε = 0.2", "(ε = 0.01, δ = 9.99e-9)", "ε0 = 0.008",
 * "α = n/(e^ε − 1) = 58.19" (after a formula, its result), "ρ = 0.02436 (μ = √(2ρ) = 0.22)".
 */
export function printedValues(text: string): Printed[] {
  const found: Printed[] = [];
  for (const match of text.matchAll(/(?<![\p{L}^_])(ε0|ε|δ|ρ|μ|α)\s*=\s*/gu)) {
    const rest = text.slice(match.index + match[0].length);
    const value = PLAIN_VALUE.exec(rest)?.[1] ?? FORMULA_VALUE.exec(rest)?.[1];
    if (value !== undefined)
      found.push({ symbol: match[1] as Symbol, text, value: value.replaceAll(',', '') });
  }
  return found;
}

/** Significant digits printed in a decimal string ("0.00811142" → 6, "1" → 1, "9.99634e-9" → 6). */
function significantDigits(decimal: string): number {
  const mantissa = decimal.split('e')[0]!.replace('.', '').replace(/^0+/, '');
  return Math.max(1, mantissa.length);
}

/**
 * How `printed` (with `digits` significant digits) rounds `exact`: 'up' or 'down' when it is that
 * rounding to its digits ('exact' when both agree), null when it is no rounding of it.
 */
function roundingOf(printed: string, digits: number, exact: Rational): 'up' | 'down' | 'exact' | null {
  if (!exact.isPositive()) return null;
  const value = Number(printed);
  const up = roundUpRational(exact, Math.min(digits, 15)) === value;
  const down = roundDownRational(exact, Math.min(digits, 15)) === value;
  return up && down ? 'exact' : up ? 'up' : down ? 'down' : null;
}

/** Exact values a mechanism's texts may print, by symbol, from the budget, the claim and the plans. */
function exactCandidates(mechanism: Mechanism, claim: PrivacyClaim, context: PublicContext) {
  const budget = parseBudget(context.epsilon, context.delta);
  const m = Rational.of(context.releases);
  const candidates: Record<Symbol, Rational[]> = { ε: [], ε0: [], δ: [], ρ: [], μ: [], α: [] };
  candidates.ε.push(budget.epsilon, budget.epsilon.div(m));
  candidates.δ.push(budget.delta, budget.delta.div(m));
  // The claim's own numbers are rounded up already: a text may repeat them.
  const structured = [claim, ...claim.steps];
  for (const part of structured) {
    candidates.ε.push(parseRational(part.epsilon));
    if (part.delta !== undefined) candidates.δ.push(parseRational(part.delta));
    if (part.rho !== undefined) candidates.ρ.push(parseRational(part.rho));
    if (part.mu !== undefined) candidates.μ.push(parseRational(part.mu));
  }
  if (mechanism.id === 'multinomial-dirichlet')
    candidates.α.push(multinomialDirichletPrior(context.n, budget.epsilon.div(m)));
  if (mechanism.id === 'binomial-beta-mr')
    candidates.α.push(mcclureReiterPrior(context.n, budget.epsilon.div(m)));
  if (mechanism.id === 'plausible-deniability') {
    const plan = planPlausibleDeniability(context.schema, resolveParams(mechanism, {}), context);
    if (plan.draws !== undefined) {
      candidates.ε.push(plan.draws.epsilonPerDraw);
      candidates.δ.push(plan.draws.deltaPerDraw, plan.draws.totalDelta);
      candidates.ε0.push(plan.draws.testEpsilon);
    }
    if (plan.modelEpsilon !== undefined) candidates.ε.push(plan.modelEpsilon);
  }
  return candidates;
}

/**
 * Symbols whose printed values have no exact counterpart reachable from outside the mechanism: the
 * zCDP mechanisms print per-round ε and ρ splits computed inside their plans. Their values are only
 * required to be roundings of something ≥ nothing here; the list keeps the gap visible.
 */
const NOT_REACHABLE: Record<string, readonly Symbol[]> = {
  mst: ['ε'],
  aim: ['ε'],
  clustmix: ['μ'],
};

const { schema } = mixedTable(100);
const CONTEXTS: Omit<PublicContext, 'schema'>[] = [
  { n: 100, epsilon: '1', delta: '1e-6', releases: 1, seeded: false },
  { n: 37, epsilon: '0.7', delta: '1e-5', releases: 3, seeded: false },
  { n: 251, epsilon: '2.3', delta: '1e-7', releases: 2, seeded: false },
];

describe('printed privacy values round in the safe direction', () => {
  it('reads tagged numbers, formulas skipped', () => {
    expect(printedValues('prior α = n/(e^ε − 1) = 58.1977 per cell, release 1 of 1')).toEqual([
      { symbol: 'α', text: expect.any(String), value: '58.1977' },
    ]);
    expect(
      printedValues('(ε = 0.01, δ = 9.99634e-9) with k = 2,800, t = 529, ε0 = 0.00811142').map(
        (p) => p.value,
      ),
    ).toEqual(['0.01', '9.99634e-9', '0.00811142']);
    expect(
      printedValues('Budget ρ = 0.02436 (μ = √(2ρ) = 0.2207, shown)').map((p) => [p.symbol, p.value]),
    ).toEqual([
      ['ρ', '0.02436'],
      ['μ', '0.2207'],
    ]);
  });

  it('flags a value rounded the wrong way (the check can fail)', () => {
    // α = 100/(e − 1) = 58.1976706…: 58.1977 is nearest but above it, 58.1976 is safe.
    const exact = multinomialDirichletPrior(100, Rational.ONE);
    expect(roundingOf('58.1977', 6, exact)).toBe('up');
    expect(roundingOf('58.1976', 6, exact)).toBe('down');
    expect(roundingOf('58.3', 3, exact)).toBeNull();
  });

  for (const mechanism of MECHANISMS) {
    it(`${mechanism.id}: claim steps and describe lines`, () => {
      let checked = 0;
      for (const base of CONTEXTS) {
        const context: PublicContext = { ...base, schema };
        const params = resolveParams(mechanism, {});
        const claim = mechanism.claim(params, context);
        const texts = [
          ...claim.steps.map((step) => step.what),
          ...(mechanism.describe?.(params, context) ?? []),
        ];
        const candidates = exactCandidates(mechanism, claim, context);
        for (const printed of texts.flatMap(printedValues)) {
          const digits = significantDigits(printed.value);
          const roundings = candidates[printed.symbol].map((exact) => ({
            exact,
            how: roundingOf(printed.value, digits, exact),
          }));
          const matched = roundings.filter((r) => r.how !== null);
          if (matched.length === 0) {
            expect(
              NOT_REACHABLE[mechanism.id] ?? [],
              `${mechanism.id}: ${printed.symbol} = ${printed.value} is no rounding of an exact value in "${printed.text}"`,
            ).toContain(printed.symbol);
            continue;
          }
          const unsafe = SAFE_UP.includes(printed.symbol) ? 'down' : 'up';
          for (const { exact, how } of matched) {
            expect(
              how,
              `${mechanism.id}: ${printed.symbol} = ${printed.value} is ${exact.toNumber()} rounded ${unsafe} ` +
                `in "${printed.text}"`,
            ).not.toBe(unsafe);
          }
          checked++;
        }
      }
      // Mechanisms that print privacy values must have had them checked.
      if (['multinomial-dirichlet', 'binomial-beta-mr', 'plausible-deniability'].includes(mechanism.id))
        expect(checked).toBeGreaterThan(0);
    });
  }

  it('ε recomputed from the printed α is at least the claimed ε (multinomial-dirichlet, n = 100, ε = 1)', () => {
    const mechanism = MECHANISMS.find((m) => m.id === 'multinomial-dirichlet')!;
    const context: PublicContext = { ...CONTEXTS[0]!, schema };
    const claim = mechanism.claim(resolveParams(mechanism, {}), context);
    const alpha = printedValues(claim.steps[0]!.what).find((p) => p.symbol === 'α')!;
    // ε = ln(1 + n/α) (dirichlet-prior.ts); a double log is within 1e-15 relative, far below the 1e-7 gap.
    expect(Math.log1p(100 / Number(alpha.value))).toBeGreaterThanOrEqual(1);
  });
});
