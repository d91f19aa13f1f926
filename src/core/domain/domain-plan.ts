import { formatRational } from '../privacy/format-rational';
import { roundDownRational, roundUpRational } from '../privacy/round-up';
import { parseRational, Rational } from '../rng/rational';
import { columnParts, partSource } from '../table/schema-facts';
import type { ColumnSchema, Schema, SchemaPart } from '../table/types';
import { quantileRows, type BoundEnd } from './dp-quantile';
import {
  BEYOND_DATA_FLOOR,
  beyondRowsFloor,
  leastEpsilon,
  listedCountFloor,
  predictedBeyondData,
  predictedListedCount,
  predictedRowsBeyond,
  predictedTypeRight,
  predictedWholeThreshold,
  roundUpSignificant,
  TYPE_RIGHT_FLOOR,
  typeMargin,
  wholeThresholdFloor,
} from './fact-quality';

/**
 * The plan of a domain learning, made before any data is read from public facts only: the number of
 * rows n (public under replace-one), ε and δ, the quantiles and the number of search candidates,
 * the columns to learn and what the schema declares. It gives each fact its share of the budget
 * and its predicted quality, and says whether every fact meets its floor (fact-quality.ts).
 *
 * The split follows need: each fact's need is the least ε at which it alone meets its floor
 * (fact-quality.ts, computed for this n), and the budget goes to the facts in proportion to their
 * needs (times the column's whole share from a split, 1 by default), so that when ε is the sum of
 * the needs every fact just meets its floor. A column whose type is learned pays for its type and
 * then for the needier of its two possible paths (numeric: the bounds and the whole-number flag it
 * does not declare; categorical: the list): the numeric facts share the path's budget in proportion
 * to their needs and the list takes all of it, so both paths spend the same and the claim never
 * depends on which type the noise chose. Declared facts take nothing. δ goes only to the columns
 * that may learn a list, in proportion to their split shares; a learned type reserves its column's
 * δ for the list it may call for. Every share is rounded down to 12 significant digits.
 */

export type PlannedPart = 'type' | 'lower' | 'upper' | 'integer' | 'categories';

export interface PredictedQuality {
  /** The predicted value: probability, rows beyond, threshold rows or count, per part. */
  value: number;
  /** The floor it is compared with (the same unit). */
  floor: number;
  meets: boolean;
  /** One phrase for the plan's table, e.g. "type right with probability 0.9993". */
  text: string;
}

export interface PlannedFact {
  /** "column.part", as in the schema's domain steps. */
  fact: string;
  column: string;
  part: PlannedPart;
  /** With the type learned: the path this fact belongs to. */
  path: 'numeric' | 'categorical' | null;
  epsilon: Rational;
  /** δ this step reserves (the type step reserves its column's δ when the list may follow). */
  delta: Rational;
  /** δ the category list is learned with (its column's δ). */
  listDelta: Rational;
  /** ε this fact needs to meet its floor on its own (Infinity when no ε does). */
  need: number;
  quality: PredictedQuality;
}

export interface ColumnPlan {
  name: string;
  learnsType: boolean;
  facts: PlannedFact[];
  /** Budget a path leaves unused because its fact is declared, reserved so both paths spend the same. */
  unusedNumeric: Rational;
  unusedCategorical: Rational;
}

export interface DomainPlan {
  n: number;
  epsilon: Rational;
  delta: Rational;
  columns: ColumnPlan[];
  facts: PlannedFact[];
  failing: PlannedFact[];
  /** The least ε (3 significant digits, rounded up) at which every fact meets its floor with this split. */
  epsilonNeeded: number;
  /** The same with the default split (need-based, no column shares), when a split was given. */
  epsilonNeededDefaultSplit: number | null;
  /** With the learned types declared instead: the ε needed if every such column were categorical … numeric. */
  epsilonNeededTypesDeclared: [number, number] | null;
}

