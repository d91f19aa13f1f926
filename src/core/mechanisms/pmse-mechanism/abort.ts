import type { AbortSignalLike } from '../types';

/** The error a run throws when its abort signal is set (RunContext contract: "throws AbortError"). */
export function makeAbortError(): Error {
  const error = new Error('The run was cancelled.');
  error.name = 'AbortError';
  return error;
}

export function throwIfAborted(signal: AbortSignalLike | undefined): void {
  if (signal?.aborted) throw makeAbortError();
}
