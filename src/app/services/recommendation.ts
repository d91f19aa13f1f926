import { useEffect, useMemo, useState } from 'react';
import { MECHANISM_CATALOGUE } from '../../core/mechanisms/catalogue';
import { deltaAsTyped, parseJobBudget } from '../../core/job/job-budget';
import { jobRowCounts } from '../../core/job/job-row-counts';
import type { SynthesisGoal } from '../../core/recommend/goals';
import { recommendMechanisms, type Recommendation } from '../../core/recommend/rank';
import type { Schema } from '../../core/table/types';
import { useDataStore } from '../state/data-store';
import { HOLDOUT_SHARE, useJobStore } from '../state/job-store';
import { useSchemaStore } from '../state/schema-store';

/** What the Mechanism step's recommendation reads: public facts and the person's goal, never rows. */
export interface StudioRecommendationInputs {
  schema: Schema | null;
  /** Rows of the loaded table (its summary's count; the rows stay in the data worker). */
  nRows: number | null;
  /** Share kept back as a test set: the mechanism then sees jobRowCounts(nRows, share).seen rows. */
  holdoutShare: number;
  epsilon: string;
  delta: string;
  goal: SynthesisGoal | null;
  label: string;
}

/**
 * The catalogue ranked for the loaded table and the chosen goal, or null when there is no goal,
 * table or valid budget yet. n is the count the claim uses (rows kept back excluded). Pure.
 */
export function studioRecommendation(inputs: StudioRecommendationInputs): Recommendation | null {
  if (inputs.goal === null || inputs.schema === null || inputs.nRows === null) return null;
  const epsilon = inputs.epsilon.trim();
  const delta = deltaAsTyped(inputs.delta);
  try {
    parseJobBudget({ epsilon, delta });
  } catch {
    return null; // the budget fields show why; the catalogue keeps its fixed order meanwhile
  }
  return recommendMechanisms(
    {
      schema: inputs.schema,
      rows: jobRowCounts(inputs.nRows, inputs.holdoutShare).seen,
      epsilon,
      delta,
      goal: inputs.goal,
      label: inputs.goal === 'train-model' ? inputs.label : null,
    },
    MECHANISM_CATALOGUE,
  );
}

/** Milliseconds the typed ε and δ must stay unchanged before the catalogue is ranked again. */
const BUDGET_SETTLE_MS = 300;

/** `value` once it has stayed the same for `ms` (the first value at once). */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The recommendation for the current stores and the given goal and label, recomputed when an input
 * changes; ε and δ are taken once typing pauses, since ranking runs every mechanism's check() (a
 * few milliseconds on most tables, more for AIM's workload on wide ones).
 */
export function useRecommendation(goal: SynthesisGoal | null, label: string): Recommendation | null {
  const nRows = useDataStore((state) => state.dataset?.nRows ?? null);
  const schema = useSchemaStore((state) => state.schema);
  const epsilon = useSettled(
    useJobStore((state) => state.epsilon),
    BUDGET_SETTLE_MS,
  );
  const delta = useSettled(
    useJobStore((state) => state.delta),
    BUDGET_SETTLE_MS,
  );
  const holdoutShare = useJobStore((state) => (state.keepHoldout ? HOLDOUT_SHARE : 0));
  return useMemo(
    () => studioRecommendation({ schema, nRows, holdoutShare, epsilon, delta, goal, label }),
    [schema, nRows, holdoutShare, epsilon, delta, goal, label],
  );
}
