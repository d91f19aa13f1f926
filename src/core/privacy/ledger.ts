/**
 * The privacy ledger of one dataset: every look at it that spent budget (a run whose results were
 * shown, an ε sweep, a comparison, an export), with the ε and δ its claim states. Totals use basic
 * sequential composition, ε = Σ εᵢ and δ = Σ δᵢ (Dwork & Roth 2014, Theorem 3.16), which holds
 * whatever the notions of the single claims, since each claim states an (ε, δ) it implies.
 * The studio keeps one in memory per loaded dataset; the CLI keeps it in a JSON-lines file.
 */
import { parseRational, Rational } from '../rng/rational';
import { InputError } from '../table/errors';
import { roundUpRational } from './round-up';

/** What spent the budget; `domain`: schema facts learned with DP (once per learning). */
export type LedgerKind = 'run' | 'sweep' | 'compare' | 'export' | 'domain';

export interface LedgerEntry {
  kind: LedgerKind;
  /** ISO 8601 time of the look. */
  at: string;
  /** Mechanism id(s) involved, e.g. "laplace-histogram". */
  mechanism: string;
  /** ε and δ of the look as its claim states them (already rounded up). */
  epsilon: number;
  delta: number;
  /** Runs the look is made of (a sweep or a comparison runs several); 1 for a run or an export. */
  runs: number;
  /** A short public description, e.g. "ε sweep over 8 values, 2 repeats". */
  what: string;
}

export interface LedgerTotal {
  /** Σ ε and Σ δ, each rounded up to 6 significant digits (privacy rule 7). */
  epsilon: number;
  delta: number;
  entries: number;
}

function exact(value: number, what: string): Rational {
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(`ledger: ${what} must be a finite number >= 0; got ${value}`);
  }
  return parseRational(value);
}

/** Σ ε and Σ δ of the entries, summed exactly and rounded up. */
export function ledgerTotal(entries: readonly Pick<LedgerEntry, 'epsilon' | 'delta'>[]): LedgerTotal {
  let epsilon = Rational.ZERO;
  let delta = Rational.ZERO;
  entries.forEach((entry, i) => {
    epsilon = epsilon.add(exact(entry.epsilon, `entry ${i + 1} ε`));
    delta = delta.add(exact(entry.delta, `entry ${i + 1} δ`));
  });
  return { epsilon: roundUpRational(epsilon), delta: roundUpRational(delta), entries: entries.length };
}

/** "ε = 3" or "ε = 3, δ = 2e-6". */
export function formatBudget(total: Pick<LedgerTotal, 'epsilon' | 'delta'>): string {
  return total.delta > 0 ? `ε = ${total.epsilon}, δ = ${total.delta}` : `ε = ${total.epsilon}`;
}

const KINDS: readonly LedgerKind[] = ['run', 'sweep', 'compare', 'export', 'domain'];

/** One entry as a line of the ledger file (JSON lines: one object per line). */
export function ledgerLine(entry: LedgerEntry): string {
  const { kind, at, mechanism, epsilon, delta, runs, what } = entry;
  return `${JSON.stringify({ kind, at, mechanism, epsilon, delta, runs, what })}\n`;
}

/**
 * Reads a ledger file: one JSON object per non-blank line, each an entry as ledgerLine writes it.
 * Throws InputError naming the file and line of the first line that is not a valid entry, so a
 * damaged ledger is never silently undercounted.
 */
export function parseLedger(text: string, fileName: string): LedgerEntry[] {
  const entries: LedgerEntry[] = [];
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  body.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    const fail = (problem: string): never => {
      throw new InputError(
        `${fileName}, line ${i + 1}: ${problem} A ledger line is a JSON object with kind, at, mechanism, ` +
          'epsilon, delta, runs and what, as dpsynth writes it; restore the file rather than edit it.',
        { file: fileName, line: i + 1 },
      );
    };
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      fail('is not valid JSON.');
    }
    const entry = value as Partial<LedgerEntry> | null;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) fail('is not a JSON object.');
    const e = entry!;
    if (!KINDS.includes(e.kind as LedgerKind)) fail(`"kind" must be one of ${KINDS.join(', ')}.`);
    for (const key of ['epsilon', 'delta'] as const) {
      const x = e[key];
      if (typeof x !== 'number' || !Number.isFinite(x) || x < 0) fail(`"${key}" must be a number >= 0.`);
    }
    if (typeof e.runs !== 'number' || !Number.isInteger(e.runs) || e.runs < 1)
      fail('"runs" must be a whole number >= 1.');
    for (const key of ['at', 'mechanism', 'what'] as const) {
      if (typeof e[key] !== 'string') fail(`"${key}" must be a string.`);
    }
    entries.push({
      kind: e.kind!,
      at: e.at!,
      mechanism: e.mechanism!,
      epsilon: e.epsilon!,
      delta: e.delta!,
      runs: e.runs!,
      what: e.what!,
    });
  });
  return entries;
}
