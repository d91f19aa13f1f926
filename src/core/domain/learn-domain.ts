import { Accountant } from '../privacy/accountant';
import { formatRational } from '../privacy/format-rational';
import { parseRational, Rational } from '../rng/rational';
import type { Rng } from '../rng/types';
import type { AbortSignalLike } from '../mechanisms/types';
import { throwIfAborted } from '../abort';
import { compareByCodePoint } from '../table/code-point-order';
import type { TableSource } from '../table/table-source';
import { tokensOfColumn } from '../table/table-source';
import { InputError } from '../table/errors';
import { isNumericToken, parseNumericToken } from '../table/numeric-token';
import { columnParts, partSource, withPartSources } from '../table/schema-facts';
import type { ColumnSchema, DomainBudget, DomainStep, Schema, SchemaPart } from '../table/types';
import { exactDecimal, shareOf } from './budget-split';
import { dpCategories, thresholdFor } from './dp-categories';
import { dpMajority } from './dp-majority';
import { dpBoundIndex, FAR_BOUND_PROBABILITY, quantileRows, safeBoundRank } from './dp-quantile';
import {
  dpWholeNumber,
  WHOLE_MISSED_PROBABILITY,
  wholeNumberBudgetThreshold,
  wholeNumberRowThreshold,
  wholeNumberThreshold,
} from './dp-whole-number';
import { DEFAULT_SEARCH_RANGE, searchGrid } from './search-grid';

/** The level a learned category list gives to every value it does not keep. */
export const OTHER_LEVEL = '(other)';

/** Default quantiles for the bounds: 0.5 % below the lower bound, 0.5 % above the upper. */
export const DEFAULT_QUANTILES: readonly [string, string] = ['0.005', '0.995'];

export interface LearnDomainOptions {
  /** The domain budget, exact decimal text: ε > 0, δ >= 0 (δ > 0 when a category list is learned). */
  epsilon: string;
  delta: string;
  /** Columns to learn; default every column with a fact that is not declared. */
  columns?: string[];
  /** Relative share of the budget per column (default 1 each: an even split). */
  weights?: Record<string, number>;
  /** The quantiles the bounds target, default DEFAULT_QUANTILES. */
  quantiles?: readonly [string, string];
  /** The public range searched for bounds, default ±10¹². */
  searchRange?: readonly [number, number];
  /** The time recorded as `learnedAt`; default now. */
  learnedAt?: string;
  signal?: AbortSignalLike;
}

export interface LearnDomainResult {
  schema: Schema;
  /** The steps of this learning, in order. */
  steps: DomainStep[];
  /** Sentences from public facts (ε and n) about facts the budget is too small to learn reliably. */
  warnings: string[];
}

/** Parts a column still needs learned: every part it states or could state that is not declared. */
function partsToLearn(column: ColumnSchema): SchemaPart[] {
  const all: SchemaPart[] =
    column.type === 'numeric' ? ['type', 'lower', 'upper', 'integer'] : ['type', 'categories'];
  const stated = new Set(columnParts(column));
  return all.filter((part) => !stated.has(part) || partSource(column, part) !== 'declared');
}

interface ColumnBudget {
  epsilon: Rational;
  delta: Rational;
}

/**
 * Learns the facts of a schema that are not declared, with (ε, δ)-DP in total, and returns the
 * schema with those facts marked `dp` and the steps added to its `domainBudget` (DESIGN.md §2).
 *
 * The budget goes to the columns in proportion to `weights` (even by default), and within a column
 * evenly over its facts (columnUnits): the type (a noisy majority of cells that read as numbers,
 * dp-majority.ts), each bound end (a DP quantile over the public grid of `searchRange`,
 * dp-quantile.ts, aimed at a rank of the values present), the whole-number flag (a noisy count of
 * non-whole values below the larger of 0.5 % of n and about ln(20)/ε, dp-whole-number.ts) and a
 * category list (a stability-based thresholded histogram, dp-categories.ts, which alone spends δ).
 * A column's split is fixed before the data is read; only which facts follow the type depends on
 * the type learned, a DP output (adaptive sequential composition). Every step is reserved on an
 * accountant before its noise is drawn, and the schema records exactly what the steps spent.
 * Declared facts are kept and not learned again. Throws InputError, before any draw, for a budget
 * that cannot pay for the facts asked (δ = 0 with a category list to learn, an unknown column).
 */
