/** The studio's steps in page order (DESIGN.md §4); a step's number is its place in this list. */
export const STEP_IDS = [
  'step-data',
  'step-schema',
  'step-mechanism',
  'step-tune',
  'step-compare',
  'step-run',
  'step-results',
  'step-export',
] as const;

export type StepId = (typeof STEP_IDS)[number];

/** The number shown for a step, from 1. Example: stepNumber('step-mechanism') === 3. */
export function stepNumber(id: StepId): number {
  return STEP_IDS.indexOf(id) + 1;
}
