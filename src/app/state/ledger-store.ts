import { create } from 'zustand';
import { onDatasetReplaced } from './dataset-resets';
import { domainSpend } from '../../core/privacy/domain-claim';
import { formatBudget, ledgerTotal, type LedgerEntry, type LedgerTotal } from '../../core/privacy/ledger';
import { roundUpRational } from '../../core/privacy/round-up';
import type { Schema } from '../../core/table/types';

/**
 * The privacy ledger of the loaded dataset (in memory, cleared with the data): every run whose
 * results were shown, every sweep and comparison run whose point was shown, and every export.
 * Each look is recorded once under a key (the run's job id, the sweep point's configuration), so a
 * result shown again from a cache is not counted twice.
 */
interface LedgerState {
  /** Looks that spent budget on the data: runs, sweep points, comparison runs. */
  looks: (LedgerEntry & { key: string })[];
  /** Exports, one per exported run (its job id), in order. */
  exports: (LedgerEntry & { key: string })[];
}

const initialLedgerState: LedgerState = { looks: [], exports: [] };

export const useLedgerStore = create<LedgerState>(() => initialLedgerState);

/** A new dataset: nothing has been spent on it yet. */
export function resetLedger(): void {
  useLedgerStore.setState(initialLedgerState, true);
}
onDatasetReplaced('privacy ledger', resetLedger);

/** Records a look whose results were shown, once per key. */
export function recordLook(key: string, entry: Omit<LedgerEntry, 'at'>): void {
  const { looks } = useLedgerStore.getState();
  if (looks.some((look) => look.key === key)) return;
  useLedgerStore.setState({ looks: [...looks, { ...entry, at: new Date().toISOString(), key }] });
}

/**
 * Records the export of a run (its job id), once per run; returns the exports after it. `kind`
 * "domain" records the learned schema a release publishes (once per learning).
 */
export function recordExport(
  key: string,
  entry: Omit<LedgerEntry, 'at' | 'kind'>,
  kind: 'export' | 'domain' = 'export',
): LedgerState['exports'] {
  const { exports } = useLedgerStore.getState();
  if (exports.some((exported) => exported.key === key)) return exports;
  const next = [...exports, { ...entry, kind, at: new Date().toISOString(), key }];
  useLedgerStore.setState({ exports: next });
  return next;
}

/**
 * The ledger entry of a schema's DP learning (all its steps), under a key naming the learning, so
 * a learning is counted once however many runs or exports use the schema. A schema learned in
 * several goes carries the time of the latest, so an export of runs on two of its stages counts
 * the earlier steps twice: an overstatement, the safe direction.
 */
export function domainLedgerEntry(
  schema: Schema,
): { key: string; entry: Omit<LedgerEntry, 'at' | 'kind'> } | null {
  const spend = domainSpend(schema);
  if (spend === null) return null;
  return {
    key: `domain:${schema.domainBudget!.learnedAt}`,
    entry: {
      mechanism: 'domain',
      epsilon: roundUpRational(spend.epsilon),
      delta: roundUpRational(spend.delta),
      runs: 1,
      what: `schema facts learned with DP (${schema.domainBudget!.steps.length} steps)`,
    },
  };
}

/**
 * Counts, as a look, the DP learning recorded in a schema that did not come from this session's
 * learning (a schema file learned with the CLI or in an earlier session): its facts are DP outputs
 * of this data, so all its steps are spent on it. Under the learning's key, so a learning this
 * session already counted (the same key) is not counted again.
 */
export function recordSchemaDomainLearning(schema: Schema): void {
  const domain = domainLedgerEntry(schema);
  if (domain === null) return;
  recordLook(domain.key, { ...domain.entry, kind: 'domain' });
}

/** Records a learning of schema facts with DP (its own steps) as a look at the data. */
export function recordDomainLearning(
  key: string,
  spent: { epsilon: number; delta: number },
  steps: number,
): void {
  recordLook(key, {
    kind: 'domain',
    mechanism: 'domain',
    epsilon: spent.epsilon,
    delta: spent.delta,
    runs: 1,
    what: `${steps} schema fact${steps === 1 ? '' : 's'} learned with DP`,
  });
}

/** Σ ε, Σ δ of every look at the dataset so far (an export adds nothing: its run was counted). */
export function selectSpent(state: LedgerState): LedgerTotal {
  return ledgerTotal(state.looks);
}

/**
 * What the looks are, for the ledger summary: "2 runs", "1 run and 1 domain learning", "1 domain
 * learning". A learning of schema facts with DP is a look at the data but not a run.
 */
export function describeLooks(looks: readonly Pick<LedgerEntry, 'kind'>[]): string {
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const learnings = looks.filter((look) => look.kind === 'domain').length;
  const runs = looks.length - learnings;
  const parts = [
    ...(runs > 0 || learnings === 0 ? [count(runs, 'run')] : []),
    ...(learnings > 0 ? [count(learnings, 'domain learning')] : []),
  ];
  return parts.join(' and ');
}

/** The exports of other runs than `key`: a new export adds to their budget. */
export function exportsOtherThan(state: LedgerState, key: string): LedgerState['exports'] {
  return state.exports.filter((exported) => exported.key !== key);
}

/**
 * Sentences for a run's report listing the runs whose results were shown before it was started
 * (as the tuning notes do for sweeps and comparisons): each is a look at the real data that may have
 * informed the choice of this run, and is paid for in the cumulative budget only when exported.
 */
export function earlierRunNotes(looks: readonly LedgerEntry[]): string[] {
  const runs = looks.filter((look) => look.kind === 'run');
  if (runs.length === 0) return [];
  const list = runs.map((run) => `${run.mechanism} (${formatBudget(run)})`).join('; ');
  const total = ledgerTotal(runs);
  return [
    `Before this run, the results of ${runs.length} other run${runs.length === 1 ? '' : 's'} on the same ` +
      `data were shown: ${list}; ${formatBudget(total)} in total. If they informed this choice, that ` +
      'budget was spent on the data too.',
  ];
}
