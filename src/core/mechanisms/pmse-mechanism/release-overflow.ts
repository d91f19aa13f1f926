import { SpentBudgetError } from '../../privacy/spent-budget-error';
import type { NumericColumn, Table } from '../../table/types';
import type { SynthesisModel } from './model';

/**
 * Largest magnitude a released synthetic value may have: squares summed over up to 10⁷ rows then stay
 * finite (10⁷ · (10¹⁵⁰)² = 10³⁰⁷ < 1.8·10³⁰⁸), so no later mean, variance or regression overflows.
 * Values at or beyond it come only from parameters θ̃ drawn far from the data.
 */
export const RELEASE_MAGNITUDE_LIMIT = 1e150;

/** The first numeric column (model order) and release with a value beyond the limit, or null. */
export function findReleaseOverflow(
  model: SynthesisModel,
  datasets: Table[],
): { column: string; release: number } | null {
  for (const [release, table] of datasets.entries()) {
    for (const modelColumn of model.columns) {
      if (modelColumn.kind !== 'numeric') continue;
      const column = table.columns.find((candidate) => candidate.name === modelColumn.name) as NumericColumn;
      for (let i = 0; i < table.nRows; i++) {
        if (column.missing[i]) continue;
        const value = column.values[i]!;
        if (!(Math.abs(value) < RELEASE_MAGNITUDE_LIMIT)) return { column: modelColumn.name, release };
      }
    }
  }
  return null;
}

/**
 * Refuses to release synthetic data whose values overflow (DP outputs: θ̃ and fresh noise decide
 * it, so refusing is post-processing). The message says what to change and that the budget was
 * spent: the parameters were drawn before the values were made.
 */
export function throwIfReleaseOverflows(
  model: SynthesisModel,
  datasets: Table[],
  spentEpsilon: number,
  weightScale: number,
): void {
  const overflow = findReleaseOverflow(model, datasets);
  if (overflow === null) return;
  const bounded = model.columns.find((column) => column.name === overflow.column)?.bounds !== null;
  throw new SpentBudgetError(
    `The pMSE mechanism drew parameters θ̃ so far from the data that synthetic values of ` +
      `\`${overflow.column}\` (release ${overflow.release + 1} of ${datasets.length}) reach ` +
      `±${RELEASE_MAGNITUDE_LIMIT.toExponential()}; nothing was released. The budget of this run ` +
      `(ε = ${spentEpsilon}) is spent all the same: the parameters were drawn with it. ` +
      (bounded
        ? ''
        : `Declare bounds for \`${overflow.column}\` in the schema (values are then clamped to them), `) +
      `${bounded ? 'Spend' : 'spend'} more ε per release or release fewer datasets (the exponential ` +
      `mechanism's scale ε/(2·releases·Δu) is ${weightScale.toPrecision(3)}; aim for 100 or more).`,
  );
}
