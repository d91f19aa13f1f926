import type { Neighbouring } from '../../core/mechanisms/neighbouring';
import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { resolveParams } from '../../core/mechanisms/params';
import { getMechanismMeta } from '../../core/mechanisms/catalogue';
import { RELEASE_LIMITS, releasesWithin } from '../../core/mechanisms/release-limits';
import type { MechanismMeta, ParamValues, PublicContext } from '../../core/mechanisms/types';
import { defaultDelta, type DefaultDelta } from '../../core/privacy/default-delta';
import { parseBudget } from '../../core/privacy/budget';
import { jobRowCounts } from '../../core/job/job-row-counts';
import { publicContextOf } from '../../core/job/synthesis-job';
import type { PrivacyClaim } from '../../core/privacy/types';
import type { Schema } from '../../core/table/types';
import { useDataStore } from '../state/data-store';
import { HOLDOUT_SHARE, useJobStore, type ParamDraft } from '../state/job-store';
import { useSchemaStore } from '../state/schema-store';

/** Everything the Mechanism, Tune and Run steps need to know before a run can start. */
export interface RunReadiness {
  mechanism: MechanismMeta | undefined;
  params: ParamValues | null;
  /** The parameter at fault and the sentence to show beside it. */
  paramError: { parameter: string | null; message: string } | null;
  context: PublicContext | null;
  claim: PrivacyClaim | null;
  claimError: string | null;
  /** check() sentences: why the mechanism cannot run on this schema. */
  problems: string[];
  /** describe() sentences: public facts about the configured model (size, warnings). */
  facts: string[];
  ready: boolean;
  /** The first reason the run cannot start, as a sentence; null when ready. */
  blocker: string | null;
  /** Set when the mechanism needs δ > 0 and none was typed: the default δ the run uses, and why. */
  deltaDefault: DefaultDelta | null;
}

/** True when the typed δ is empty or parses to 0 (a δ that cannot be parsed is reported by the claim). */
function deltaUnset(epsilon: string, delta: string): boolean {
  if (delta.trim() === '') return true;
  try {
    return parseBudget(epsilon.trim() || '1', delta.trim()).delta.isZero();
  } catch {
    return false;
  }
}

export interface RunInputs {
  nRows: number | null;
  schema: Schema | null;
  mechanismId: string | null;
  drafts: Record<string, ParamDraft> | undefined;
  epsilon: string;
  delta: string;
  releases: number;
  /** The run's neighbouring relation (absent: replace-one). */
  neighbouring?: Neighbouring;
  seed: string;
  /** Share of rows kept back from the mechanism (0: none); the claim then uses the remaining n. */
  holdoutShare?: number;
}

/**
 * Resolves parameters, computes the claim (cheap: public facts only) and runs check(),
 * turning every failure into a sentence. Pure: used by the hook below and by the runners.
 */