export function learnDomain(
  raw: TableSource,
  schema: Schema,
  options: LearnDomainOptions,
  rng: Rng,
): LearnDomainResult {
  const epsilon = parseRational(options.epsilon);
  const delta = parseRational(options.delta);
  if (!epsilon.isPositive()) throw new InputError('learning a domain privately needs ε > 0.');
  if (delta.isNegative() || delta.compare(Rational.ONE) >= 0) {
    throw new InputError('δ for learning a domain must be at least 0 and below 1.');
  }
  const quantiles = (options.quantiles ?? DEFAULT_QUANTILES).map((q) => parseQuantile(q));
  if (quantiles[0]!.compare(quantiles[1]!) >= 0) {
    throw new InputError('the quantile of the lower bound must be below that of the upper bound.');
  }
  const grid = searchGrid(options.searchRange ?? DEFAULT_SEARCH_RANGE);
  const names =
    options.columns ?? schema.columns.filter((c) => partsToLearn(c).length > 0).map((c) => c.name);
  for (const name of names) {
    if (!schema.columns.some((c) => c.name === name)) {
      throw new InputError(`the schema has no column \`${name}\` to learn.`);
    }
  }
  const chosen = schema.columns.filter((c) => names.includes(c.name) && partsToLearn(c).length > 0);
  if (chosen.length === 0)
    throw new InputError('every fact of the columns asked for is declared: nothing to learn.');
  if (delta.isZero()) {
    const needsList = chosen.filter((c) => c.type === 'categorical' || partsToLearn(c).includes('type'));
    if (needsList.length > 0) {
      throw new InputError(
        `learning a category list needs δ > 0 (e.g. 1e-6): with δ = 0 only declared lists are possible. ` +
          `Columns that may need one: ${needsList.map((c) => `\`${c.name}\``).join(', ')}; give δ, or declare ` +
          'their type numeric or their categories.',
      );
    }
  }
  const unknownShares = Object.keys(options.weights ?? {}).filter(
    (name) => !chosen.some((c) => c.name === name),
  );
  if (unknownShares.length > 0) {
    throw new InputError(
      `a share of the domain budget names ${unknownShares.map((n) => `\`${n}\``).join(', ')}, which is not a ` +
        'column learned here; name columns whose facts are not all declared.',
    );
  }
  // Own properties only: a column named `constructor` or `__proto__` is not an inherited member.
  const shares = options.weights ?? {};
  const weights = chosen.map((c) => (Object.hasOwn(shares, c.name) ? shares[c.name]! : 1));
  if (weights.some((w) => !(Number.isInteger(w) && w >= 1))) {
    throw new InputError('each column share of the domain budget must be a whole number >= 1.');
  }
  const whole = weights.reduce((a, b) => a + b, 0);
  const accountant = new Accountant({ epsilon, delta });
  const steps: DomainStep[] = [];
  const warnings: string[] = [];
  const learned = new Map<string, ColumnSchema>();
  chosen.forEach((column, i) => {
    throwIfAborted(options.signal);
    const budget: ColumnBudget = {
      epsilon: shareOf(epsilon, weights[i]!, whole),
      delta: shareOf(delta, weights[i]!, whole),
    };
    const tokens = tokensOfColumn(raw, column.name);
    if (tokens === undefined) throw new InputError(`${raw.fileName} has no column \`${column.name}\`.`);
    const ctx: StepContext = {
      rng,
      accountant,
      steps,
      missing: new Set(schema.missing),
      grid,
      quantiles,
      warnings,
    };
    learned.set(column.name, learnColumn(column, tokens, budget, ctx));
  });
  const columns = schema.columns.map((c) => learned.get(c.name) ?? c);
  return {
    schema: {
      ...schema,
      columns,
      domainBudget: mergedBudget(schema.domainBudget, steps, rng.seeded, options.learnedAt),
    },
    steps,
    warnings,
  };
}

interface StepContext {
  warnings: string[];
  rng: Rng;
  accountant: Accountant;
  steps: DomainStep[];
  missing: ReadonlySet<string>;
  grid: number[];
  quantiles: Rational[];
}

