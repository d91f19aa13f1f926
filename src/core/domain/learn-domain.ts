import { Accountant } from '../privacy/accountant';
import { formatRational } from '../privacy/format-rational';
import { PrivacyMeter, type MeterStep } from '../privacy/meter';
import { chargeUnusedShare } from '../privacy/metered/unused-share';
import { roundUpRational } from '../privacy/round-up';
import { parseRational, Rational } from '../rng/rational';
import type { Rng } from '../rng/types';
import type { AbortSignalLike } from '../abort';
import { throwIfAborted } from '../abort';
import { compareByCodePoint } from '../table/code-point-order';
import type { TableSource } from '../table/table-source';
import { tokensOfColumn } from '../table/table-source';
import { InputError } from '../table/errors';
import { isNumericToken, parseNumericToken } from '../table/numeric-token';
import { columnParts, partSource, withPartSources } from '../table/schema-facts';
import type { ColumnSchema, DomainBudget, DomainStep, Schema, SchemaPart } from '../table/types';
import { exactDecimal } from './budget-split';
import {
  planDomain,
  refusalMessage,
  type ColumnPlan,
  type DomainPlan,
  type PlannedFact,
} from './domain-plan';
import { dpCategories, thresholdFor } from './dp-categories';
import { dpMajority } from './dp-majority';
import { dpBoundIndex, FAR_BOUND_PROBABILITY, safeBoundRank } from './dp-quantile';
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

/**
 * Default quantiles for the bounds: 2.5 % of the values below the lower bound, 2.5 % above the
 * upper, so that a pair keeps about 95 % of them. A target nearer the extremes is close in score
 * to the cells beyond the data, and makes a bound beyond all the data likely unless ε is large.
 */
export const DEFAULT_QUANTILES: readonly [string, string] = ['0.025', '0.975'];

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
  /**
   * Learn even when the plan predicts a fact below its floor (domain-plan.ts); the plan's warnings
   * are then returned and written into the steps of those facts. Without it such a plan is refused
   * before any data is read.
   */
  force?: boolean;
  signal?: AbortSignalLike;
}

/**
 * The plan refused: a fact would be learned below its floor. Thrown before any data is read or
 * any budget reserved; `plan` says which facts and what would do instead.
 */
export class DomainPlanRefused extends InputError {
  constructor(readonly plan: DomainPlan) {
    super(refusalMessage(plan));
    this.name = 'DomainPlanRefused';
  }
}

export interface LearnDomainResult {
  schema: Schema;
  /** The steps of this learning, in order. */
  steps: DomainStep[];
  /** Sentences from public facts (ε and n) about facts the budget is too small to learn reliably. */
  warnings: string[];
  /** The plan the learning followed (public facts only). */
  plan: DomainPlan;
}

/** Parts a column still needs learned: every part it states or could state that is not declared. */
function partsToLearn(column: ColumnSchema): SchemaPart[] {
  const all: SchemaPart[] =
    column.type === 'numeric' ? ['type', 'lower', 'upper', 'integer'] : ['type', 'categories'];
  const stated = new Set(columnParts(column));
  return all.filter((part) => !stated.has(part) || partSource(column, part) !== 'declared');
}

/**
 * Learns the facts of a schema that are not declared, with (ε, δ)-DP in total, and returns the
 * schema with those facts marked `dp` and the steps added to its `domainBudget` (DESIGN.md §2).
 *
 * First the plan (domain-plan.ts), from public facts only (n, ε, δ, the grid, the quantiles, what
 * the schema declares): each fact's share of the budget follows what it needs to meet its floor
 * (times the column's share from `weights`), and each fact's quality is predicted. When a fact
 * would fall below its floor the learning is refused (DomainPlanRefused) before any cell is read
 * or any budget reserved, unless `force` is set. Then the facts: the type (a noisy majority of
 * cells that read as numbers, dp-majority.ts), each bound end (a DP quantile over the public grid of
 * `searchRange`, dp-quantile.ts, aimed at a rank of the values present), the whole-number flag (a
 * noisy count of non-whole values below the larger of 0.5 % of n and about ln(20)/ε,
 * dp-whole-number.ts) and a category list (a stability-based thresholded histogram,
 * dp-categories.ts, which alone spends δ). Only which facts follow the type depends on the type
 * learned, a DP output, and both paths spend the same (adaptive sequential composition). Every step
 * is reserved on an accountant before its noise is drawn, through the metered primitives
 * (privacy/metered/), which charge the accountant's privacy meter; the meter is settled before the
 * schema is returned (each step charged exactly its share, a share left unused charged as spent), or
 * MeterMismatchError and nothing is returned. The schema records exactly what the steps spent.
 * Declared facts are kept and not learned again. Throws InputError, before any draw,
 * for a budget that cannot pay for the facts asked (δ = 0 with a category list to learn, an
 * unknown column).
 */
