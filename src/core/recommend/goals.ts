import type { SynthesisGoal } from '../mechanisms/types';

export type { SynthesisGoal };

/** The goals a person can name, in the order the studio asks and the CLI lists them. */
export const SYNTHESIS_GOALS: readonly { id: SynthesisGoal; label: string }[] = [
  { id: 'relationships', label: 'Keep relationships between columns for analysis' },
  { id: 'train-model', label: 'Train a model to predict a label column' },
  { id: 'distributions', label: "Keep each column's distribution" },
  { id: 'regression-inference', label: 'Estimate a regression with valid intervals from several releases' },
];

export function isSynthesisGoal(value: string): value is SynthesisGoal {
  return SYNTHESIS_GOALS.some((goal) => goal.id === value);
}

/** The words of a goal, e.g. "keep each column's distribution". */
export function goalWords(goal: SynthesisGoal): string {
  const label = SYNTHESIS_GOALS.find((g) => g.id === goal)!.label;
  return label.charAt(0).toLowerCase() + label.slice(1);
}