function spend(ctx: StepContext, fact: string, what: string, epsilon: Rational, delta = Rational.ZERO) {
  ctx.accountant.reserve(what, epsilon, delta);
  ctx.steps.push({ fact, what, epsilon: exactDecimal(epsilon), delta: exactDecimal(delta) });
}

/**
 * One column's facts for its budget. When the type is learned, its step reserves the column's
 * whole δ (for the category list the type may call for) and the facts after it take three quarters
 * of ε whichever type comes out (numeric: a quarter each for lower, upper and whole-number flag;
 * categorical: all three for the list), so every path spends the same (ε, δ) and the claim never
 * depends on which type the noise chose.
 */
function learnColumn(
  column: ColumnSchema,
  tokens: string[],
  budget: ColumnBudget,
  ctx: StepContext,
): ColumnSchema {
  const parts = partsToLearn(column);
  const name = column.name;
  let current = column;
  const learnsType = parts.includes('type');
  // ε per fact: a quarter of the column's when the type is learned, else an even share of the facts.
  const each = learnsType
    ? shareOf(budget.epsilon, 1, 4)
    : shareOf(budget.epsilon, 1, column.type === 'numeric' ? parts.length : 1);
  if (learnsType) {
    let numbers = 0;
    let words = 0;
    for (const token of tokens) {
      if (ctx.missing.has(token)) continue;
      if (isNumericToken(token)) numbers++;
      else words++;
    }
    spend(
      ctx,
      `${name}.type`,
      `type of \`${name}\`: numeric when a noisy majority of its cells read as numbers (discrete Laplace, ` +
        `Δ = 2)${budget.delta.isZero() ? '' : '; δ reserved for its category list, should it be categorical'}`,
      each,
      budget.delta,
    );
    const numeric = dpMajority(ctx.rng, numbers, words, each);
    const type = numeric ? 'numeric' : 'categorical';
    // The learned type agrees with the column: its declared facts stay. Otherwise none applies.
    current = type === column.type ? column : { name, type, source: 'dp' };
  }
  const learnedParts: SchemaPart[] = learnsType ? ['type'] : [];
  const declared = (part: SchemaPart) =>
    current === column && columnParts(column).includes(part) && partSource(column, part) === 'declared';
  // With the type learned, a fact that turns out declared leaves its share unused; it is still
  // reserved and stated, so the claim is the same whichever type came out.
  const unused = (what: string, epsilon: Rational) =>
    spend(ctx, `${name}.type`, `share of \`${name}\`'s budget left unused: its ${what} is declared`, epsilon);
  if (current.type === 'numeric') {
    const facts: SchemaPart[] = learnsType ? ['lower', 'upper', 'integer'] : parts;
    const want = facts.filter((part) => !declared(part));
    for (const part of facts.filter(declared))
      unused(part === 'integer' ? 'whole-number flag' : `${part} bound`, each);
    current = learnNumeric(current, tokens, want, each, ctx);
    learnedParts.push(...want);
  } else if (learnsType && declared('categories')) {
    unused('list of categories', each.mul(Rational.of(3)));
  } else {
    const epsilon = learnsType ? each.mul(Rational.of(3)) : each;
    // With the type learned, the list's δ was reserved by the type step.
    current = learnCategories(
      current,
      tokens,
      epsilon,
      budget.delta,
      learnsType ? Rational.ZERO : budget.delta,
      ctx,
    );
    learnedParts.push('categories');
  }
  return withPartSources(current, learnedParts, 'dp');
}

/**
 * The values of a numeric column's cells, ascending (missing cells and cells that are not numbers
 * hold none), and how many of them are not whole numbers.
 */
export function presentValues(
  tokens: readonly string[],
  missing: ReadonlySet<string>,
): { sorted: Float64Array; nonWhole: number } {
  const values: number[] = [];
  let nonWhole = 0;
  for (const token of tokens) {
    if (missing.has(token) || !isNumericToken(token)) continue;
    const value = parseNumericToken(token);
    values.push(value);
    if (!Number.isInteger(value)) nonWhole++;
  }
  return { sorted: Float64Array.from(values).sort(), nonWhole };
}

