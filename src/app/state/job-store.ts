import type { Neighbouring } from '../../core/mechanisms/neighbouring';
import type { MechanismId } from '../../core/mechanisms/mechanism-id';
import { create } from 'zustand';
import { onDatasetReplaced } from './dataset-resets';
import type { JobStatus } from './job-status';

/** A form value as typed: numbers stay text until resolveParams checks them. */
export type ParamDraft = string | boolean;

/**
 * Results computed on the real data that the user has seen for the loaded dataset: choices made
 * after seeing them (ε, mechanism) are tuning on the data that no claim pays for (tuning-notes.ts).
 */
export interface DataLooks {
  sweep: boolean;
  compare: boolean;
  /** ε as set by clicking a sweep point; null when it was typed or never picked. */
  epsilonFromSweep: string | null;
}

const NO_DATA_LOOKS: DataLooks = { sweep: false, compare: false, epsilonFromSweep: null };

interface JobState {
  mechanismId: MechanismId | null;
  /** Per mechanism, the values the user changed from the defaults. */
  paramDrafts: Record<string, Record<string, ParamDraft>>;
  /** ε and δ as typed (parsed exactly by the privacy module). */
  epsilon: string;
  delta: string;
  releases: number;
  /** Which datasets are neighbours: replace-one (n public, the default) or add-remove (n private). */
  neighbouring: Neighbouring;
  /** Empty: cryptographic randomness. */
  seed: string;
  /** Keep back HOLDOUT_SHARE of the rows as a test set for ML efficacy. */
  keepHoldout: boolean;
  runStatus: JobStatus;
  runJobId: string | null;
  runError: string | null;
  dataLooks: DataLooks;
}

const initialJobState: JobState = {
  mechanismId: null,
  paramDrafts: {},
  epsilon: '1',
  delta: '0',
  releases: 1,
  neighbouring: 'replace-one',
  seed: '',
  keepHoldout: false,
  runStatus: 'idle',
  runJobId: null,
  runError: null,
  dataLooks: NO_DATA_LOOKS,
};

/** The job slice: what to run (mechanism, parameters, budget) and how the current run is going. */
export const useJobStore = create<JobState>(() => initialJobState);

export function resetJobStore(): void {
  useJobStore.setState(initialJobState, true);
}

export function selectMechanism(mechanismId: MechanismId): void {
  useJobStore.setState({ mechanismId });
}

export function setParamDraft(mechanismId: string, name: string, value: ParamDraft): void {
  useJobStore.setState((state) => ({
    paramDrafts: {
      ...state.paramDrafts,
      [mechanismId]: { ...state.paramDrafts[mechanismId], [name]: value },
    },
  }));
}

export function setEpsilon(epsilon: string): void {
  useJobStore.setState({ epsilon });
}

/** ε taken from a point of an ε sweep run on the real data. */
export function pickEpsilonFromSweep(epsilon: string): void {
  useJobStore.setState((state) => ({
    epsilon,
    dataLooks: { ...state.dataLooks, epsilonFromSweep: epsilon },
  }));
}

/** Records that sweep or comparison results computed on the real data were shown. */
export function noteDataLook(kind: 'sweep' | 'compare'): void {
  const { dataLooks } = useJobStore.getState();
  if (!dataLooks[kind]) useJobStore.setState({ dataLooks: { ...dataLooks, [kind]: true } });
}

// A new dataset: nothing has been seen of it yet.
onDatasetReplaced('data looks', () => useJobStore.setState({ dataLooks: NO_DATA_LOOKS }));

export function setBudgetField(field: 'delta' | 'seed', value: string): void {
  useJobStore.setState({ [field]: value } as Pick<JobState, typeof field>);
}

/** Share of rows kept back from the mechanism when the user asks for an ML efficacy test set. */
export const HOLDOUT_SHARE = 0.2;

export function setKeepHoldout(keepHoldout: boolean): void {
  useJobStore.setState({ keepHoldout });
}

export function setNeighbouring(neighbouring: Neighbouring): void {
  useJobStore.setState({ neighbouring });
}

export function setReleases(releases: number): void {
  useJobStore.setState({ releases });
}

export function setRunState(
  runStatus: JobStatus,
  runJobId: string | null,
  runError: string | null = null,
): void {
  useJobStore.setState({ runStatus, runJobId, runError });
}
