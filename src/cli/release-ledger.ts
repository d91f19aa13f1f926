/**
 * The ledger `dpsynth synth --ledger FILE` keeps: one line per release (and per DP learning of a
 * schema, and per run refused after its budget was spent), whose total the release report states as
 * its cumulative budget. Both ways of running synth (a table in memory, a count source) read and
 * write it only through these functions.
 */
import { appendFileSync, existsSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { domainSpend } from '../core/privacy/domain-claim';
import {
  formatLedgerTotal,
  ledgerLine,
  ledgerTotal,
  parseLedger,
  type LedgerAmount,
  type LedgerEntry,
  type LedgerTotal,
} from '../core/privacy/ledger';
import { roundUpRational } from '../core/privacy/round-up';
import {
  FailedAfterSpendingError,
  isInternalSpentBudgetError,
  SpentBudgetError,
} from '../core/privacy/spent-budget-error';
import type { CumulativeBudget } from '../core/privacy/report';
import { decodeCsvBytes } from '../core/table/csv-read';
import { InputError } from '../core/table/errors';
import type { PrivacyClaim } from '../core/privacy/types';
import type { Schema } from '../core/table/types';
import { readUserFile } from './io';
import { checkOutputPaths } from './output-files';

/** The ledger file's entries; a ledger that does not exist yet is empty (its folder must exist). */
export function readLedger(path: string): { entries: LedgerEntry[] } {
  if (!existsSync(path)) {
    checkOutputPaths([{ path, what: 'the ledger' }], [], false);
    return { entries: [] };
  }
  const text = decodeCsvBytes(readUserFileOrEmpty(path), path);
  return { entries: parseLedger(text, path) };
}

function readUserFileOrEmpty(path: string): Uint8Array {
  try {
    if (statSync(path).size === 0) return new Uint8Array();
  } catch {
    // readUserFile words the problem
  }
  return readUserFile(path, 'ledger');
}

/** Appends ledger lines, in order; the one writer of the ledger file. */
export function appendLedgerLines(path: string, entries: readonly LedgerEntry[]): void {
  for (const entry of entries) {
    try {
      appendFileSync(path, ledgerLine(entry));
    } catch (error) {
      throw new InputError(`${path}: the ledger cannot be written (${(error as Error).message}).`, {
        file: path,
      });
    }
  }
}

/**
 * The ledger line of the schema's DP learning when the ledger does not count it yet (no "domain"
 * line at its learnedAt), else undefined.
 */
export function uncountedDomainEntry(
  schema: Schema,
  entries: LedgerEntry[],
  schemaPath: string,
): LedgerEntry | undefined {
  const budget = schema.domainBudget;
  const spend = domainSpend(schema);
  if (budget === undefined || spend === null) return undefined;
  if (entries.some((e) => e.kind === 'domain' && e.at === budget.learnedAt)) return undefined;
  return {
    kind: 'domain',
    at: budget.learnedAt,
    mechanism: 'domain',
    epsilon: roundUpRational(spend.epsilon),
    delta: roundUpRational(spend.delta),
    runs: 1,
    what: `schema facts learned with DP (${basename(schemaPath)})`,
    // Domain learning reads n and is metered under replace-one (core/domain/learn-domain.ts).
    neighbouring: 'replace-one',
  };
}

/** A release's lines for the ledger and the ledger's total with them. */
export interface ReleaseLedgerLines {
  added: LedgerEntry[];
  cumulative: LedgerTotal;
}

/**
 * This release's ledger lines, counted in the report's cumulative budget. On a schema learned with
 * DP the learning is one line of its own (kind "domain", added unless the ledger already counts it),
 * and the release's line carries the mechanism's part of the claim, so the total counts the learning
 * once however many runs use the schema.
 */
export function releaseLedgerLines(
  ledger: { entries: LedgerEntry[] },
  release: { schema: Schema; schemaPath: string; mechanismId: string; claim: PrivacyClaim; what: string },
): ReleaseLedgerLines {
  const domainEntry = uncountedDomainEntry(release.schema, ledger.entries, release.schemaPath);
  const own = release.claim.composedOf?.mechanism ?? release.claim;
  const entry: LedgerEntry = {
    kind: 'export',
    at: new Date().toISOString(),
    mechanism: release.mechanismId,
    epsilon: own.epsilon,
    delta: own.delta,
    runs: 1,
    what: release.what,
    neighbouring: release.claim.neighbouring,
  };
  const added = domainEntry === undefined ? [entry] : [domainEntry, entry];
  return { added, cumulative: ledgerTotal([...ledger.entries, ...added]) };
}

/** The release report's `cumulative` from the ledger's total with this release, under its relation. */
export function reportCumulative(cumulative: LedgerTotal, ledgerPath: string): CumulativeBudget {
  return {
    epsilon: cumulative.epsilon,
    delta: cumulative.delta,
    releases: cumulative.entries,
    counted: `every release recorded in the ledger ${basename(ledgerPath)}, this one included`,
    neighbouring: cumulative.neighbouring,
    ...(cumulative.converted > 0 ? { converted: cumulative.converted } : {}),
  };
}

/** The stderr line that gives the ledger's total after this release. */
export function ledgerSummary(ledgerPath: string, cumulative: LedgerTotal): string {
  return (
    `dpsynth: the ledger ${ledgerPath} records ${cumulative.entries} release` +
    `${cumulative.entries === 1 ? '' : 's'} of this dataset: ${formatLedgerTotal(cumulative)} in total ` +
    '(sequential composition).\n'
  );
}

/**
 * Appends the ledger entry of a run that failed after its budget was spent (a SpentBudgetError:
 * nothing released, the budget counts) and throws the error again, saying so: a FailedAfterSpendingError
 * or meter mismatch stays internal (exit 1), a refusal stays the user's (exit 2). When the ledger cannot
 * be written, the message asks for the entry by hand.
 */
export function recordSpentRun(
  error: unknown,
  ledgerPath: string,
  entries: readonly LedgerAmount[],
  mechanismId: string,
  claim: LedgerAmount,
  what: string,
): never {
  const Failure = isInternalSpentBudgetError(error) ? FailedAfterSpendingError : SpentBudgetError;
  try {
    appendLedgerLines(ledgerPath, [
      {
        kind: 'run',
        at: new Date().toISOString(),
        mechanism: mechanismId,
        epsilon: claim.epsilon,
        delta: claim.delta,
        runs: 1,
        what,
        neighbouring: claim.neighbouring,
      },
    ]);
  } catch (ledgerError) {
    throw new Failure(
      `${(error as Error).message} ${(ledgerError as Error).message} Add this run (ε = ` +
        `${claim.epsilon}${claim.delta > 0 ? `, δ = ${claim.delta}` : ''}` +
        `, "neighbouring": "${claim.neighbouring}") to the ledger by hand.`,
    );
  }
  const total = ledgerTotal([...entries, claim]);
  throw new Failure(
    `${(error as Error).message} The ledger ${ledgerPath} counts this run: it records ` +
      `${formatLedgerTotal(total)} in total (${total.entries} entr${total.entries === 1 ? 'y' : 'ies'}).`,
  );
}
