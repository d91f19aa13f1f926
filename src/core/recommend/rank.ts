import { resolveParams } from '../mechanisms/params';
import type {
  GoalFit,
  MechanismFit,
  MechanismMeta,
  ParamValues,
  PublicContext,
  SynthesisGoal,
} from '../mechanisms/types';
import { defaultDelta } from '../privacy/default-delta';
import type { Schema } from '../table/types';
import { crossTabulationCells, formatCells, tableFacts, type TableFacts } from './facts';
import { goalWords } from './goals';

/** What a recommendation is asked: public facts and the goal, never the data. */
export interface RecommendRequest {
  schema: Schema;
  /** n, public under replace-one. */
  rows: number;
  /** ε and δ as the user gave them (decimal strings or numbers). */
  epsilon: string | number;
  delta: string | number;
  goal: SynthesisGoal;
  /** The categorical column a model is to predict (goal train-model), if named. */
  label?: string | null;
}

export interface RankedMechanism {
  id: string;
  label: string;
  /** Fit to the goal and the table's public facts; higher is better (10 per goal strength, −6 per unmet condition). */
  score: number;
  /** One line: why it ranks where it does, quoting the measured figure when there is one. */
  reason: string;
  /** Public facts of this table outside where the mechanism is good, one phrase each. */
  unmet: string[];
  /** check() sentences with the suggested settings: why it cannot run; empty when it can. */
  problems: string[];
  /** Settings the reason's figure used that differ from the defaults (e.g. MODIPS's model). */
  params: ParamValues;
  /**
   * The δ it runs at when it needs δ > 0 and none was set: the documented default from the public n
   * (privacy/default-delta.ts), as the studio's run and `dpsynth synth` use; null otherwise.
   */
  defaultDelta: string | null;
  /** Among the first two that can run and score at least RECOMMEND_THRESHOLD. */
  recommended: boolean;
}

export interface Recommendation {
  goal: SynthesisGoal;
  facts: TableFacts;
  /** Cells of the full cross-tabulation in the default coding; null when not every column states its levels. */
  cells: number | null;
  /**
   * Columns whose schema facts are still `inferred` (read from the data, not private): the ranking
   * uses them as check() and the claim do, so it is from public facts only once they are declared or
   * learned with DP.
   */
  inferredColumns: string[];
  /** Every mechanism: those that can run first, each group by score, ties in catalogue order. */
  ranking: RankedMechanism[];
}

/** Points per level of goal strength and per condition of the fit this table does not meet. */
const GOAL_POINTS = 10;
const UNMET_PENALTY = 6;
/**
 * A score below this is no recommendation: the goal is served weakly (strength 1), or served with a
 * condition of the table unmet (strength 2), or with two unmet (strength 3).
 */
export const RECOMMEND_THRESHOLD = 20;

const count = (value: number) => value.toLocaleString('en-US');

/** The phrases of the table's public facts that fall outside `fit`, e.g. "this table has 14 columns (good up to 5)". */
export function unmetConditions(fit: MechanismFit, facts: TableFacts, cells: number | null): string[] {
  const unmet: string[] = [];
  const { rows, columns, epsilon } = facts;
  if (fit.rows?.min !== undefined && rows < fit.rows.min)
    unmet.push(`this table has ${count(rows)} rows (good from ${count(fit.rows.min)})`);
  if (fit.rows?.max !== undefined && rows > fit.rows.max)
    unmet.push(`this table has ${count(rows)} rows (good up to ${count(fit.rows.max)})`);
  if (fit.columns?.min !== undefined && columns.length < fit.columns.min)
    unmet.push(
      `this table has ${columns.length} column${columns.length === 1 ? '' : 's'} (good from ${fit.columns.min})`,
    );
  if (fit.columns?.max !== undefined && columns.length > fit.columns.max)
    unmet.push(`this table has ${columns.length} columns (good up to ${fit.columns.max})`);
  if (fit.kinds !== undefined) {
    const other = columns.filter((column) => column.kind !== fit.kinds).length;
    if (other > 0) {
      const kind = fit.kinds === 'numeric' ? 'categorical' : 'numeric';
      unmet.push(`made for ${fit.kinds} columns and this table has ${other} ${kind}`);
    }
  }
  if (fit.maxCellsPerRow !== undefined && cells !== null && cells > fit.maxCellsPerRow * rows)
    unmet.push(`its full cross-tabulation has ${formatCells(cells)} cells for ${count(rows)} rows`);
  if (fit.epsilon?.min !== undefined && epsilon < fit.epsilon.min)
    unmet.push(`measured to do well from ε = ${fit.epsilon.min}; here ε = ${epsilon}`);
  if (fit.epsilon?.max !== undefined && epsilon > fit.epsilon.max)
    unmet.push(`made for ε up to ${fit.epsilon.max}; here ε = ${epsilon}`);
  return unmet;
}

