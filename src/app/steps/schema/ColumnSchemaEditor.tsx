import { useId, useState } from 'react';
import type { ColumnSchema, Schema } from '../../../core/table/types';
import type { ColumnProfile, ColumnValidationCounts } from '../../../worker/protocol';
import { SourceBadge } from '../../components/SourceBadge';
import { dataSession } from '../../services/workers';
import { messageOf } from '../../services/run-readiness';
import { columnParts, inferredPartsOf, partSource } from '../../../core/table/schema-facts';
import {
  declareColumn,
  declareParts,
  replaceFactsAsInferred,
  updateColumn,
  useSchemaStore,
} from '../../state/schema-store';
import { learnDomainPrivately } from '../../services/learn-domain';
import { learnCost } from './LearnDomainPanel';
import { formatCount } from '../../components/number-format';

interface ColumnSchemaEditorProps {
  index: number;
  column: ColumnSchema;
  /** The same column as inferred from the data, used when the type is switched. */
  inferred: ColumnSchema | undefined;
  missingTokens: Schema['missing'];
  counts: ColumnValidationCounts | undefined;
  /** The column's profile, to point out whole-number codes (for the data holder only). */
  profile?: ColumnProfile | undefined;
}

/** Whole-number columns with at most this many distinct values in a range this narrow look like codes. */
const CODE_DISTINCT_LIMIT = 12;
const CODE_RANGE_LIMIT = 50;

/**
 * The categories a whole-number column would get as codes: every integer inside its bounds, or null
 * when it does not look like codes (few distinct whole numbers in a narrow range).
 */
export function codeCategories(column: ColumnSchema, profile: ColumnProfile | undefined): string[] | null {
  if (column.type !== 'numeric' || column.integer !== true || column.bounds === undefined) return null;
  if (profile === undefined || profile.distinct > CODE_DISTINCT_LIMIT) return null;
  const first = Math.ceil(column.bounds[0]);
  const last = Math.floor(column.bounds[1]);
  if (last - first + 1 > CODE_RANGE_LIMIT) return null;
  return Array.from({ length: last - first + 1 }, (_, k) => String(first + k));
}

/** Type, bounds, integer flag or category list of one column, with its declared/inferred badge. */
export function ColumnSchemaEditor({
  index,
  column,
  inferred,
  missingTokens,
  counts,
  profile,
}: ColumnSchemaEditorProps) {
  const typeId = useId();
  const missingId = useId();
  const codes = codeCategories(column, profile);
  // The codes come from the bounds: the list is as public as the bounds are (inferred bounds make
  // the list, and the rest of the column, inferred; the type is the user's choice, declared).
  const makeCategorical = (categories: string[]) => {
    const inferredBounds =
      partSource(column, 'lower') === 'inferred' || partSource(column, 'upper') === 'inferred';
    const next: ColumnSchema = {
      name: column.name,
      type: 'categorical',
      categories,
      ...(column.canBeMissing === undefined ? {} : { canBeMissing: column.canBeMissing }),
      source: inferredBounds ? 'inferred' : column.source,
    };
    updateColumn(index, next, ['type']);
  };
  const switchType = (type: ColumnSchema['type']) => {
    if (type === column.type) return;
    // Back to the inferred type: its inferred bounds or categories come back, still inferred.
    if (inferred?.type === type) updateColumn(index, { ...inferred }, ['type']);
    else if (type === 'numeric')
      updateColumn(index, { name: column.name, type: 'numeric', source: 'declared' }, ['type']);
    else
      updateColumn(index, { name: column.name, type: 'categorical', categories: [], source: 'declared' }, [
        'type',
      ]);
  };
  const inferredCount = inferredPartsOf(column).length;
  const partly = inferredCount > 0 && inferredCount < columnParts(column).length;
  const learnBudget = useSchemaStore((state) => state.learnBudget);
  const learning = useSchemaStore((state) => state.learning.busy);
  return (
    <li className="schema-column" data-testid="schema-column" data-column={column.name}>
      <div className="schema-column-head">
        <h4>{column.name}</h4>
        <SourceBadge source={partly ? 'inferred' : column.source} partly={partly} />
        {inferredCount > 0 && (
          <button type="button" className="link-button" onClick={() => declareColumn(index)}>
            I declare these public
            <span className="visually-hidden"> ({column.name})</span>
          </button>
        )}
        {inferredCount > 0 && (
          <button
            type="button"
            className="link-button"
            disabled={learning}
            onClick={() => void learnDomainPrivately([column.name])}
          >
            Learn this domain privately (spend {learnCost(learnBudget)})
            <span className="visually-hidden"> ({column.name})</span>
          </button>
        )}
      </div>
      <div className="schema-fields">
        <label htmlFor={typeId}>Type</label>
        <select
          id={typeId}
          value={column.type}
          onChange={(event) => switchType(event.target.value as ColumnSchema['type'])}
        >
          <option value="numeric">numeric</option>
          <option value="categorical">categorical</option>
        </select>
        <SourceBadge source={partSource(column, 'type')} fact="type" />
        {column.type === 'numeric' ? (
          <NumericFields index={index} column={column} />
        ) : (
          <CategoryFields index={index} column={column} missingTokens={missingTokens} />
        )}
        <label className="checkbox-label" htmlFor={missingId}>
          <input
            id={missingId}
            type="checkbox"
            checked={column.canBeMissing !== false}
            onChange={(event) =>
              updateColumn(index, { ...column, canBeMissing: event.target.checked }, ['canBeMissing'])
            }
          />
          can be missing
        </label>
        {column.canBeMissing !== undefined ? (
          <SourceBadge source={partSource(column, 'canBeMissing')} fact="can be missing" />
        ) : (
          <span />
        )}
      </div>
      {codes !== null && (
        <p className="hint" data-testid="code-hint">
          {column.name} holds {profile!.distinct} distinct whole numbers: they look like codes. As a number,
          its values are binned and averaged over; as categories, each code is a level of its own.{' '}
          <button type="button" className="link-button" onClick={() => makeCategorical(codes)}>
            Make it categorical ({codes.length} codes)
            <span className="visually-hidden"> ({column.name})</span>
          </button>
        </p>
      )}
      <ValidationLine counts={counts} />
    </li>
  );
}

