/**
 * The options `dpsynth synth` reads the same way whether the table is in memory (commands/synth.ts)
 * or the counts come from a count source (commands/synth-counts.ts).
 */
import { mechanismSeed } from '../core/job/job-seeds';
import { UsageError } from './errors';

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
