import { parseBudget } from '../../privacy/budget';
import type { PlausibleDeniabilityTest } from '../../privacy/plausible-deniability-cost';
import { parseRational, Rational } from '../../rng/rational';
import type { Schema } from '../../table/types';
import { planBinnedDomain, type BinnedDomain } from '../common/binning/binned-domain';
import { binningChoiceFromParams } from '../common/coding/binning-params';
import { DOMAIN_CELL_LIMIT } from '../common/coding/column-coding';
import { formatCount } from '../../format/format-count';
import type { ParamValues, PublicContext } from '../types';
import { planDrawBudget, type DrawBudget } from './draw-budget';
import { pdSettings, type PdSettings } from './params';

/**
 * Everything `check`, `claim`, `describe` and `run` share, from the schema, the parameters and the
 * public context only: the coded domain (bkt() of eq. 7: bins or categories and a missing level per
 * column), the part sizes, ω's range, the cost limits and the per-draw budget. Page-safe.
 */

export const PLAUSIBLE_DENIABILITY_ID = 'plausible-deniability';

/** The largest auto cost limit (rows of one conditional table). */
const AUTO_MAX_COST_CAP = 100_000;

export interface PartSizes {
  /** n_T = ⌊n·structureShare⌋ rows learn the structure. */
  structure: number;
  /** n_P = ⌊n·parameterShare⌋ rows learn the conditional tables. */
  parameters: number;
  /** n_S = n − n_T − n_P seeds. */
  seeds: number;
}

export interface PdPlan {
  id: typeof PLAUSIBLE_DENIABILITY_ID;
  domain: BinnedDomain;
  settings: PdSettings;
  /** Attributes (columns). */
  m: number;
  /** Levels per attribute, the missing level included. */
  levels: number[];
  /** ω is uniform on [omegaMin, omegaMax] (resolved defaults). */
  omegaMin: number;
  omegaMax: number;
  /** Known with n. */
  sizes?: PartSizes;
  /** ε_M of the structure and of the parameters; known with ε. */
  modelEpsilon?: Rational;
  /** The cost limit (eq. 6) of each attribute's parent configurations; known with n and ε. */
  maxCost?: number[];
  /** Known with n, ε, δ and M. */
  draws?: DrawBudget;
  problems: string[];
}

/** Part sizes: floors of n × share (the structure at least 2 rows when n allows), seeds the rest. */
export function partSizes(n: number, settings: PdSettings): PartSizes {
  const structure = Math.min(Math.max(2, Math.floor(n * settings.structureShare)), n);
  const parameters = Math.floor(n * settings.parameterShare);
  return { structure, parameters, seeds: n - structure - parameters };
}

/** ⌊n_P/(|x_i|·max(20, 8m/ε_M))⌋ within [1, 100,000]: tables with enough rows per cell beside the noise. */
export function autoMaxCost(parameterRows: number, levels: number, m: number, modelEpsilon: number): number {
  const raw = Math.floor(parameterRows / (levels * Math.max(20, (8 * m) / modelEpsilon)));
  return Math.min(AUTO_MAX_COST_CAP, Math.max(1, raw));
}

/**
 * The most cells the conditional tables can have, Σ_i |x_i|·min(maxCost_i, product of the
 * maxParents largest other level counts): public, so `check` can refuse before a run.
 */
export function worstCaseTableCells(
  levels: readonly number[],
  maxParents: number,
  maxCost: readonly number[],
): number {
  let total = 0;
  levels.forEach((own, i) => {
    const others = levels.filter((_, j) => j !== i).sort((a, b) => b - a);
    let product = 1;
    for (let a = 0; a < Math.min(maxParents, others.length); a++) product *= others[a]!;
    total += own * Math.min(maxCost[i]!, product);
  });
  return total;
}

const PART_NAMES: Record<keyof PartSizes, string> = {
  structure: 'structure part (`structureShare`)',
  parameters: 'parameter part (`parameterShare`)',
  seeds: 'seed part (the rows left after `structureShare` and `parameterShare`)',
};

