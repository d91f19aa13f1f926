/** What reading one column changed or rejected; every nonzero count reaches the user as a sentence. */
export interface ColumnValidation {
  name: string;
  /** Cells holding a missing token (they stay missing: missingness is data). */
  missing: number;
  /** Numeric values below the lower bound, set to the bound. */
  clampedBelow: number;
  /** Numeric values above the upper bound, set to the bound. */
  clampedAbove: number;
  /** Tokens in a numeric column that are not numbers: rejected, stored as missing. */
  nonNumeric: number;
  /**
   * Categorical tokens outside the schema's categories, by value (most frequent first): stored as
   * missing, or as the column's `other` level when it has one (`otherLevel`).
   */
  undeclared: { value: string; count: number }[];
  /** The level that took the values outside the list, when the schema names one. */
  otherLevel?: string;
  /** Non-whole values in an integer column, rounded half away from zero. */
  roundedToInteger: number;
}

export interface ValidationReport {
  columns: ColumnValidation[];
  /** Rows removed because a value was missing (only with dropIncompleteRows). */
  droppedIncompleteRows: number;
  /** One human sentence per nonzero count above. */
  messages: string[];
}

/** "1 value" / "3 values". */
function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

const UNDECLARED_EXAMPLES = 5;

/** The sentences for one column's nonzero counts. */
export function describeColumnValidation(column: ColumnValidation): string[] {
  const name = `\`${column.name}\``;
  const sentences: string[] = [];
  if (column.missing > 0)
    sentences.push(`${name}: ${countOf(column.missing, 'missing value')}, kept as missing.`);
  if (column.nonNumeric > 0) {
    sentences.push(
      `${name}: ${countOf(column.nonNumeric, 'value')} that ${column.nonNumeric === 1 ? 'is' : 'are'} not a number, treated as missing.`,
    );
  }
  if (column.clampedBelow > 0) {
    sentences.push(
      `${name}: ${countOf(column.clampedBelow, 'value')} below the lower bound, raised to the bound.`,
    );
  }
  if (column.clampedAbove > 0) {
    sentences.push(
      `${name}: ${countOf(column.clampedAbove, 'value')} above the upper bound, lowered to the bound.`,
    );
  }
  if (column.roundedToInteger > 0) {
    sentences.push(
      `${name}: ${countOf(column.roundedToInteger, 'non-whole value')} in an integer column, rounded to the nearest integer.`,
    );
  }
  if (column.undeclared.length > 0) {
    const total = column.undeclared.reduce((sum, entry) => sum + entry.count, 0);
    const examples = column.undeclared
      .slice(0, UNDECLARED_EXAMPLES)
      .map((entry) => `"${entry.value}" (${entry.count})`)
      .join(', ');
    const more = column.undeclared.length > UNDECLARED_EXAMPLES ? ', …' : '';
    sentences.push(
      column.otherLevel === undefined
        ? `${name}: ${countOf(total, 'value')} outside the declared categories, treated as missing: ${examples}${more}.`
        : `${name}: ${countOf(total, 'value')} outside the category list, counted as "${column.otherLevel}": ` +
            `${examples}${more}.`,
    );
  }
  return sentences;
}

/** All sentences of a report, column by column, then the dropped rows. */
export function describeValidation(columns: ColumnValidation[], droppedIncompleteRows: number): string[] {
  const sentences = columns.flatMap(describeColumnValidation);
  if (droppedIncompleteRows > 0) {
    sentences.push(`${countOf(droppedIncompleteRows, 'row')} with a missing value removed, as requested.`);
  }
  return sentences;
}