/**
 * The checks and the plan of a learning of `schema` on n rows, from public facts only (n, ε, δ,
 * the grid, the quantiles, what the schema declares): what learnDomain does before it reads a
 * cell, and what a command or the studio shows before anything is spent. Throws InputError for a
 * budget that cannot pay for the facts asked (δ = 0 with a category list to learn, an unknown
 * column, a bad share); never refuses for quality (the plan's `failing` says that).
 */
export function planLearning(
  schema: Schema,
  n: number,
  options: Omit<LearnDomainOptions, 'learnedAt' | 'force' | 'signal'>,
) {
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
  if (Object.values(shares).some((w) => !(Number.isInteger(w) && w >= 1))) {
    throw new InputError('each column share of the domain budget must be a whole number >= 1.');
  }
  // The plan, from public facts only (n, ε, δ, the grid, what the schema declares): nothing below
  // reads a cell before it has passed.
  const plan = planDomain(schema, n, {
    epsilon: options.epsilon,
    delta: options.delta,
    columns: chosen.map((c) => c.name),
    ...(options.weights === undefined ? {} : { weights: options.weights }),
    quantiles: [quantiles[0]!, quantiles[1]!],
    candidates: grid.length,
  });
  return { plan, chosen, epsilon, delta, quantiles, grid };
}

export function learnDomain(
  raw: TableSource,
  schema: Schema,
  options: LearnDomainOptions,
  rng: Rng,
): LearnDomainResult {
  const { plan, chosen, epsilon, delta, quantiles, grid } = planLearning(schema, raw.nRows, options);
  if (plan.failing.length > 0 && options.force !== true) throw new DomainPlanRefused(plan);
  // Domain learning uses n (public under replace-one only): its steps are metered under replace-one.
  const meter = new PrivacyMeter('replace-one');
  const accountant = new Accountant({ epsilon, delta }, meter);
  const steps: DomainStep[] = [];
  const warnings: string[] = [];
  if (plan.failing.length > 0)
    warnings.push(`learned below the plan's floors (forced): ${failingLine(plan)}`);
  const learned = new Map<string, ColumnSchema>();
  for (const columnPlan of plan.columns) {
    throwIfAborted(options.signal);
    const column = chosen.find((c) => c.name === columnPlan.name)!;
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
    learned.set(column.name, learnColumn(column, tokens, columnPlan, ctx));
  }
  // Claim = spend: every planned step charged exactly its cost, and the recorded steps are the
  // planned ones (words and rounded costs); otherwise MeterMismatchError and no schema.
  meter.settle(
    steps.map((step) => ({
      what: step.what,
      epsilon: roundUpRational(parseRational(step.epsilon)),
      delta: roundUpRational(parseRational(step.delta)),
    })),
  );
  const columns = schema.columns.map((c) => learned.get(c.name) ?? c);
  return {
    schema: {
      ...schema,
      columns,
      domainBudget: mergedBudget(schema.domainBudget, steps, rng.seeded, options.learnedAt),
    },
    steps,
    warnings,
    plan,
  };
}