export interface DomainPlanOptions {
  epsilon: string;
  delta: string;
  columns?: string[];
  weights?: Record<string, number>;
  quantiles: readonly [Rational, Rational];
  candidates: number;
}

const SHARE_DIGITS = 12;

function share(total: Rational, part: Rational, whole: Rational): Rational {
  if (total.isZero() || part.isZero() || whole.isZero()) return Rational.ZERO;
  return parseRational(roundDownRational(total.mul(part).div(whole), SHARE_DIGITS));
}

function rationalOf(x: number): Rational {
  return parseRational(String(x));
}

/** What a column learns: its type or not, and the undeclared facts of each path. */
interface ColumnNeeds {
  column: ColumnSchema;
  learnsType: boolean;
  numeric: ('lower' | 'upper' | 'integer')[];
  list: boolean;
}

function declared(column: ColumnSchema, part: SchemaPart): boolean {
  return columnParts(column).includes(part) && partSource(column, part) === 'declared';
}

/**
 * The facts a column learns, from what it declares (public): never from a type that is not
 * declared, so a column whose type is learned plans both paths whatever type the data suggests.
 */
export function columnNeeds(column: ColumnSchema): ColumnNeeds {
  const learnsType = !declared(column, 'type');
  const numericDeclared = (part: SchemaPart) => column.type === 'numeric' && declared(column, part);
  const numeric = (['lower', 'upper', 'integer'] as const).filter((part) => !numericDeclared(part));
  const listDeclared = column.type === 'categorical' && declared(column, 'categories');
  if (!learnsType) {
    return column.type === 'numeric'
      ? { column, learnsType, numeric, list: false }
      : { column, learnsType, numeric: [], list: !listDeclared };
  }
  return { column, learnsType, numeric, list: !listDeclared };
}

/** Whether a column has anything to learn. */
export function hasFactsToLearn(column: ColumnSchema): boolean {
  const needs = columnNeeds(column);
  return needs.learnsType || needs.numeric.length > 0 || needs.list;
}

interface Context {
  n: number;
  quantiles: readonly [Rational, Rational];
  candidates: number;
}

const needCache = new Map<string, number>();

/** The ε a part needs to meet its floor on its own (memoized per n, δ, quantile, K). */
function needOf(part: PlannedPart, ctx: Context, listDelta: Rational): number {
  const key = `${part}|${ctx.n}|${ctx.candidates}|${ctx.quantiles.join(',')}|${listDelta.toString()}`;
  const known = needCache.get(key);
  if (known !== undefined) return known;
  const need = leastEpsilon((epsilon) => qualityOf(part, epsilon, ctx, listDelta).meets);
  needCache.set(key, need);
  return need;
}

function percent(x: number): string {
  return `${Number((100 * x).toPrecision(2))} %`;
}

