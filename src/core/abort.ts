/** Minimal abort signal so that src/core needs no DOM types (a DOM AbortSignal satisfies it). */
export interface AbortSignalLike {
  readonly aborted: boolean;
}

/** An Error named AbortError, as fetch and DOM APIs throw, so callers can tell cancellation from failure. */
export function createAbortError(message = 'The operation was cancelled.'): Error {
  const error = new Error(message);
  error.name = 'AbortError';
  return error;
}

/** Throws an AbortError when the signal has been aborted; long loops call this once per chunk of rows. */
export function throwIfAborted(signal: AbortSignalLike | undefined): void {
  if (signal?.aborted) throw createAbortError();
}

/** True for errors produced by throwIfAborted (or any other AbortError). */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