export function planPlausibleDeniability(
  schema: Schema,
  params: ParamValues,
  context?: Partial<PublicContext>,
): PdPlan {
  const settings = pdSettings(params);
  const n = context?.n;
  const domain = planBinnedDomain(schema, binningChoiceFromParams(params), n, false);
  const problems = [...domain.problems];
  const m = domain.codings.length;
  const levels = domain.codings.map((coding) => coding.levels);
  const omegaMin = settings.omegaMin > 0 ? settings.omegaMin : Math.max(1, m - 2);
  const omegaMax = settings.omegaMax > 0 ? settings.omegaMax : m;
  const plan: PdPlan = {
    id: PLAUSIBLE_DENIABILITY_ID,
    domain,
    settings,
    m,
    levels,
    omegaMin,
    omegaMax,
    problems,
  };
  if (m > 0 && (omegaMin > m || omegaMax > m)) {
    problems.push(
      `\`omegaMin\` and \`omegaMax\` must lie in 1..${m} (the number of columns); got ${omegaMin} and ${omegaMax}: lower them or set 0 for the defaults.`,
    );
  } else if (omegaMin > omegaMax) {
    problems.push(
      `\`omegaMin\` (${omegaMin}) exceeds \`omegaMax\` (${omegaMax}): set omegaMin at most omegaMax.`,
    );
  }
  if (n !== undefined) {
    const sizes = partSizes(n, settings);
    plan.sizes = sizes;
    for (const part of ['structure', 'parameters', 'seeds'] as const) {
      if (sizes[part] < 2) {
        problems.push(
          `the ${PART_NAMES[part]} has ${sizes[part]} row${sizes[part] === 1 ? '' : 's'} of n = ${n}; ` +
            'each part needs at least 2: change the shares or use more rows.',
        );
      }
    }
  }
  if (context?.epsilon === undefined) return plan;
  let epsilon: Rational;
  let delta: Rational;
  try {
    ({ epsilon, delta } = parseBudget(context.epsilon, context.delta));
  } catch {
    return plan; // the budget form reports an unreadable budget itself
  }
  const modelEpsilon = settings.modelEpsilon > 0 ? parseRational(settings.modelEpsilon) : epsilon;
  plan.modelEpsilon = modelEpsilon;
  if (modelEpsilon.compare(epsilon) > 0) {
    problems.push(
      `\`modelEpsilon\` = ${settings.modelEpsilon} exceeds ε = ${epsilon.toNumber()}: set it to at most ε, or 0 for ε.`,
    );
  }
  if (delta.isZero()) {
    problems.push('plausible-deniability needs δ > 0: its privacy test is (ε, δ)-DP.');
  }
  if (plan.sizes && m > 0) {
    plan.maxCost = levels.map((own) =>
      settings.maxCost > 0
        ? settings.maxCost
        : autoMaxCost(plan.sizes!.parameters, own, m, modelEpsilon.toNumberDown()),
    );
    const cells = worstCaseTableCells(levels, settings.maxParents, plan.maxCost);
    if (cells > DOMAIN_CELL_LIMIT) {
      problems.push(
        `the conditional tables could reach ${formatCount(cells)} cells, above ${formatCount(DOMAIN_CELL_LIMIT)}: ` +
          'lower `maxCost` or `maxParents`, or choose fewer bins.',
      );
    }
  }
  const releases = context.releases;
  if (n !== undefined && releases !== undefined && !delta.isZero() && plan.sizes && plan.sizes.seeds >= 1) {
    const drawPlan = planDrawBudget(n * releases, epsilon, delta, settings.k, plan.sizes.seeds);
    if ('budget' in drawPlan) plan.draws = drawPlan.budget;
    else problems.push(drawPlan.problem);
  }
  return plan;
}

/**
 * The privacy test's numbers (k, t, ε0, n_S and the fallback coin p_f = t/(t + n_S)): what the run hands
 * the metered test and what the reservation charges, T times its cost (privacy/plausible-deniability-cost.ts).
 */
export function seedTestOf(plan: { draws: DrawBudget; sizes: PartSizes }): PlausibleDeniabilityTest {
  return {
    k: plan.draws.k,
    t: plan.draws.t,
    testEpsilon: plan.draws.testEpsilon,
    seeds: plan.sizes.seeds,
    fallbackNum: plan.draws.t,
    fallbackDen: plan.draws.t + plan.sizes.seeds,
  };
}

/** p_f = t/(t + n_S): the probability that a slot skips its seed. */
export function fallbackProbability(plan: PdPlan): { num: number; den: number } | undefined {
  if (!plan.draws || !plan.sizes) return undefined;
  return { num: plan.draws.t, den: plan.draws.t + plan.sizes.seeds };
}
