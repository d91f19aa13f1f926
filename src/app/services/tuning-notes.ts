import type { DataLooks } from '../state/job-store';

const NOT_COUNTED =
  'those metrics compare the synthetic data with the real data, are not differentially private, and are not ' +
  'counted in this claim; the guarantee holds only if the choice is treated as public';

/**
 * Sentences for the claim panel and the release report when ε or the mechanism may have been chosen
 * after seeing utility computed on the real data (privacy rule 2: tuning choices are data-dependent
 * unless paid for). Empty when nothing computed on the data was shown before the run.
 */
export function tuningNotes(looks: DataLooks, epsilon: string): string[] {
  const notes: string[] = [];
  if (looks.epsilonFromSweep !== null && looks.epsilonFromSweep === epsilon.trim()) {
    notes.push(
      `ε = ${looks.epsilonFromSweep} was picked from an ε sweep run on the real data: ${NOT_COUNTED}.`,
    );
  } else if (looks.sweep) {
    notes.push(`An ε sweep was run on the real data before this run; if it informed ε, ${NOT_COUNTED}.`);
  }
  if (looks.compare) {
    notes.push(
      `Mechanisms were compared on the real data before this run; if that informed the choice of mechanism, ${NOT_COUNTED}.`,
    );
  }
  return notes;
}