function learnNumeric(
  column: ColumnSchema & { type: 'numeric' },
  tokens: string[],
  want: SchemaPart[],
  epsilon: Rational,
  ctx: StepContext,
): ColumnSchema {
  const name = column.name;
  const n = tokens.length;
  const { sorted, nonWhole } = presentValues(tokens, ctx.missing);
  const grid = ctx.grid;
  const range = `[${compact(grid[0]!)}, ${compact(grid[grid.length - 1]!)}]`;
  let lower = column.bounds?.[0];
  let upper = column.bounds?.[1];
  let lowerIndex: number | null = null;
  let upperIndex: number | null = null;
  const ends = [
    { part: 'lower' as const, q: ctx.quantiles[0]!, word: 'lower bound' },
    { part: 'upper' as const, q: ctx.quantiles[1]!, word: 'upper bound' },
  ].filter((end) => want.includes(end.part));
  // Warnings from public facts only (ε, the grid, n): m, the number of values present, is not.
  const safe = safeBoundRank(epsilon, grid.length);
  const perBound = `ε = ${formatRational(epsilon)} per bound`;
  const advice =
    'Declare the bounds, give this column a larger share (a split), narrow the search range or spend more ε.';
  if (ends.length > 0 && safe > Math.floor(n / 4)) {
    ctx.warnings.push(
      `\`${name}\`: ${perBound} is too small for ${n} rows: a bound beyond the data is chosen with ` +
        `probability above ${FAR_BOUND_PROBABILITY}. ${advice}`,
    );
  } else {
    const clamped = ends.filter((end) => safe > quantileRows(end.q, end.part, n));
    if (clamped.length > 0) {
      const wanted = clamped.map(
        (end) => `${quantileRows(end.q, end.part, n)} (quantile ${formatRational(end.q)})`,
      );
      ctx.warnings.push(
        `\`${name}\`: ${perBound} is small for ${n} rows: each bound is placed about ${safe} values inside ` +
          `the data rather than ${wanted.join(' and ')}, so about ${safe} values at each end will be clamped ` +
          `to the bounds; with fewer than ${4 * safe} values present a bound far beyond the data becomes ` +
          `likely. ${advice}`,
      );
    }
  }
  for (const end of ends) {
    const side = end.part === 'lower' ? 'below' : 'above';
    const share = end.part === 'lower' ? end.q : Rational.ONE.sub(end.q);
    spend(
      ctx,
      `${name}.${end.part}`,
      `${end.word} of \`${name}\`: about ⌈${formatRational(share)}·m⌉ of its m values present ${side} it ` +
        `(quantile ${formatRational(end.q)}; at least s = ${safe} = ⌈(2/ε)·ln(${grid.length}/` +
        `${FAR_BOUND_PROBABILITY})⌉, so a bound far beyond the data stays unlikely, and at most m/4), ` +
        `exponential mechanism over ${grid.length} readable values in ${range} (Δ = 1 row); with fewer ` +
        `than about ${4 * safe} values present (4·s) a bound far beyond the data becomes likely`,
      epsilon,
    );
    const index = dpBoundIndex(ctx.rng, sorted, end.q, grid, end.part, epsilon);
    if (end.part === 'lower') lowerIndex = index;
    else upperIndex = index;
  }
  if (lowerIndex !== null) lower = grid[lowerIndex];
  if (upperIndex !== null) upper = grid[upperIndex];
  // Post-processing of the DP outputs (and declared ends): bounds need lower < upper.
  if (lower !== undefined && upper !== undefined && !(lower < upper)) {
    if (lower > upper && lowerIndex !== null && upperIndex !== null) [lower, upper] = [upper, lower];
    if (!(lower < upper)) {
      if (upperIndex !== null) upper = grid.find((g) => g > lower!) ?? lower + 1;
      else lower = [...grid].reverse().find((g) => g < upper!) ?? upper - 1;
    }
  }
  let integer = column.integer;
  if (want.includes('integer')) {
    const threshold = wholeNumberThreshold(n, epsilon);
    const beta = formatRational(WHOLE_MISSED_PROBABILITY);
    // Public facts only (ε and n): a threshold above n/20 leaves the flag little to tell.
    if (threshold * 20 > n) {
      const share = threshold > n ? `more than the ${n} rows` : `${percent(threshold, n)} of the rows`;
      ctx.warnings.push(
        `\`${name}\`: ε = ${formatRational(epsilon)} for the whole-number flag is small for ${n} rows: ` +
          `the column is called whole, and its values rounded, unless more than about ${threshold} of them ` +
          `(${share}) are not whole numbers. Declare the flag, give this column a larger share (a split) ` +
          'or spend more ε.',
      );
    }
    spend(
      ctx,
      `${name}.integer`,
      `whole-number flag of \`${name}\`: set when the noisy count of its values that are not whole ` +
        `(discrete Laplace, Δ = 1) is below T = ${threshold}, the larger of ${wholeNumberRowThreshold(n)} ` +
        `(0.5 % of the ${n} rows, rounded up) and ${wholeNumberBudgetThreshold(epsilon)} (the least T with ` +
        `e^(−ε·T) <= ${beta}), so a whole column is taken for fractional with probability at most ${beta}, ` +
        `and a column with fewer than about ${threshold} values that are not whole is called whole and rounded`,
      epsilon,
    );
    integer = dpWholeNumber(ctx.rng, nonWhole, threshold, epsilon);
  }
  const { bounds: _b, integer: _i, ...rest } = column;
  return {
    ...rest,
    ...(lower !== undefined && upper !== undefined ? { bounds: [lower, upper] as [number, number] } : {}),
    ...(integer === undefined ? {} : { integer }),
  };
}

