/**
 * The privacy ledger of one dataset: every look at it that spent budget (a run whose results were
 * shown, an ε sweep, a comparison, an export), with the ε and δ its claim states and the neighbouring
 * relation it is stated under. Totals use basic sequential composition, ε = Σ εᵢ and δ = Σ δᵢ
 * (Dwork & Roth 2014, Theorem 3.16), which holds whatever the notions of the single claims, since each
 * claim states an (ε, δ) it implies, but only among claims under one relation: see ledgerTotal.
 * The studio keeps one in memory per loaded dataset; the CLI keeps it in a JSON-lines file.
 */
import { parseRational, Rational } from '../rng/rational';
import { InputError } from '../table/errors';
import { exponentialUpperBound } from './exp-upper-bound';
import type { Neighbouring } from './neighbouring-relation';
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
  /**
   * The neighbouring relation the look's ε and δ are stated under. Every line dpsynth writes says it.
   */
  neighbouring: Neighbouring;
  /**
   * Set on a ledger file line that does not state its relation (written by an earlier version, which
   * wrote add/remove runs without it too): read as add/remove, so a replace-one total converts it
   * (2ε, an overstatement if it was replace-one: the safe direction), and an add/remove total, which
   * a replace-one entry would make false, is never stated with it.
   */
  relationUnstated?: true;
}

export interface LedgerTotal {
  /** Σ ε and Σ δ, each rounded up to 6 significant digits (privacy rule 7). */
  epsilon: number;
  delta: number;
  entries: number;
  /** The relation the total is stated under (replace-one when the entries mix both). */
  neighbouring: Neighbouring;
  /** Entries stated under add/remove and converted to replace-one to be summed (0 unless mixed). */
  converted: number;
}

/** What ledgerTotal sums: an entry's ε, δ and relation (a claim has all three). */
export type LedgerAmount = Pick<LedgerEntry, 'epsilon' | 'delta' | 'neighbouring' | 'relationUnstated'>;

function exact(value: number, what: string): Rational {
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(`ledger: ${what} must be a finite number >= 0; got ${value}`);
  }
  return parseRational(value);
}

/**
 * An add/remove guarantee restated under replace-one (relation-conversion.ts): a replacement is a
 * removal followed by an addition, two add/remove steps, so ε-DP gives 2ε-DP (group privacy for two
 * steps, Dwork & Roth 2014, Theorem 2.2) and (ε, δ)-DP gives (2ε, (1 + e^ε)·δ)-DP (the same chaining
 * with δ, Dwork & Roth 2014, §2.3). e^ε is bounded above (exponentialUpperBound); when it overflows,
 * δ is stated as 1, which holds trivially.
 */
function addRemoveAsReplaceOne(epsilon: Rational, delta: Rational): { epsilon: Rational; delta: Rational } {
  if (delta.isZero()) return { epsilon: epsilon.mul(Rational.of(2)), delta };
  const growth = exponentialUpperBound(epsilon);
  return {
    epsilon: epsilon.mul(Rational.of(2)),
    delta: growth === null ? Rational.ONE : Rational.ONE.add(growth).mul(delta),
  };
}

/**
 * Σ ε and Σ δ of the entries, summed exactly and rounded up, under one relation. Entries all under
 * one relation are summed under it. Entries under both are summed under replace-one, each add/remove
 * entry first converted (addRemoveAsReplaceOne): replace-one with n public implies nothing under
 * add/remove, so no total under add/remove exists then. `under` states the total under replace-one
 * even when every entry is add/remove (a part of a larger mixed total); an empty ledger is
 * replace-one unless `under` says otherwise. Throws RangeError when `under` is add/remove and an
 * entry is replace-one.
 */
export function ledgerTotal(entries: readonly LedgerAmount[], under?: Neighbouring): LedgerTotal {
  // Entries known to be add/remove; one whose relation is unstated may be replace-one.
  const addRemove = entries.filter(
    (entry) => entry.neighbouring === 'add-remove' && entry.relationUnstated !== true,
  ).length;
  const neighbouring: Neighbouring =
    under ?? (addRemove > 0 && addRemove === entries.length ? 'add-remove' : 'replace-one');
  if (neighbouring === 'add-remove' && addRemove < entries.length) {
    throw new RangeError('ledger: a replace-one entry (n public) implies nothing under add/remove');
  }
  let epsilon = Rational.ZERO;
  let delta = Rational.ZERO;
  let converted = 0;
  entries.forEach((entry, i) => {
    let e = exact(entry.epsilon, `entry ${i + 1} ε`);
    let d = exact(entry.delta, `entry ${i + 1} δ`);
    if (entry.neighbouring === 'add-remove' && neighbouring === 'replace-one') {
      ({ epsilon: e, delta: d } = addRemoveAsReplaceOne(e, d));
      converted += 1;
    }
    epsilon = epsilon.add(e);
    delta = delta.add(d);
  });
  return {
    epsilon: roundUpRational(epsilon),
    delta: roundUpRational(delta),
    entries: entries.length,
    neighbouring,
    converted,
  };
}

/** "ε = 3" or "ε = 3, δ = 2e-6". */
export function formatBudget(total: Pick<LedgerTotal, 'epsilon' | 'delta'>): string {
  return total.delta > 0 ? `ε = ${total.epsilon}, δ = ${total.delta}` : `ε = ${total.epsilon}`;
}

/**
 * A ledger total with its relation when it is not plain replace-one: "ε = 3" (every entry under
 * replace-one, the default), "ε = 2 (add/remove)", "ε = 3 (replace-one, add/remove entries converted)".
 */
export function formatLedgerTotal(
  total: Pick<LedgerTotal, 'epsilon' | 'delta' | 'neighbouring'> & { converted?: number },
): string {
  if (total.neighbouring === 'add-remove') return `${formatBudget(total)} (add/remove)`;
  if ((total.converted ?? 0) > 0) return `${formatBudget(total)} (replace-one, add/remove entries converted)`;
  return formatBudget(total);
}

const KINDS: readonly LedgerKind[] = ['run', 'sweep', 'compare', 'export', 'domain'];
const RELATIONS: readonly Neighbouring[] = ['replace-one', 'add-remove'];

/**
 * One entry as a line of the ledger file (JSON lines: one object per line). "neighbouring" is written
 * for add/remove only, so a replace-one line reads as the lines written before it existed.
 */
export function ledgerLine(entry: LedgerEntry): string {
  const { kind, at, mechanism, epsilon, delta, runs, what, neighbouring } = entry;
  return `${JSON.stringify({ kind, at, mechanism, epsilon, delta, runs, what, neighbouring })}\n`;
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
          'epsilon, delta, runs, what and neighbouring, as dpsynth writes it; ' +
          'restore the file rather than edit it.',
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
    if (e.neighbouring !== undefined && !RELATIONS.includes(e.neighbouring))
      fail(`"neighbouring" must be one of ${RELATIONS.join(', ')}.`);
    entries.push({
      kind: e.kind!,
      at: e.at!,
      mechanism: e.mechanism!,
      epsilon: e.epsilon!,
      delta: e.delta!,
      runs: e.runs!,
      what: e.what!,
      ...(e.neighbouring === undefined
        ? { neighbouring: 'add-remove' as const, relationUnstated: true as const }
        : { neighbouring: e.neighbouring }),
    });
  });
  return entries;
}