/** The failing facts in one line, for a forced learning's warning. */
function failingLine(plan: DomainPlan): string {
  return plan.failing.map((f) => `${f.fact}: ${f.quality.text}`).join('; ');
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

/** Reserves a step on the metered accountant, records it, and returns its handle for the draw. */
function spend(
  ctx: StepContext,
  fact: string,
  what: string,
  epsilon: Rational,
  delta = Rational.ZERO,
): MeterStep {
  const step = ctx.accountant.reserve(what, epsilon, delta);
  ctx.steps.push({ fact, what, epsilon: exactDecimal(epsilon), delta: exactDecimal(delta) });
  return step;
}

/**
 * One column's facts with the shares of its plan (domain-plan.ts). When the type is learned, its
 * step reserves the column's δ (for the category list the type may call for) and both paths spend
 * the same ε whichever type comes out (numeric: the bounds and the flag with their shares;
 * categorical: the list with their sum; a path whose facts are declared leaves that sum unused,
 * still reserved and stated), so the claim never depends on which type the noise chose. A fact the
 * plan predicted below its floor (learned with `force`) says so in its step.
 */
function learnColumn(
  column: ColumnSchema,
  tokens: string[],
  plan: ColumnPlan,
  ctx: StepContext,
): ColumnSchema {
  const name = column.name;
  let current = column;
  const planned = (part: PlannedFact['part']) => plan.facts.find((f) => f.part === part);
  // The learned type's step, which also holds the δ of the category list its noise may call for.
  let typeStep: MeterStep | undefined;
  let typeDeltaDrawn = false;
  if (plan.learnsType) {
    const typeFact = planned('type')!;
    let numbers = 0;
    let words = 0;
    for (const token of tokens) {
      if (ctx.missing.has(token)) continue;
      if (isNumericToken(token)) numbers++;
      else words++;
    }
    typeStep = spend(
      ctx,
      `${name}.type`,
      `type of \`${name}\`: numeric when a noisy majority of its cells read as numbers (discrete Laplace, ` +
        `Δ = 2)${typeFact.delta.isZero() ? '' : '; δ reserved for its category list, should it be categorical'}` +
        belowFloor(typeFact),
      typeFact.epsilon,
      typeFact.delta,
    );
    const numeric = dpMajority(typeStep, ctx.rng, numbers, words, typeFact.epsilon);
    const type = numeric ? 'numeric' : 'categorical';
    // The learned type agrees with the column: its declared facts stay. Otherwise none applies.
    current = type === column.type ? column : { name, type, source: 'dp' };
  }
  const learnedParts: SchemaPart[] = plan.learnsType ? ['type'] : [];
  const unused = (what: string, epsilon: Rational) =>
    chargeUnusedShare(
      spend(ctx, `${name}.type`, `share of \`${name}\`'s budget left unused: its ${what} declared`, epsilon),
      epsilon,
    );
  if (current.type === 'numeric') {
    const facts = plan.facts.filter((f) => f.part === 'lower' || f.part === 'upper' || f.part === 'integer');
    if (plan.learnsType && facts.length === 0) unused('bounds and whole-number flag are', plan.unusedNumeric);
    current = learnNumeric(current, tokens, facts, ctx);
    learnedParts.push(...facts.map((f) => f.part as SchemaPart));
  } else {
    const list = planned('categories');
    if (list === undefined) {
      if (plan.learnsType) unused('list of categories is', plan.unusedCategorical);
    } else {
      // With the type learned, the list's δ was reserved by the type step, and the list charges it there.
      current = learnCategories(current, tokens, list, typeStep, ctx);
      typeDeltaDrawn = typeStep !== undefined;
      learnedParts.push('categories');
    }
  }
  // The type came out numeric, or the list is declared: the δ the type step kept for a list is unused.
  const typeDelta = plan.learnsType ? planned('type')!.delta : Rational.ZERO;
  if (typeStep !== undefined && !typeDeltaDrawn && !typeDelta.isZero()) {
    chargeUnusedShare(typeStep, Rational.ZERO, typeDelta);
  }
  // Whether a column can be missing is not learned: a flag read from the data is dropped (absent, the
  // column keeps a missing level, as in older schemas); a declared one stays.
  if (current.canBeMissing !== undefined && partSource(current, 'canBeMissing') === 'inferred') {
    const { canBeMissing: _inferred, ...withoutFlag } = current;
    current = withoutFlag;
  }
  return withPartSources(current, learnedParts, 'dp');
}

/** For a fact learned below its floor (forced): the plan's prediction, stated in its step. */
function belowFloor(fact: PlannedFact): string {
  return fact.quality.meets
    ? ''
    : `; learned below the plan's floor (forced): predicted ${fact.quality.text}`;
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
  facts: PlannedFact[],
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
  ].flatMap((end) => {
    const fact = facts.find((f) => f.part === end.part);
    return fact === undefined ? [] : [{ ...end, fact }];
  });
  for (const end of ends) {
    const epsilon = end.fact.epsilon;
    // Public facts only (ε, the grid): m, the number of values present, is not.
    const safe = safeBoundRank(epsilon, grid.length);
    const side = end.part === 'lower' ? 'below' : 'above';
    const share = end.part === 'lower' ? end.q : Rational.ONE.sub(end.q);
    const step = spend(
      ctx,
      `${name}.${end.part}`,
      `${end.word} of \`${name}\`: about ⌈${formatRational(share)}·m⌉ of its m values present ${side} it ` +
        `(quantile ${formatRational(end.q)}, at most m/4), exponential mechanism over ${grid.length} readable ` +
        `values in ${range} (Δ = 1 row) whose score also asks for one more value per grid cell inward, up to ` +
        `s = ${safe} = ⌈(2/ε)·ln(${grid.length}/${FAR_BOUND_PROBABILITY})⌉ values, so that where the data hold ` +
        `that many, every bound s or more grid cells beyond the data together has probability at most ` +
        `${FAR_BOUND_PROBABILITY}; with fewer than s values present, or a sparser tail, a bound far beyond ` +
        `the data becomes likelier, and a sparser tail moves the bound inward` +
        belowFloor(end.fact),
      epsilon,
    );
    const index = dpBoundIndex(step, ctx.rng, sorted, end.q, grid, end.part, epsilon);
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
  const flag = facts.find((f) => f.part === 'integer');
  if (flag !== undefined) {
    const epsilon = flag.epsilon;
    const threshold = wholeNumberThreshold(n, epsilon);
    const beta = formatRational(WHOLE_MISSED_PROBABILITY);
    const flagStep = spend(
      ctx,
      `${name}.integer`,
      `whole-number flag of \`${name}\`: set when the noisy count of its values that are not whole ` +
        `(discrete Laplace, Δ = 1) is below T = ${threshold}, the larger of ${wholeNumberRowThreshold(n)} ` +
        `(0.5 % of the ${n} rows, rounded up) and ${wholeNumberBudgetThreshold(epsilon)} (the least T with ` +
        `e^(−ε·T) <= ${beta}), so a whole column is taken for fractional with probability at most ${beta}, ` +
        `and a column with fewer than about ${threshold} values that are not whole is called whole and rounded` +
        belowFloor(flag),
      epsilon,
    );
    integer = dpWholeNumber(flagStep, ctx.rng, nonWhole, threshold, epsilon);
  }
  const { bounds: _b, integer: _i, ...rest } = column;
  return {
    ...rest,
    ...(lower !== undefined && upper !== undefined ? { bounds: [lower, upper] as [number, number] } : {}),
    ...(integer === undefined ? {} : { integer }),
  };
}

/**
 * The list with its planned ε and δ; `typeStep`, when the type was learned, reserved the list's δ and
 * is charged it (this step then reserves δ = 0).
 */
function learnCategories(
  column: ColumnSchema & { type: 'categorical' },
  tokens: string[],
  fact: PlannedFact,
  typeStep: MeterStep | undefined,
  ctx: StepContext,
): ColumnSchema {
  const charged = typeStep === undefined ? fact.listDelta : Rational.ZERO;
  const name = column.name;
  const counts = new Map<string, number>();
  for (const token of tokens) {
    if (ctx.missing.has(token)) continue;
    counts.set(token, (counts.get(token) ?? 0) + 1);
  }
  const threshold = thresholdFor(fact.epsilon, fact.listDelta);
  const listStep = spend(
    ctx,
    `${name}.categories`,
    `categories of \`${name}\`: the values whose noisy count (discrete Laplace, Δ = 2) reaches ${threshold}; ` +
      `the others become "${OTHER_LEVEL}" (δ = ${formatRational(fact.listDelta)})` +
      belowFloor(fact),
    fact.epsilon,
    charged,
  );
  const kept = dpCategories(listStep, ctx.rng, counts, fact.epsilon, threshold, fact.listDelta, typeStep)
    .filter((value) => value !== OTHER_LEVEL)
    .sort(compareByCodePoint);
  const { categories: _c, other: _o, ...rest } = column;
  return { ...rest, categories: [...kept, OTHER_LEVEL], other: OTHER_LEVEL };
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
