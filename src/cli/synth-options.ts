/**
 * The options `dpsynth synth` reads the same way whether the table is in memory (commands/synth.ts)
 * or the counts come from a count source (commands/synth-counts.ts), the names of its outputs and the
 * words of its messages.
 */
import { basename } from 'node:path';
import { mechanismSeed } from '../core/job/job-seeds';
import { parseNeighbouring, type Neighbouring } from '../core/mechanisms/neighbouring';
import { RELEASE_LIMITS, releasesWithin } from '../core/mechanisms/release-limits';
import { InputError } from '../core/table/errors';
import type { ParsedArgs } from './args';
import { UsageError } from './errors';

/** The options of `dpsynth synth`, for either way of running it. */
export const SYNTH_OPTIONS = {
  schema: { type: 'string' },
  mechanism: { type: 'string' },
  epsilon: { type: 'string' },
  delta: { type: 'string' },
  releases: { type: 'string' },
  neighbouring: { type: 'string' },
  param: { type: 'string', multiple: true },
  seed: { type: 'string' },
  out: { type: 'string' },
  report: { type: 'string' },
  'drop-incomplete-rows': { type: 'boolean' },
  'escape-formulas': { type: 'boolean' },
  'holdout-share': { type: 'string' },
  'holdout-out': { type: 'string' },
  'train-out': { type: 'string' },
  'publish-inferred': { type: 'boolean' },
  ledger: { type: 'string' },
  force: { type: 'boolean' },
  engine: { type: 'string' },
  source: { type: 'string' },
  counts: { type: 'string' },
} as const;

/** True when synth was asked to take its counts from a count source rather than a table in memory. */
export function usesCountSource(v: ParsedArgs['values']): boolean {
  return v.engine !== undefined || v.source !== undefined || v.counts !== undefined;
}

/** The --neighbouring option: replace-one (the default) or add-remove; anything else is a usage error. */
export function neighbouringOption(value: unknown): Neighbouring {
  if (value === undefined) return 'replace-one';
  const relation = parseNeighbouring(String(value));
  if (relation === undefined) {
    throw new UsageError(`--neighbouring must be replace-one or add-remove; got '${String(value)}'.`);
  }
  return relation;
}

/**
 * The --seed option as the job model reads it (core mechanismSeed: trimmed); undefined when not
 * given. A seed that is empty or blank is a usage error: it would seed nothing.
 */
export function seedOption(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const seed = mechanismSeed({ seed: String(value) });
  if (seed === undefined) {
    throw new UsageError('--seed needs a value, e.g. --seed 42; leave it out for cryptographic randomness.');
  }
  return seed;
}

export function missingOptionMessage(option: string): string {
  if (option === 'schema') {
    return (
      'dpsynth synth needs --schema s.json. Create one with `dpsynth schema data.csv > s.json`, replace the ' +
      'inferred bounds and categories with public knowledge, and mark them "declared"; or learn them with DP: ' +
      '`dpsynth schema data.csv --private --epsilon 0.1 --delta 1e-6 > s.json`.'
    );
  }
  return `dpsynth synth needs --${option}.`;
}

export function parseReleases(value: unknown): number {
  if (value === undefined) return 1;
  const text = String(value);
  const m = Number(text);
  if (!/^\d+$/.test(text) || !releasesWithin(m, RELEASE_LIMITS.cli)) {
    throw new InputError(
      `--releases must be a whole number between 1 and ${RELEASE_LIMITS.cli}; got '${text}'.`,
    );
  }
  return m;
}

/** Turns repeated `--param key=value` flags into a map of raw strings. */
export function parseParamFlags(flags: string[]): Record<string, string> {
  const result: Record<string, string> = {};
  for (const flag of flags) {
    const eq = flag.indexOf('=');
    if (eq <= 0) throw new InputError(`--param needs key=value; got '${flag}'.`);
    const key = flag.slice(0, eq);
    if (key in result) throw new InputError(`--param ${key} is given twice.`);
    result[key] = flag.slice(eq + 1);
  }
  return result;
}

/**
 * The --out name of a seeded run, with "not-for-release" before the extension (synth.csv →
 * synth.not-for-release.csv), unless the name already says so.
 */
export function markedNotForRelease(out: string): string {
  if (/not-for-release/i.test(basename(out))) return out;
  const { stem, extension } = splitExtension(out);
  return `${stem}.not-for-release${extension}`;
}

/** synth.csv → synth.report.json (beside the CSV). */
export function defaultReportPath(out: string): string {
  return `${splitExtension(out).stem}.report.json`;
}

function splitExtension(path: string): { stem: string; extension: string } {
  const dot = path.lastIndexOf('.');
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return dot > slash + 1
    ? { stem: path.slice(0, dot), extension: path.slice(dot) }
    : { stem: path, extension: '' };
}

/** "a", "a and b", "a, b and c". */
export function listOf(items: string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
}

/**
 * The mechanism's warnings, one stderr line each: `diagnostics.warnings` (from public facts, e.g.
 * ε·n/(2·releases) below 100 for the pMSE mechanism), and `dataHolderDiagnostics.mcmc.warnings` and
 * `dataHolderDiagnostics.warnings` (computed from the real data, e.g. R̂ above 1.1, or a sequential
 * regression's solver certificate above its allowed gap; for the data holder, not for release).
 */
export function mechanismWarnings(
  diagnostics: Record<string, unknown>,
  dataHolderDiagnostics: Record<string, unknown>,
): string[] {
  const strings = (value: unknown): string[] =>
    Array.isArray(value) ? value.filter((x): x is string => typeof x === 'string') : [];
  const mcmc = dataHolderDiagnostics.mcmc;
  const fromData = [
    ...(typeof mcmc === 'object' && mcmc !== null ? strings((mcmc as { warnings?: unknown }).warnings) : []),
    ...strings(dataHolderDiagnostics.warnings),
  ];
  return [
    ...strings(diagnostics.warnings).map((w) => `warning: ${w}\n`),
    ...fromData.map((w) => `warning (from the real data, for you only): ${w}\n`),
  ];
}