function NumericFields({ index, column }: { index: number; column: ColumnSchema & { type: 'numeric' } }) {
  const lowerId = useId();
  const upperId = useId();
  const integerId = useId();
  const errorId = useId();
  const [draft, setDraft] = useState<{ lower: string; upper: string } | null>(null);
  const lower = draft?.lower ?? (column.bounds ? String(column.bounds[0]) : '');
  const upper = draft?.upper ?? (column.bounds ? String(column.bounds[1]) : '');
  const parsedLower = lower.trim() === '' ? Number.NaN : Number(lower);
  const parsedUpper = upper.trim() === '' ? Number.NaN : Number(upper);
  const bothGiven = Number.isFinite(parsedLower) && Number.isFinite(parsedUpper);
  const problem =
    lower.trim() === '' && upper.trim() === ''
      ? 'No bounds: mechanisms that bin this column need them.'
      : !bothGiven
        ? 'Bounds must be two numbers.'
        : parsedLower >= parsedUpper
          ? 'The lower bound must be below the upper bound.'
          : null;
  const commit = (next: { lower: string; upper: string }) => {
    setDraft(next);
    // Only the end the user typed becomes declared; the other keeps its source.
    const edited = (['lower', 'upper'] as const).filter((end) => next[end] !== { lower, upper }[end]);
    const lo = Number(next.lower);
    const hi = Number(next.upper);
    if (
      next.lower.trim() !== '' &&
      next.upper.trim() !== '' &&
      Number.isFinite(lo) &&
      Number.isFinite(hi) &&
      lo < hi
    ) {
      updateColumn(
        index,
        { ...column, bounds: [lo, hi] },
        column.bounds === undefined ? ['lower', 'upper'] : edited,
      );
      setDraft(null);
    }
  };
  return (
    <>
      <label htmlFor={lowerId}>Lower bound</label>
      <input
        id={lowerId}
        inputMode="decimal"
        value={lower}
        aria-invalid={problem !== null && lower.trim() !== ''}
        aria-describedby={problem ? errorId : undefined}
        onChange={(event) => commit({ lower: event.target.value, upper })}
      />
      {column.bounds !== undefined ? (
        <SourceBadge source={partSource(column, 'lower')} fact="lower bound" />
      ) : (
        <span />
      )}
      <label htmlFor={upperId}>Upper bound</label>
      <input
        id={upperId}
        inputMode="decimal"
        value={upper}
        aria-invalid={problem !== null && upper.trim() !== ''}
        aria-describedby={problem ? errorId : undefined}
        onChange={(event) => commit({ lower, upper: event.target.value })}
      />
      {column.bounds !== undefined ? (
        <SourceBadge source={partSource(column, 'upper')} fact="upper bound" />
      ) : (
        <span />
      )}
      <label className="checkbox-label" htmlFor={integerId}>
        <input
          id={integerId}
          type="checkbox"
          checked={column.integer === true}
          onChange={(event) => updateColumn(index, { ...column, integer: event.target.checked }, ['integer'])}
        />
        whole numbers
      </label>
      {column.integer !== undefined ? (
        <SourceBadge source={partSource(column, 'integer')} fact="integer" />
      ) : (
        <span />
      )}
      {problem !== null && (
        <p id={errorId} className="field-problem">
          {problem}
        </p>
      )}
    </>
  );
}

