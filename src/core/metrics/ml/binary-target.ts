import { compareByCodePoint } from '../../table/code-point-order';
import type { Column, Table } from '../../table/types';

/** How a target column is turned into a 0/1 label, fixed from the real training table. */
export type BinaryTargetRule =
  | { kind: 'level'; column: string; positiveLevel: string }
  | { kind: 'zero-one'; column: string }
  | { kind: 'above'; column: string; threshold: number };

function targetColumn(table: Table, name: string): Column {
  const column = table.columns.find((candidate) => candidate.name === name);
  if (column === undefined) throw new Error(`Target column "${name}" is not in the table.`);
  return column;
}

/**
 * The labelling rule of a classification task, decided on the real training table only:
 * - categorical target: 1 = `positiveLevel` if given; else, with exactly two observed levels, the
 *   second in code-point order (R's glm convention); else the most frequent level (one-vs-rest);
 * - numeric target with only 0/1 values: the value itself;
 * - other numeric target: 1 = above the real training median (given `positiveLevel` is ignored).
 * Throws when the target has no observed value.
 */
export function decideBinaryTarget(
  realTrain: Table,
  target: string,
  positiveLevel?: string,
): BinaryTargetRule {
  const column = targetColumn(realTrain, target);
  if (column.kind === 'categorical') {
    if (positiveLevel !== undefined) return { kind: 'level', column: target, positiveLevel };
    const counts = new Map<string, number>();
    for (let i = 0; i < column.codes.length; i++) {
      if (column.missing[i] === 1) continue;
      const token = column.dictionary[column.codes[i]!]!;
      counts.set(token, (counts.get(token) ?? 0) + 1);
    }
    if (counts.size === 0) throw new Error(`Target column "${target}" has no values.`);
    const levels = [...counts.keys()].sort(compareByCodePoint);
    if (levels.length === 2) return { kind: 'level', column: target, positiveLevel: levels[1]! };
    const mostFrequent = levels.reduce((best, level) =>
      counts.get(level)! > counts.get(best)! ? level : best,
    );
    return { kind: 'level', column: target, positiveLevel: mostFrequent };
  }
  const observed: number[] = [];
  for (let i = 0; i < column.values.length; i++)
    if (column.missing[i] !== 1) observed.push(column.values[i]!);
  if (observed.length === 0) throw new Error(`Target column "${target}" has no values.`);
  if (observed.every((v) => v === 0 || v === 1)) return { kind: 'zero-one', column: target };
  observed.sort((a, b) => a - b);
  const middle = observed.length >> 1;
  const median =
    observed.length % 2 === 1 ? observed[middle]! : (observed[middle - 1]! + observed[middle]!) / 2;
  return { kind: 'above', column: target, threshold: median };
}

/**
 * Labels of a table under a rule: 0/1 per row, and 255 where the target is missing (such rows are
 * left out of training and scoring). A synthetic categorical column is matched by token.
 */
export function labelRows(table: Table, rule: BinaryTargetRule): Uint8Array {
  const column = targetColumn(table, rule.column);
  const labels = new Uint8Array(table.nRows);
  for (let i = 0; i < table.nRows; i++) {
    if (column.missing[i] === 1) {
      labels[i] = 255;
    } else if (column.kind === 'categorical') {
      if (rule.kind !== 'level') throw new Error(`Target "${rule.column}" is categorical in one table only.`);
      labels[i] = column.dictionary[column.codes[i]!] === rule.positiveLevel ? 1 : 0;
    } else {
      if (rule.kind === 'level') throw new Error(`Target "${rule.column}" is numeric in one table only.`);
      labels[i] =
        rule.kind === 'zero-one'
          ? column.values[i] === 1
            ? 1
            : 0
          : column.values[i]! > rule.threshold
            ? 1
            : 0;
    }
  }
  return labels;
}

/** A human-readable statement of the rule, for reports. */
export function describeBinaryTarget(rule: BinaryTargetRule): string {
  if (rule.kind === 'level') return `${rule.column} = ${rule.positiveLevel}`;
  if (rule.kind === 'zero-one') return `${rule.column} = 1`;
  return `${rule.column} > ${rule.threshold}`;
}
