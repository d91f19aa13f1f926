import type { Table } from '../core/table/types';
import { createAbortError } from '../core/abort';
import { tableBuffers } from './table-transfer';

/**
 * What a pool worker sends the data worker over a run's releases channel: the releases and the
 * kept-back row indices (ascending, or null), buffers transferred.
 */
export interface RunReleases {
  datasets: Table[];
  holdoutRows: Uint32Array | null;
}

/**
 * What the data worker sends a pool worker for an evaluation: copies of the releases and, unless the
 * pool worker already holds the table the run used, of the real rows the mechanism saw and the
 * kept-back rows. When it holds it, `real` and `holdout` are null and the pool worker splits its own
 * table with `holdoutRows` (the table is then not copied again).
 */
export interface EvaluationInputs {
  real: Table | null;
  releases: Table[];
  holdout: Table | null;
  /** The kept-back row indices (ascending) when `real` is null and rows were kept back; else null. */
  holdoutRows: Uint32Array | null;
}

/** What crosses a table channel: the tables, or the sentence saying why they could not be made. */
type ChannelMessage<T> = { value: T } | { error: string; aborted?: true };

/**
 * Sends the tables `make` returns to the worker at the other end of a MessageChannel, their
 * buffers transferred (moved, not copied: DESIGN.md §6), with any other buffers `extraBuffersOf`
 * names (e.g. row indices). Workers use it to hand tables straight to each other, so they never
 * pass through the page. If `make` throws, the other end gets its message (instead of waiting
 * forever) and the error is thrown here too. The receiving end closes the channel once the message
 * is in.
 */
export function sendTablesOver<T>(
  port: MessagePort,
  make: () => T,
  tablesOf: (value: T) => Table[],
  extraBuffersOf: (value: T) => ArrayBuffer[] = () => [],
): void {
  let value: T;
  try {
    value = make();
  } catch (error) {
    sendFailureOver(port, error);
    throw error;
  }
  const buffers = new Set([...tablesOf(value).flatMap(tableBuffers), ...extraBuffersOf(value)]);
  port.postMessage({ value } satisfies ChannelMessage<T>, [...buffers]);
}

/**
 * Tells the other end of a table channel that nothing will come, and why (the run failed or was
 * cancelled), so it stops waiting; an AbortError stays one at the other end. The receiving end
 * closes the channel.
 */
export function sendFailureOver(port: MessagePort, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  const aborted = error instanceof Error && error.name === 'AbortError';
  port.postMessage({
    error: message,
    ...(aborted ? { aborted: true as const } : {}),
  } satisfies ChannelMessage<unknown>);
}

/**
 * Waits for what sendTablesOver sends from the other end of the channel, then closes the port.
 * When `signal` aborts first (the page learnt that the sender ended: cancelled, terminated), the
 * port is closed and the wait rejects with the signal's reason, so nothing waits forever.
 */
export function receiveTablesFrom<T>(port: MessagePort, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stop = () => {
      port.onmessage = null;
      port.onmessageerror = null;
      port.close();
      reject(signal?.reason instanceof Error ? signal.reason : createAbortError('Nothing was sent.'));
    };
    if (signal?.aborted) return stop();
    signal?.addEventListener('abort', stop, { once: true });
    const done = () => {
      signal?.removeEventListener('abort', stop);
      port.close();
    };
    port.onmessage = (event: MessageEvent<ChannelMessage<T>>) => {
      done();
      const message = event.data;
      if ('error' in message) {
        reject(message.aborted === true ? createAbortError(message.error) : new Error(message.error));
      } else resolve(message.value);
    };
    port.onmessageerror = () => {
      done();
      reject(new Error('The tables sent over the channel could not be read; load the file again.'));
    };
  });
}
