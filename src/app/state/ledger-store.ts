import { create } from 'zustand';
import { onDatasetReplaced } from './dataset-resets';
import { domainSpend } from '../../core/privacy/domain-claim';
import {
  formatBudget,
  formatLedgerTotal,
  ledgerTotal,
  type LedgerEntry,
  type LedgerTotal,
} from '../../core/privacy/ledger';
import { roundUpRational } from '../../core/privacy/round-up';
import type { CumulativeBudget, LedgerLookSummary } from '../../core/privacy/report';
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
/** The name of the ledger's reset (dataset-resets.ts): a file read again in another encoding keeps it. */
export const LEDGER_RESET = 'privacy ledger';
onDatasetReplaced(LEDGER_RESET, resetLedger);

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
      // Domain learning reads n and is metered under replace-one (core/domain/learn-domain.ts).
      neighbouring: 'replace-one',
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
    // Domain learning reads n and is metered under replace-one (core/domain/learn-domain.ts).
    neighbouring: 'replace-one',
  });
}

/**
 * Σ ε, Σ δ of every look at the dataset so far (an export adds nothing: its run was counted), under
 * one relation (ledgerTotal: replace-one, add/remove looks converted, once the looks mix both).
 */
export function selectSpent(state: LedgerState): LedgerTotal {
  return ledgerTotal(state.looks);
}

/**
 * The Mechanism step's ledger summary: what the looks spent, under their relation, what they were, and
 * what the exports spent, under theirs (each total states its relation once its entries are not all
 * replace-one). Null before anything was shown.
 */
export function ledgerSummaryParts(
  state: LedgerState,
): { spent: string; looks: string; exported: string } | null {
  const { looks, exports } = state;
  if (looks.length === 0) return null;
  const count = exports.length;
  return {
    spent: formatLedgerTotal(selectSpent(state)),
    looks: describeLooks(looks),
    exported:
      count === 0
        ? 'nothing yet'
        : `${formatLedgerTotal(ledgerTotal(exports))} in ${count} export${count === 1 ? '' : 's'}`,
  };
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

/** What each kind of look is called in a report's cumulative budget, in the order listed. */
const LOOK_NAMES: readonly [LedgerEntry['kind'], string][] = [
  ['run', 'runs whose results were shown'],
  ['sweep', 'ε-sweep points shown'],
  ['compare', 'comparison runs shown'],
  ['domain', 'learnings of schema facts with DP (kept or discarded)'],
];

/**
 * The one ledger total of the dataset for a report: Σ ε and Σ δ over everything counted, each look
 * and each export once (an exported run was a look first: the same key), with the exports and the
 * looks by kind beside it, all under the total's relation (ledgerTotal). A learning thrown away with
 * "Reset to inferred" stays counted: its DP output was seen.
 */
export function cumulativeBudget(state: LedgerState): CumulativeBudget {
  const seen = new Set(state.looks.map((look) => look.key));
  const everything = [...state.looks, ...state.exports.filter((exported) => !seen.has(exported.key))];
  const total = ledgerTotal(everything);
  const exported = ledgerTotal(state.exports, total.neighbouring);
  const lookedAt = ledgerTotal(state.looks, total.neighbouring);
  const looks: LedgerLookSummary[] = LOOK_NAMES.flatMap(([kind, what]) => {
    const ofKind = state.looks.filter((look) => look.kind === kind);
    if (ofKind.length === 0) return [];
    const sum = ledgerTotal(ofKind, total.neighbouring);
    return [{ what, count: ofKind.length, epsilon: sum.epsilon, delta: sum.delta }];
  });
  return {
    epsilon: total.epsilon,
    delta: total.delta,
    releases: Math.max(1, exported.entries),
    counted:
      'everything spent on this dataset in this studio session: every export, this one included, and ' +
      'everything whose result the data holder saw (runs, ε-sweep points, comparison runs, learnings of ' +
      'schema facts with DP, kept or discarded), each once',
    neighbouring: total.neighbouring,
    ...(total.converted > 0 ? { converted: total.converted } : {}),
    exported: { epsilon: exported.epsilon, delta: exported.delta, releases: Math.max(1, exported.entries) },
    lookedAt: { epsilon: lookedAt.epsilon, delta: lookedAt.delta, looks },
  };
}

const NOT_COUNTED =
  'the utility metrics (and any MCMC traces) shown with them compare the synthetic data with the real data, ' +
  'are not differentially private, and are not counted in this claim or in the cumulative budget; the ' +
  'guarantee holds only if the choice is treated as public';

/**
 * Sentences for a run's report on what was shown before it was started (as the tuning notes do for
 * sweeps and comparisons): other runs, whose synthetic data are DP outputs counted in the cumulative
 * budget but whose utility metrics are not DP, and learnings of schema facts with DP, counted whether
 * the schema kept them or not.
 */
export function earlierRunNotes(looks: readonly LedgerEntry[]): string[] {
  const notes: string[] = [];
  const runs = looks.filter((look) => look.kind === 'run');
  if (runs.length > 0) {
    const list = runs
      .map(
        (run) =>
          `${run.mechanism} (${formatBudget(run)}${run.neighbouring === 'add-remove' ? ', add/remove' : ''})`,
      )
      .join('; ');
    notes.push(
      `Before this run, the results of ${runs.length} other run${runs.length === 1 ? '' : 's'} on the real ` +
        `data were shown: ${list}. Their synthetic data are differentially private and counted in the ` +
        `cumulative budget (${formatLedgerTotal(ledgerTotal(runs))}); if they informed this choice, ${NOT_COUNTED}.`,
    );
  }
  const learnings = looks.filter((look) => look.kind === 'domain');
  if (learnings.length > 0) {
    notes.push(
      `Before this run, schema facts were learned from the real data with DP ${learnings.length} ` +
        `time${learnings.length === 1 ? '' : 's'} (${formatLedgerTotal(ledgerTotal(learnings))} in total); the ` +
        'learned values are differentially private, were seen whether kept or discarded ("Reset to ' +
        'inferred"), and are counted in the cumulative budget.',
    );
  }
  return notes;
}
