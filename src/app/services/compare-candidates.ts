import { useDeferredValue, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { MECHANISM_CATALOGUE } from '../../core/mechanisms/catalogue';
import type { Neighbouring } from '../../core/mechanisms/neighbouring';
import type { MechanismMeta } from '../../core/mechanisms/types';
import type { Schema } from '../../core/table/types';
import { useDataStore } from '../state/data-store';
import { useJobStore, type ParamDraft } from '../state/job-store';
import { useSchemaStore } from '../state/schema-store';
import { assessRun, type RunReadiness } from './run-readiness';

/** A registered mechanism as the Compare step offers it. */
export interface CompareCandidate {
  mechanism: MechanismMeta;
  /** The mechanism of step 3 runs with the user's parameters; every other one with its defaults. */
  usesCurrentParams: boolean;
  /** Readiness of one release at step 3's ε, δ, relation and seed (the same checks as the Mechanism step). */
  readiness: RunReadiness;
}

export interface CompareInputs {
  nRows: number | null;
  schema: Schema | null;
  currentMechanismId: string | null;
  currentDrafts: Record<string, ParamDraft> | undefined;
  epsilon: string;
  delta: string;
  /** Step 3's neighbouring relation: every comparison run is claimed and calibrated under it. */
  neighbouring: Neighbouring;
  seed: string;
}

/** Every registered mechanism, in catalogue order, with whether and how it can run in a comparison. */
export function assessCompareCandidates(inputs: CompareInputs): CompareCandidate[] {
  return MECHANISM_CATALOGUE.map((mechanism) => {
    const usesCurrentParams = mechanism.id === inputs.currentMechanismId;
    return {
      mechanism,
      usesCurrentParams,
      readiness: assessRun({
        nRows: inputs.nRows,
        schema: inputs.schema,
        mechanismId: mechanism.id,
        drafts: usesCurrentParams ? inputs.currentDrafts : {},
        epsilon: inputs.epsilon,
        delta: inputs.delta,
        releases: 1,
        neighbouring: inputs.neighbouring,
        seed: inputs.seed,
      }),
    };
  });
}

/** The candidates for the current stores, recomputed only when an input changes. */
export function useCompareCandidates(): CompareCandidate[] {
  const nRows = useDataStore((state) => state.dataset?.nRows ?? null);
  const schema = useSchemaStore((state) => state.schema);
  const job = useJobStore(
    useShallow((state) => ({
      currentMechanismId: state.mechanismId,
      currentDrafts: state.mechanismId === null ? undefined : state.paramDrafts[state.mechanismId],
      epsilon: state.epsilon,
      delta: state.delta,
      neighbouring: state.neighbouring,
      seed: state.seed,
    })),
  );
  // Checking every mechanism (AIM plans its junction trees) takes several milliseconds: deferred, it
  // runs in a render of its own after the urgent one (a new dataset, a keystroke in ε) is painted.
  const inputs = useDeferredValue(useMemo(() => ({ nRows, schema, ...job }), [nRows, schema, job]));
  return useMemo(() => assessCompareCandidates(inputs), [inputs]);
}

/** The candidates read from the stores now (for the runner, outside React). */
export function currentCompareCandidates(): CompareCandidate[] {
  const job = useJobStore.getState();
  return assessCompareCandidates({
    nRows: useDataStore.getState().dataset?.nRows ?? null,
    schema: useSchemaStore.getState().schema,
    currentMechanismId: job.mechanismId,
    currentDrafts: job.mechanismId === null ? undefined : job.paramDrafts[job.mechanismId],
    epsilon: job.epsilon,
    delta: job.delta,
    neighbouring: job.neighbouring,
    seed: job.seed,
  });
}