function CategoryFields({
  index,
  column,
  missingTokens,
}: {
  index: number;
  column: ColumnSchema & { type: 'categorical' };
  missingTokens: string[];
}) {
  const listId = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const text = draft ?? (column.categories ?? []).join('\n');
  const listSource = partSource(column, 'categories');
  const commit = (value: string) => {
    setDraft(value);
    const categories = [
      ...new Set(
        value
          .split('\n')
          .map((line) => line.trim())
          .filter((line) => line !== ''),
      ),
    ];
    // A list read from the data stays inferred while any of its lines remain: it is declared only
    // when the user replaces the whole list, or confirms it with "I declare this list".
    const before = column.categories ?? [];
    const replaced = listSource === 'declared' || !categories.some((category) => before.includes(category));
    updateColumn(index, { ...column, categories }, replaced ? ['categories'] : []);
  };
  const fillFromData = async () => {
    try {
      const { tokens, truncated } = await dataSession.worker.distinctTokens(column.name, missingTokens, 1000);
      setDraft(null);
      // Read from the data, so the list is inferred, not declared.
      replaceFactsAsInferred(index, { ...column, categories: tokens }, ['categories']);
      setNote(truncated ? 'Only the first 1,000 distinct values were taken.' : null);
    } catch (error) {
      setNote(messageOf(error));
    }
  };
  return (
    <>
      <label htmlFor={listId} className="schema-wide-label">
        Categories (one per line)
      </label>
      <textarea
        id={listId}
        className="schema-category-list"
        rows={Math.min(6, Math.max(2, (column.categories ?? []).length))}
        value={text}
        onChange={(event) => commit(event.target.value)}
        onBlur={() => setDraft(null)}
      />
      {column.categories !== undefined ? <SourceBadge source={listSource} fact="categories" /> : <span />}
      {column.categories !== undefined && listSource === 'inferred' && (
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setDraft(null);
            declareParts(index, ['categories']);
          }}
        >
          I declare this list public
          <span className="visually-hidden"> for {column.name}</span>
        </button>
      )}
      <button type="button" className="link-button" onClick={() => void fillFromData()}>
        Fill from the data (inferred)
        <span className="visually-hidden"> for {column.name}</span>
      </button>
      {note && <p className="field-problem">{note}</p>}
    </>
  );
}

function ValidationLine({ counts }: { counts: ColumnValidationCounts | undefined }) {
  if (counts === undefined) return null;
  const parts: string[] = [];
  if (counts.clampedBelow > 0)
    parts.push(`${formatCount(counts.clampedBelow)} below the lower bound (clamped)`);
  if (counts.clampedAbove > 0)
    parts.push(`${formatCount(counts.clampedAbove)} above the upper bound (clamped)`);
  if (counts.nonNumeric > 0) parts.push(`${formatCount(counts.nonNumeric)} not numbers (treated as missing)`);
  if (counts.roundedToInteger > 0)
    parts.push(`${formatCount(counts.roundedToInteger)} rounded to whole numbers`);
  const undeclared = counts.undeclared.reduce((sum, entry) => sum + entry.count, 0);
  if (undeclared > 0) {
    const examples = counts.undeclared
      .slice(0, 3)
      .map((entry) => `“${entry.value}”`)
      .join(', ');
    parts.push(
      `${formatCount(undeclared)} not in the category list (${examples}; rejected, counted as missing)`,
    );
  }
  if (parts.length === 0) return <p className="validation-ok">All values inside the declared domain.</p>;
  return (
    <p className="validation-problem" data-testid="validation-counts">
      Outside the domain: {parts.join('; ')}.
    </p>
  );
}
