import type { Table } from '../core/table/types';
import { tableBuffers } from './table-transfer';

/** What crosses a table channel: the tables, or the sentence saying why they could not be made. */
type ChannelMessage<T> = { value: T } | { error: string };

/**
 * Sends the tables `make` returns to the worker at the other end of a MessageChannel, their
 * buffers transferred (moved, not copied: DESIGN.md §6). The data worker
 * uses it to hand tables straight to a pool worker, so they never pass through the page. If
 * `make` throws, the other end gets its message (instead of waiting forever) and the error is
 * thrown here too. The receiving end closes the channel once the message is in.
 */
export function sendTablesOver<T>(port: MessagePort, make: () => T, tablesOf: (value: T) => Table[]): void {
  try {
    const value = make();
    port.postMessage({ value } satisfies ChannelMessage<T>, tablesOf(value).flatMap(tableBuffers));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    port.postMessage({ error: message } satisfies ChannelMessage<T>);
    throw error;
  }
}

/** Waits for what sendTablesOver sends from the other end of the channel, then closes the port. */
export function receiveTablesFrom<T>(port: MessagePort): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    port.onmessage = (event: MessageEvent<ChannelMessage<T>>) => {
      port.close();
      const message = event.data;
      if ('error' in message) reject(new Error(message.error));
      else resolve(message.value);
    };
    port.onmessageerror = () => {
      port.close();
      reject(new Error('The tables sent by the data worker could not be read; load the file again.'));
    };
  });
}