/** The list at (ε, δ); `charged` is the δ this step reserves (0 when the type step reserved it). */
function learnCategories(
  column: ColumnSchema & { type: 'categorical' },
  tokens: string[],
  epsilon: Rational,
  delta: Rational,
  charged: Rational,
  ctx: StepContext,
): ColumnSchema {
  const name = column.name;
  const counts = new Map<string, number>();
  for (const token of tokens) {
    if (ctx.missing.has(token)) continue;
    counts.set(token, (counts.get(token) ?? 0) + 1);
  }
  const threshold = thresholdFor(epsilon, delta);
  spend(
    ctx,
    `${name}.categories`,
    `categories of \`${name}\`: the values whose noisy count (discrete Laplace, Δ = 2) reaches ${threshold}; ` +
      `the others become "${OTHER_LEVEL}" (δ = ${formatRational(delta)})`,
    epsilon,
    charged,
  );
  const kept = dpCategories(ctx.rng, counts, epsilon, threshold)
    .filter((value) => value !== OTHER_LEVEL)
    .sort(compareByCodePoint);
  const { categories: _c, other: _o, ...rest } = column;
  return { ...rest, categories: [...kept, OTHER_LEVEL], other: OTHER_LEVEL };
}

/** part/whole as a readable percentage, e.g. "16 %" or "0.24 %" (two significant digits). */
function percent(part: number, whole: number): string {
  return `${Number(((100 * part) / whole).toPrecision(2))} %`;
}

/** A number for a sentence: 1e+12 rather than 1000000000000. */
function compact(x: number): string {
  return Math.abs(x) >= 1e6 ? x.toExponential().replace('e+', 'e') : String(x);
}

/** A quantile in (0, 1) as exact text, e.g. "0.005". */
function parseQuantile(text: string): Rational {
  let q: Rational;
  try {
    q = parseRational(text);
  } catch {
    throw new InputError(`a quantile must be a number between 0 and 1, e.g. 0.005; got '${text}'.`);
  }
  if (!q.isPositive() || q.compare(Rational.ONE) >= 0) {
    throw new InputError(`a quantile must be a number between 0 and 1, e.g. 0.005; got '${text}'.`);
  }
  return q;
}

/** The schema's domain budget with these steps added (sequential composition: the sums grow). */
function mergedBudget(
  previous: DomainBudget | undefined,
  steps: DomainStep[],
  seeded: boolean,
  learnedAt?: string,
): DomainBudget {
  const all = [...(previous?.steps ?? []), ...steps];
  const sum = (key: 'epsilon' | 'delta') =>
    all.reduce((s, step) => s.add(parseRational(step[key])), Rational.ZERO);
  return {
    epsilon: exactDecimal(sum('epsilon')),
    delta: exactDecimal(sum('delta')),
    learnedAt: learnedAt ?? new Date().toISOString(),
    ...(seeded || previous?.seeded === true ? { seeded: true as const } : {}),
    steps: all,
  };
}
