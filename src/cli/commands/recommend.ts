import { MECHANISM_CATALOGUE } from '../../core/mechanisms/catalogue';
import { parseBudget } from '../../core/privacy/budget';
import { formatCells } from '../../core/recommend/facts';
import { goalWords, isSynthesisGoal, SYNTHESIS_GOALS } from '../../core/recommend/goals';
import { recommendMechanisms, type Recommendation } from '../../core/recommend/rank';
import { InputError } from '../../core/table/errors';
import { decodeCsvBytes } from '../../core/table/csv-read';
import { parseSchemaJson } from '../../core/table/schema-json';
import type { Schema } from '../../core/table/types';
import { UsageError } from '../errors';
import { readUserFile, type CliIo } from '../io';
import type { ParsedArgs } from '../args';

const GOAL_IDS = SYNTHESIS_GOALS.map((goal) => goal.id).join('|');

/**
 * `dpsynth recommend --schema s.json --rows N --epsilon E [--delta D] --goal G [--label COL] [--json]`:
 * the catalogue ranked for a table and a goal from public facts only (the schema, n, ε, δ, the
 * label's name). It reads no data file.
 */
export const recommendCommand = {
  options: {
    schema: { type: 'string' },
    rows: { type: 'string' },
    epsilon: { type: 'string' },
    delta: { type: 'string' },
    goal: { type: 'string' },
    label: { type: 'string' },
    json: { type: 'boolean' },
  } as const,
  run(args: ParsedArgs, io: CliIo) {
    const v = args.values;
    if (args.positionals.length > 0)
      throw new UsageError(
        `dpsynth recommend reads no data file (got ${args.positionals[0]}): give the public facts with --schema and --rows.`,
      );
    if (v.schema === undefined)
      throw new UsageError('dpsynth recommend needs --schema s.json (see dpsynth schema).');
    if (v.rows === undefined)
      throw new UsageError('dpsynth recommend needs --rows N, the number of rows of the table.');
    if (v.epsilon === undefined)
      throw new UsageError('dpsynth recommend needs --epsilon E, the budget you plan to spend.');
    if (v.goal === undefined) throw new UsageError(`dpsynth recommend needs --goal ${GOAL_IDS}.`);
    const goal = String(v.goal);
    if (!isSynthesisGoal(goal)) throw new UsageError(`--goal must be one of ${GOAL_IDS}; got "${goal}".`);
    const rows = parseRows(String(v.rows));
    const epsilon = String(v.epsilon);
    const delta = v.delta === undefined ? '0' : String(v.delta);
    parseBudget(epsilon, delta); // the budget's own message for a bad ε or δ
    const schemaPath = String(v.schema);
    const schema = parseSchemaJson(
      decodeCsvBytes(readUserFile(schemaPath, 'schema'), schemaPath),
      schemaPath,
    );
    const label = v.label === undefined ? null : String(v.label);
    if (label !== null) checkLabel(label, goal, schema, schemaPath);
    const recommendation = recommendMechanisms(
      { schema, rows, epsilon, delta, goal, label },
      MECHANISM_CATALOGUE,
    );
    if (v.json) {
      io.out(`${JSON.stringify(recommendation, null, 2)}\n`);
      return;
    }
    io.out(recommendationText(recommendation));
  },
};

/** n as a whole number ≥ 1, written in digits (no exponent, no separators). */
function parseRows(text: string): number {
  const rows = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!Number.isSafeInteger(rows) || rows < 1)
    throw new UsageError(`--rows must be a whole number of rows, at least 1 (the table's n); got "${text}".`);
  return rows;
}

function checkLabel(label: string, goal: string, schema: Schema, schemaPath: string): void {
  if (goal !== 'train-model')
    throw new UsageError('--label goes with --goal train-model (the column a model predicts).');
  const column = schema.columns.find((c) => c.name === label);
  if (column === undefined)
    throw new InputError(
      `${schemaPath}: --label ${label} is not a column of the schema; its columns are ${schema.columns.map((c) => c.name).join(', ')}.`,
      { file: schemaPath, column: label },
    );
  if (column.type !== 'categorical')
    throw new InputError(
      `${schemaPath}: --label ${label} is a numeric column; a label to predict must be categorical (declare it so, with its categories).`,
      { file: schemaPath, column: label },
    );
}

/** The ranking as text: the facts it read, then one block per mechanism, recommended first. */
export function recommendationText(recommendation: Recommendation): string {
  const { facts, cells } = recommendation;
  const kinds = (kind: 'numeric' | 'categorical') => facts.columns.filter((c) => c.kind === kind).length;
  const lines = [
    `Goal: ${goalWords(recommendation.goal)}.`,
    `Public facts read: ${facts.rows.toLocaleString('en-US')} rows, ${facts.columns.length} columns ` +
      `(${kinds('numeric')} numeric, ${kinds('categorical')} categorical), ` +
      (cells === null
        ? 'cross-tabulation size unknown (undeclared bounds or categories), '
        : `${formatCells(cells)} cells in the full cross-tabulation, `) +
      `ε = ${facts.epsilon}, δ = ${facts.delta}${facts.label === null ? '' : `, label ${facts.label}`}. ` +
      'No data was read.',
    '',
  ];
  if (recommendation.inferredColumns.length > 0)
    lines.push(
      `The schema's facts of ${recommendation.inferredColumns.join(', ')} are marked "inferred": read from the data, ` +
        'not private. Declare them or learn them with DP (dpsynth schema --private) for a ranking from public facts only.',
      '',
    );
  if (!recommendation.ranking.some((r) => r.recommended))
    lines.push(
      'No mechanism that can run here is measured to do well on this table and goal; ranked by fit:',
      '',
    );
  recommendation.ranking.forEach((entry, i) => {
    const mark = entry.recommended ? '  [recommended]' : entry.problems.length > 0 ? '  [cannot run]' : '';
    lines.push(`${i + 1}. ${entry.id} — ${entry.label}${mark}`);
    lines.push(`   ${entry.reason}`);
    const settings = Object.entries(entry.params);
    if (settings.length > 0)
      lines.push(
        `   Settings: ${settings.map(([name, value]) => `--param ${name}=${String(value)}`).join(' ')}`,
      );
    for (const problem of entry.problems) lines.push(`   Cannot run: ${problem}`);
  });
  return `${lines.join('\n')}\n`;
}