/** The predicted quality of a part learned with `epsilon`. */
export function qualityOf(
  part: PlannedPart,
  epsilon: Rational,
  ctx: Context,
  listDelta: Rational,
): PredictedQuality {
  const { n } = ctx;
  if (epsilon.isZero()) return { value: 0, floor: 0, meets: false, text: 'no budget' };
  if (part === 'type') {
    const right = predictedTypeRight(n, epsilon);
    const shown = right > 0.9999 ? '> 0.9999' : right.toFixed(4);
    return {
      value: right,
      floor: TYPE_RIGHT_FLOOR,
      meets: right >= TYPE_RIGHT_FLOOR,
      text: `type right with probability ${shown} (cells of one kind ahead by ${typeMargin(n)} rows)`,
    };
  }
  if (part === 'integer') {
    const t = predictedWholeThreshold(n, epsilon);
    const floor = wholeThresholdFloor(n);
    return {
      value: t,
      floor,
      meets: t <= floor,
      text: `called whole unless about ${t} values (${percent(t / n)} of rows) are not whole`,
    };
  }
  if (part === 'categories') {
    if (listDelta.isZero()) return { value: Infinity, floor: 0, meets: false, text: 'δ = 0: no list' };
    const listed = predictedListedCount(epsilon, listDelta);
    const floor = listedCountFloor(n);
    return {
      value: listed.count,
      floor,
      meets: listed.count <= floor,
      text:
        `a category held by ${listed.count} rows (${percent(listed.count / n)}) listed with probability 0.99` +
        ` (threshold ${listed.threshold})`,
    };
  }
  const end: BoundEnd = part;
  const q = part === 'lower' ? ctx.quantiles[0] : ctx.quantiles[1];
  // Two predictions, each for the column shape that is worse for it (fact-quality.ts): the rows
  // left beyond the bound, and the chance that the bound lies beyond all the data (a looser range).
  const { rows, rank } = predictedRowsBeyond(n, epsilon, ctx.candidates, q, end);
  const outside = predictedBeyondData(n, epsilon, ctx.candidates, q, end).probability;
  const floor = beyondRowsFloor(n, q, end);
  const outsideText =
    outside < 0.001 ? 'below 0.001' : `${Number(roundUpSignificant(outside, 2).toPrecision(2))}`;
  return {
    value: rows,
    floor,
    meets: rows <= floor && outside <= BEYOND_DATA_FLOOR,
    text:
      `about ${Number(rows.toPrecision(2))} rows (${percent(rows / n)}) beyond it (target ${rank}, ` +
      `${quantileRows(q, end, n)} at the quantile), beyond all the data with probability ${outsideText}`,
  };
}

/**
 * The plan of learning the undeclared facts of `schema`'s columns (all with such facts, or
 * `options.columns`) on n rows with (ε, δ): shares, predicted qualities, the facts below their
 * floors and the ε that would meet them. Public facts only. Throws RangeError for ε <= 0.
 */
export function planDomain(schema: Schema, n: number, options: DomainPlanOptions): DomainPlan {
  const epsilon = parseRational(options.epsilon);
  const delta = parseRational(options.delta);
  const ctx: Context = { n, quantiles: options.quantiles, candidates: options.candidates };
  const names = options.columns;
  const chosen = schema.columns
    .filter((c) => (names === undefined || names.includes(c.name)) && hasFactsToLearn(c))
    .map(columnNeeds);
  const weights = options.weights ?? {};
  const weightOf = (name: string) => (Object.hasOwn(weights, name) ? weights[name]! : 1);
  const build = (total: Rational, useWeights: boolean, typesDeclared: 'no' | 'numeric' | 'categorical') =>
    buildPlan(chosen, total, delta, ctx, useWeights ? weightOf : () => 1, typesDeclared);
  const plan = build(epsilon, true, 'no');
  const neededWith = (useWeights: boolean, typesDeclared: 'no' | 'numeric' | 'categorical') => {
    const passes = (x: number) =>
      build(rationalOf(roundUpSignificant(x, 6)), useWeights, typesDeclared).facts.every(
        (f) => f.quality.meets,
      );
    // A first guess from the shares at ε = 1 (they grow about linearly with ε), then bisection.
    const atOne = build(Rational.ONE, useWeights, typesDeclared);
    const guess = Math.max(
      1e-6,
      ...atOne.facts.map((f) => (f.need === 0 ? 0 : f.need / Math.max(f.epsilon.toNumberDown(), 1e-300))),
    );
    if (!Number.isFinite(guess) || guess > 1e6) return Infinity;
    let lo: number;
    let hi: number;
    if (passes(guess)) {
      hi = guess;
      lo = guess / 2;
      while (lo > 1e-6 && passes(lo)) [hi, lo] = [lo, lo / 2];
    } else {
      lo = guess;
      hi = guess * 2;
      while (!passes(hi)) {
        if (hi > 1e6) return Infinity;
        [lo, hi] = [hi, hi * 2];
      }
    }
    for (let i = 0; i < 14; i++) {
      const mid = Math.sqrt(lo * hi);
      if (passes(mid)) hi = mid;
      else lo = mid;
    }
    let needed = roundUpSignificant(hi, 3);
    while (!passes(needed)) needed = roundUpSignificant(needed * 1.001, 3);
    return needed;
  };
  const anyType = chosen.some((c) => c.learnsType);
  const hasWeights = Object.keys(weights).length > 0;
  const failing = plan.facts.filter((f) => !f.quality.meets);
  return {
    n,
    epsilon,
    delta,
    columns: plan.columns,
    facts: plan.facts,
    failing,
    epsilonNeeded: neededWith(true, 'no'),
    epsilonNeededDefaultSplit: hasWeights ? neededWith(false, 'no') : null,
    epsilonNeededTypesDeclared: anyType
      ? [neededWith(false, 'categorical'), neededWith(false, 'numeric')]
      : null,
  };
}

