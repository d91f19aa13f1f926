/**
 * ε as it may appear in a file name: the user's decimal text with "." replaced by "_"
 * (1 → "1", 0.5 → "0_5", 1e-3 → "1e-3"), anything else that is not [0-9a-zA-Z_-] dropped.
 */
export function epsilonForFileName(epsilon: string): string {
  return epsilon
    .trim()
    .replace(/\./g, '_')
    .replace(/[^0-9a-zA-Z_-]/g, '');
}

/** Before the extension of a seeded run's files: reproducible random numbers, so not for release. */
function seededMark(seeded: boolean): string {
  return seeded ? '.not-for-release' : '';
}

/**
 * `synth_laplace-histogram_eps1_1-of-3.csv`: one synthetic release (1-based index); a seeded run's
 * name ends `.not-for-release.csv`.
 */
export function releaseCsvFileName(
  mechanismId: string,
  epsilon: string,
  index: number,
  releases: number,
  seeded = false,
): string {
  return `synth_${mechanismId}_eps${epsilonForFileName(epsilon)}_${index}-of-${releases}${seededMark(seeded)}.csv`;
}

/**
 * `release-report_laplace-histogram_eps1.json`: the DP release report (DESIGN.md §2); a seeded run's
 * name ends `.not-for-release.json`.
 */
export function releaseReportFileName(mechanismId: string, epsilon: string, seeded = false): string {
  return `release-report_${mechanismId}_eps${epsilonForFileName(epsilon)}${seededMark(seeded)}.json`;
}

/** The evaluation report is computed from the real data; its name says it is not for release. */
export function evaluationReportFileName(mechanismId: string, epsilon: string): string {
  return `evaluation-for-data-holder-not-for-release_${mechanismId}_eps${epsilonForFileName(epsilon)}.json`;
}

/** Schema JSON export name, from the data file's name: `penguins.csv` → `penguins.schema.json`. */
export function schemaFileName(dataFileName: string): string {
  const stem = dataFileName.replace(/\.[^.]*$/, '') || 'data';
  return `${stem}.schema.json`;
}
