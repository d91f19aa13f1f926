/**
 * The seeds a job derives from the one the user set. A seed makes every generator of the job
 * reproducible (and the output not for release); each generator gets its own seed, so one never
 * shifts another's random stream.
 */

/** The seed of the mechanism's generator: the job's seed trimmed; undefined (cryptographic randomness) when empty or absent. */
export function mechanismSeed(job: { seed?: string | undefined }): string | undefined {
  const seed = job.seed?.trim();
  return seed ? seed : undefined;
}

/** The seed of the generator that chooses the kept-back rows: "<seed>/holdout"; undefined when the job is not seeded. */
export function holdoutSeed(job: { seed?: string | undefined }): string | undefined {
  const seed = mechanismSeed(job);
  return seed === undefined ? undefined : `${seed}/holdout`;
}

/**
 * The seed of one run of an ε sweep or a comparison at `epsilon` that makes the releases of the
 * given repeats: "<seed>/<ε>/<r>" for one repeat, "<seed>/<ε>/<r1>+<r2>…" for several (one run with
 * a release per repeat). The same mechanism, ε and repeat give the same numbers in Tune and Compare.
 */
export function repeatSeed(seed: string, epsilon: string | number, repeats: readonly number[]): string {
  return `${seed}/${epsilon}/${repeats.join('+')}`;
}