function buildPlan(
  chosen: ColumnNeeds[],
  epsilon: Rational,
  delta: Rational,
  ctx: Context,
  weightOf: (name: string) => number,
  typesDeclared: 'no' | 'numeric' | 'categorical',
): { columns: ColumnPlan[]; facts: PlannedFact[] } {
  // With the types declared (an alternative the plan reports), a learned type becomes one path.
  const columns = chosen.map((c): ColumnNeeds => {
    if (typesDeclared === 'no' || !c.learnsType) return c;
    return typesDeclared === 'numeric'
      ? { ...c, learnsType: false, list: false }
      : { ...c, learnsType: false, numeric: [] };
  });
  const mayList = columns.filter((c) => c.list);
  const deltaWhole = mayList.reduce((s, c) => s + weightOf(c.column.name), 0);
  const columnDelta = (c: ColumnNeeds) =>
    c.list ? share(delta, Rational.of(weightOf(c.column.name)), Rational.of(deltaWhole)) : Rational.ZERO;
  const needsOf = columns.map((c) => {
    const listDelta = columnDelta(c);
    const type = c.learnsType ? needOf('type', ctx, listDelta) : 0;
    const numeric = c.numeric.map((part) => needOf(part, ctx, listDelta));
    const list = c.list ? needOf('categories', ctx, listDelta) : 0;
    const numericSum = numeric.reduce((a, b) => a + b, 0);
    const path = c.learnsType ? Math.max(numericSum, list) : numericSum + list;
    return { listDelta, type, numeric, list, numericSum, total: type + path };
  });
  // Needs can be Infinity (no ε meets the floor): such a fact takes the share of a finite need of 1.
  const finite = (x: number) => (Number.isFinite(x) ? x : 1);
  // The types first: each gets its need when that is at most half the budget in all (they are
  // cheap, and every other fact of their column depends on them), else half the budget in
  // proportion to their needs. The paths share the rest in proportion to need times split share.
  const typeNeeds = rationalOf(needsOf.reduce((t, needs) => t + finite(needs.type), 0));
  const half = epsilon.div(Rational.of(2));
  const typeBudget = typeNeeds.compare(half) <= 0 ? typeNeeds : half;
  const pathTotal = epsilon.sub(typeBudget);
  const pathWeight = columns.map((c, i) =>
    rationalOf(finite(needsOf[i]!.total - needsOf[i]!.type) * weightOf(c.column.name)),
  );
  const pathWhole = pathWeight.reduce((a, b) => a.add(b), Rational.ZERO);
  const plans: ColumnPlan[] = [];
  const facts: PlannedFact[] = [];
  columns.forEach((c, i) => {
    const needs = needsOf[i]!;
    const name = c.column.name;
    const typeEpsilon = c.learnsType
      ? share(typeBudget, rationalOf(finite(needs.type)), typeNeeds)
      : Rational.ZERO;
    const pathBudget = share(pathTotal, pathWeight[i]!, pathWhole);
    const make = (
      part: PlannedPart,
      eps: Rational,
      need: number,
      path: PlannedFact['path'],
      reserved: Rational,
    ): PlannedFact => ({
      fact: `${name}.${part}`,
      column: name,
      part,
      path,
      epsilon: eps,
      delta: reserved,
      listDelta: needs.listDelta,
      need,
      quality: qualityOf(part, eps, ctx, needs.listDelta),
    });
    const columnFacts: PlannedFact[] = [];
    let unusedNumeric = Rational.ZERO;
    let unusedCategorical = Rational.ZERO;
    if (c.learnsType) {
      columnFacts.push(make('type', typeEpsilon, needs.type, null, needs.listDelta));
      const numericSum = rationalOf(needs.numeric.reduce((a, b) => a + finite(b), 0));
      let spent = Rational.ZERO;
      c.numeric.forEach((part, k) => {
        const eps = share(pathBudget, rationalOf(finite(needs.numeric[k]!)), numericSum);
        spent = spent.add(eps);
        columnFacts.push(make(part, eps, needs.numeric[k]!, 'numeric', Rational.ZERO));
      });
      // Both paths spend the same: the list takes what the numeric facts take (all the path's
      // budget when they are all declared), and a declared path leaves its budget unused.
      const pathSpend = c.numeric.length > 0 ? spent : pathBudget;
      if (c.numeric.length === 0) unusedNumeric = pathSpend;
      if (c.list) columnFacts.push(make('categories', pathSpend, needs.list, 'categorical', Rational.ZERO));
      else unusedCategorical = pathSpend;
    } else {
      const factsNeed = rationalOf(needs.numeric.reduce((a, b) => a + finite(b), 0) + finite(needs.list));
      c.numeric.forEach((part, k) => {
        const eps = share(pathBudget, rationalOf(finite(needs.numeric[k]!)), factsNeed);
        columnFacts.push(make(part, eps, needs.numeric[k]!, null, Rational.ZERO));
      });
      if (c.list) {
        const eps = share(pathBudget, rationalOf(finite(needs.list)), factsNeed);
        columnFacts.push(make('categories', eps, needs.list, null, needs.listDelta));
      }
    }
    plans.push({ name, learnsType: c.learnsType, facts: columnFacts, unusedNumeric, unusedCategorical });
    facts.push(...columnFacts);
  });
  return { columns: plans, facts };
}