export function assessRun(inputs: RunInputs): RunReadiness {
  const mechanism = inputs.mechanismId === null ? undefined : getMechanismMeta(inputs.mechanismId);
  const empty: RunReadiness = {
    mechanism,
    params: null,
    paramError: null,
    context: null,
    claim: null,
    claimError: null,
    problems: [],
    facts: [],
    ready: false,
    blocker: null,
    deltaDefault: null,
  };
  if (inputs.nRows === null || inputs.schema === null) return { ...empty, blocker: 'Load a dataset first.' };
  if (mechanism === undefined) return { ...empty, blocker: 'Pick a mechanism.' };
  let params: ParamValues;
  try {
    params = resolveParams(mechanism, inputs.drafts ?? {});
  } catch (error) {
    const parameter = (error as { parameter?: unknown }).parameter;
    const message = messageOf(error);
    return {
      ...empty,
      paramError: { parameter: typeof parameter === 'string' ? parameter : null, message },
      blocker: message,
    };
  }
  // The rows the mechanism will see: the claim's n, as the worker counts them after keeping rows back.
  const n = jobRowCounts(inputs.nRows, inputs.holdoutShare ?? 0).seen;
  // A mechanism that needs δ > 0 with no δ typed runs at the documented default from the public n
  // (under add/remove, where n is private, the one that does not depend on n: 1e-9).
  const addRemove = inputs.neighbouring === 'add-remove';
  const deltaDefault =
    mechanism.fit?.needsDelta === true && deltaUnset(inputs.epsilon, inputs.delta)
      ? defaultDelta(addRemove ? undefined : n)
      : null;
  const context: PublicContext = publicContextOf(
    {
      schema: inputs.schema,
      epsilon: inputs.epsilon.trim(),
      delta: deltaDefault?.delta ?? inputs.delta,
      releases: inputs.releases,
      ...(inputs.neighbouring === undefined ? {} : { neighbouring: inputs.neighbouring }),
      seed: inputs.seed,
    },
    n,
  );
  let claim: PrivacyClaim | null = null;
  let claimError: string | null = null;
  try {
    claim = mechanism.claim(params, context);
    if (deltaDefault !== null) claim = { ...claim, assumptions: [...claim.assumptions, deltaDefault.reason] };
  } catch (error) {
    claimError = messageOf(error);
  }
  let problems: string[];
  try {
    problems = mechanism.check(inputs.schema, params, context);
  } catch (error) {
    problems = [messageOf(error)];
  }
  let facts: string[] = [];
  try {
    facts = problems.length === 0 ? (mechanism.describe?.(params, context) ?? []) : [];
  } catch {
    facts = []; // describe is informative only; check() and the claim report what is wrong
  }
  const releasesProblem = releasesWithin(inputs.releases, RELEASE_LIMITS.studio)
    ? null
    : `The number of releases must be a whole number from 1 to ${RELEASE_LIMITS.studio}.`;
  // Keeping a test set writes the rows kept back and trained on into the release report; under
  // add/remove the number of rows is private, so the two do not go together (as in the CLI).
  const holdoutProblem =
    addRemove && (inputs.holdoutShare ?? 0) > 0
      ? 'Keeping a test set back writes the number of rows into the release report, and under add/remove ' +
        'neighbours the number of rows is private: untick "keep a test set" or choose replace-one.'
      : null;
  const blocker = claimError ?? releasesProblem ?? holdoutProblem ?? problems[0] ?? null;
  return {
    mechanism,
    params,
    paramError: null,
    context,
    claim,
    claimError,
    problems,
    facts,
    ready: blocker === null,
    blocker,
    deltaDefault,
  };
}

/** The run inputs the job slice holds (what to run, the budget, releases, seed, rows kept back). */
export function jobRunInputs(
  state: ReturnType<typeof useJobStore.getState>,
): Omit<RunInputs, 'nRows' | 'schema'> {
  return {
    mechanismId: state.mechanismId,
    drafts: state.mechanismId === null ? undefined : state.paramDrafts[state.mechanismId],
    epsilon: state.epsilon,
    delta: state.delta,
    releases: state.releases,
    neighbouring: state.neighbouring,
    seed: state.seed,
    holdoutShare: state.keepHoldout ? HOLDOUT_SHARE : 0,
  };
}

/** The run readiness of the stores as they are now (the runners call it when a job starts). */
export function assessCurrentRun(overrides: Partial<RunInputs> = {}): RunReadiness {
  return assessRun({
    nRows: useDataStore.getState().dataset?.nRows ?? null,
    schema: useSchemaStore.getState().schema,
    ...jobRunInputs(useJobStore.getState()),
    ...overrides,
  });
}

/** The run readiness of the current stores, recomputed only when an input changes. */
export function useRunReadiness(): RunReadiness {
  const nRows = useDataStore((state) => state.dataset?.nRows ?? null);
  const schema = useSchemaStore((state) => state.schema);
  const job = useJobStore(useShallow(jobRunInputs));
  return useMemo(() => assessRun({ nRows, schema, ...job }), [nRows, schema, job]);
}

export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
