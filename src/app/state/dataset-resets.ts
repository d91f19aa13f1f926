/**
 * What must be stopped or forgotten when another dataset is loaded: running jobs, their results,
 * caches computed from the real data and the privacy ledger of the old data. Each store or service
 * that holds such state registers its own reset when it is loaded, so a new job kind or store is
 * reset without anyone listing it elsewhere.
 */
const resets = new Map<string, () => void>();

/** Registers (or replaces) the reset named `name`. */
export function onDatasetReplaced(name: string, reset: () => void): void {
  resets.set(name, reset);
}

/**
 * Runs every registered reset, in the order they were registered, except those named in `keep`
 * (the same file read again in another encoding keeps its privacy ledger: the rows are the same).
 */
export function forgetPreviousDataset(keep: readonly string[] = []): void {
  for (const [name, reset] of resets) if (!keep.includes(name)) reset();
}