/** "why: figure, on table." — the goal fit in one clause, with its measured figure when there is one. */
function goalClause(goalFit: GoalFit): string {
  const measured = goalFit.measured;
  return measured === undefined ? goalFit.why : `${goalFit.why}: ${measured.figure} on ${measured.table}`;
}

function reasonFor(
  fit: MechanismFit | undefined,
  goalFit: GoalFit | undefined,
  goal: SynthesisGoal,
  unmet: string[],
): string {
  if (fit === undefined) return 'No measured fit is stated for this mechanism.';
  const head =
    goalFit === undefined ? `Not made to ${goalWords(goal)}; good for ${fit.goodFor}` : goalClause(goalFit);
  const tail = unmet.length === 0 ? '' : `; but ${unmet.join('; ')}`;
  const sentence = `${head}${tail}.`;
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

/** check() of one mechanism with its defaults (and the suggested settings), as sentences; never throws. */
function problemsOf(meta: MechanismMeta, params: ParamValues, context: PublicContext): string[] {
  try {
    return meta.check(context.schema, resolveParams(meta, params), context);
  } catch (error) {
    return [error instanceof Error ? error.message : String(error)];
  }
}

/**
 * Ranks the catalogue for a table and a goal from public facts only: the schema's kinds, categories
 * and bounds, n, ε, δ and the label's name. Each mechanism's `fit` gives the goals it serves (with
 * the figure a bench measured) and where it is good; every condition the table does not meet costs
 * points and is said. Mechanisms whose check() fails with the suggested settings go last, with the
 * reason. The first two that can run and score at least RECOMMEND_THRESHOLD are recommended. Pure:
 * the same request gives the same answer, whatever the data's values.
 */
export function recommendMechanisms(
  request: RecommendRequest,
  catalogue: readonly MechanismMeta[],
): Recommendation {
  const label = request.label?.trim() ? request.label.trim() : null;
  const facts = tableFacts(
    request.schema,
    request.rows,
    Number(request.epsilon),
    Number(request.delta),
    label,
  );
  const cells = crossTabulationCells(facts);
  const context: PublicContext = {
    n: request.rows,
    schema: request.schema,
    epsilon: request.epsilon,
    delta: request.delta,
    releases: 1,
    seeded: false,
  };
  const entries = catalogue.map((meta, index) => {
    const fit = meta.fit;
    let goalFit = fit?.goals[request.goal];
    const unmet = fit === undefined ? [] : unmetConditions(fit, facts, cells);
    if (fit?.needsLabel && request.goal === 'train-model' && label === null)
      unmet.push('name the label column to predict');
    const labelParam: ParamValues =
      label !== null && request.goal === 'train-model' && meta.params.some((p) => p.name === 'label')
        ? { label }
        : {};
    // No δ set: a mechanism that needs δ > 0 runs at the default δ from the public n, as a run does.
    const runDelta =
      fit?.needsDelta === true && Number(request.delta) === 0 ? defaultDelta(request.rows).delta : null;
    const ownContext = runDelta === null ? context : { ...context, delta: runDelta };
    let params: ParamValues = { ...goalFit?.params, ...labelParam };
    let problems = problemsOf(meta, params, ownContext);
    // Settings the goal's figure used that this schema cannot take (e.g. MODIPS's glom without a
    // numeric column): the figure does not apply, so the mechanism is judged with its defaults.
    if (problems.length > 0 && goalFit?.params !== undefined) {
      const withDefaults = problemsOf(meta, labelParam, ownContext);
      if (withDefaults.length === 0) {
        goalFit = undefined;
        params = labelParam;
        problems = withDefaults;
      }
    }
    const score = (goalFit?.strength ?? 0) * GOAL_POINTS - UNMET_PENALTY * unmet.length;
    const ranked: RankedMechanism = {
      id: meta.id,
      label: meta.label,
      score,
      reason:
        reasonFor(fit, goalFit, request.goal, unmet) +
        (runDelta === null ? '' : ` δ is not set, so it runs at the default δ = ${runDelta}.`),
      unmet,
      problems,
      params,
      defaultDelta: runDelta,
      recommended: false,
    };
    return { ranked, index };
  });
  entries.sort((a, b) => {
    const runnable = Number(a.ranked.problems.length > 0) - Number(b.ranked.problems.length > 0);
    return runnable !== 0 ? runnable : b.ranked.score - a.ranked.score || a.index - b.index;
  });
  let marked = 0;
  for (const { ranked } of entries) {
    if (marked < 2 && ranked.problems.length === 0 && ranked.score >= RECOMMEND_THRESHOLD) {
      ranked.recommended = true;
      marked += 1;
    }
  }
  const inferredColumns = request.schema.columns.filter((c) => c.source === 'inferred').map((c) => c.name);
  return {
    goal: request.goal,
    facts,
    cells,
    inferredColumns,
    ranking: entries.map((e) => e.ranked),
  };
}