/** "2.34" for a need or an ε needed; "no ε" for Infinity. */
export function formatNeed(x: number): string {
  return Number.isFinite(x) ? String(x) : 'no ε';
}

/** The plan as a table of text rows: fact, share of ε, predicted quality, and whether it meets its floor. */
export function planTable(plan: DomainPlan): string[][] {
  const total = plan.epsilon.toNumberDown();
  return plan.facts.map((f) => [
    f.fact + (f.path === null ? '' : ` (if ${f.path})`),
    // A share is what the fact spends: printed rounded up, never below it (its percentage is only a guide).
    `${roundUpRational(f.epsilon, 3)} (${Number(((100 * f.epsilon.toNumberDown()) / total).toPrecision(2))} %)`,
    f.quality.text,
    f.quality.meets ? 'ok' : 'below floor',
  ]);
}

/** The table laid out in columns for a terminal. */
export function formatPlanTable(plan: DomainPlan): string {
  const rows = [['fact', 'ε (share)', 'predicted quality', 'floor'], ...planTable(plan)];
  const widths = rows[0]!.map((_, j) => Math.max(...rows.map((r) => r[j]!.length)));
  return rows
    .map((r) =>
      r
        .map((cell, j) => cell.padEnd(widths[j]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/**
 * Why the plan refuses and what would do instead: the facts below their floors, the ε that would
 * meet them with this split, and the alternatives (the default split, declared types, fewer facts),
 * cheapest first. Public facts only.
 */
export function refusalMessage(plan: DomainPlan, forceHint = true): string {
  const alternatives: { epsilon: number; text: string }[] = [
    { epsilon: plan.epsilonNeeded, text: `spend ε = ${formatNeed(plan.epsilonNeeded)} with this split` },
  ];
  if (plan.epsilonNeededDefaultSplit !== null) {
    alternatives.push({
      epsilon: plan.epsilonNeededDefaultSplit,
      text: `drop the split: ε = ${formatNeed(plan.epsilonNeededDefaultSplit)} with shares that follow need`,
    });
  }
  if (plan.epsilonNeededTypesDeclared !== null) {
    const [low, high] = plan.epsilonNeededTypesDeclared;
    alternatives.push({
      epsilon: high,
      text:
        `declare the column types: then ε = ${formatNeed(low)} (all categorical) to ${formatNeed(high)} ` +
        '(all numeric) meets the floors',
    });
  }
  alternatives.sort((a, b) => a.epsilon - b.epsilon);
  return (
    `ε = ${formatRational(plan.epsilon)} is too small to learn this domain on ${plan.n} rows: ` +
    `${failingSummary(plan)}. Nothing was read from the data and nothing was spent. ` +
    `Cheapest first: ${alternatives.map((a) => a.text).join('; or ')}; or declare these facts ` +
    '(public knowledge costs nothing) and learn fewer.' +
    (forceHint ? ' --force learns anyway and records the warnings in the schema.' : '')
  );
}

const PART_WORDS: Record<PlannedPart, [string, string]> = {
  type: ['type', 'types'],
  lower: ['lower bound', 'lower bounds'],
  upper: ['upper bound', 'upper bounds'],
  integer: ['whole-number flag', 'whole-number flags'],
  categories: ['category list', 'category lists'],
};

/** The facts below their floors, grouped by part, each group with its worst predicted quality. */
export function failingSummary(plan: DomainPlan): string {
  const groups = (Object.keys(PART_WORDS) as PlannedPart[])
    .map((part) => plan.failing.filter((f) => f.part === part))
    .filter((group) => group.length > 0);
  return groups
    .map((group) => {
      const part = group[0]!.part;
      const worse = part === 'type' ? (a: number, b: number) => a < b : (a: number, b: number) => a > b;
      const worst = group.reduce((w, f) => (worse(f.quality.value, w.quality.value) ? f : w));
      const columns = group.map((f) => `\`${f.column}\``).join(', ');
      const [one, many] = PART_WORDS[part];
      return `the ${group.length === 1 ? one : many} of ${columns} (${worst.quality.text}; ${floorText(part, worst.quality.floor, plan.n)})`;
    })
    .join('; ');
}

/** The floor in words. */
export function floorText(part: PlannedPart, floor: number, n: number): string {
  switch (part) {
    case 'type':
      return `floor: right with probability ${floor}`;
    case 'integer':
      return `floor: at most ${floor} values not whole unseen`;
    case 'categories':
      return `floor: a category held by ${floor} of the ${n} rows listed`;
    default:
      return (
        `floor: at most ${Number(floor.toPrecision(3))} rows beyond it, and beyond all the data with ` +
        `probability at most ${BEYOND_DATA_FLOOR}`
      );
  }
}

/** What a page shows of a plan: plain values only (it crosses a worker boundary). */
export interface DomainPlanView {
  n: number;
  /** Rows of the plan's table: fact, share of ε, predicted quality, "ok" or "below floor". */
  rows: string[][];
  /** Why the plan refuses (the facts below their floors and what would do instead), or null. */
  refusal: string | null;
  epsilonNeeded: number;
}

export function planView(plan: DomainPlan): DomainPlanView {
  return {
    n: plan.n,
    rows: planTable(plan),
    refusal: plan.failing.length > 0 ? refusalMessage(plan, false) : null,
    epsilonNeeded: plan.epsilonNeeded,
  };
}
