import type { Recommendation } from '../../../core/recommend/rank';
import { SYNTHESIS_GOALS, type SynthesisGoal } from '../../../core/recommend/goals';
import type { Schema } from '../../../core/table/types';

interface GoalQuestionProps {
  schema: Schema;
  goal: SynthesisGoal | null;
  label: string;
  recommendation: Recommendation | null;
  onGoal(goal: SynthesisGoal): void;
  onLabel(label: string): void;
}

/**
 * "What is the synthetic data for?": the goal (and, to train a model, the label column) that orders
 * the catalogue below. Says that the ranking reads public facts only.
 */
export function GoalQuestion({ schema, goal, label, recommendation, onGoal, onLabel }: GoalQuestionProps) {
  const categorical = schema.columns.filter((column) => column.type === 'categorical');
  return (
    <div className="goal-question" data-testid="goal-question">
      <fieldset>
        <legend>What is the synthetic data for?</legend>
        {SYNTHESIS_GOALS.map((option) => (
          <label key={option.id} className="goal-option">
            <input
              type="radio"
              name="synthesis-goal"
              value={option.id}
              checked={goal === option.id}
              onChange={() => onGoal(option.id)}
            />{' '}
            {option.label}
          </label>
        ))}
        {goal === 'train-model' && (
          <label className="goal-label-column">
            Label column to predict{' '}
            <select value={label} onChange={(event) => onLabel(event.target.value)}>
              <option value="">(choose a categorical column)</option>
              {categorical.map((column) => (
                <option key={column.name} value={column.name}>
                  {column.name}
                </option>
              ))}
            </select>
          </label>
        )}
      </fieldset>
      <p className="hint" data-testid="recommend-note">
        {goal === null
          ? 'Choose a goal to order the mechanisms by how well they suit this table. '
          : 'Mechanisms below are ordered by fit to this table and goal. '}
        The ranking reads public facts only (the number of rows, the columns’ kinds, declared categories and
        bounds, ε and δ) and each mechanism’s measured benchmarks: nothing reads the data, and no budget is
        spent.
      </p>
      {recommendation !== null && recommendation.inferredColumns.length > 0 && (
        <p className="hint" data-testid="recommend-inferred">
          The facts of {recommendation.inferredColumns.join(', ')} are still inferred (read from the data, not
          private); the ranking uses them as the claim does. Declare them or learn them privately on the
          Schema step for a ranking from public facts only.
        </p>
      )}
      {recommendation !== null && !recommendation.ranking.some((entry) => entry.recommended) && (
        <p className="hint" data-testid="recommend-none">
          No mechanism that can run here is measured to do well on this table and goal; they are listed by
          fit.
        </p>
      )}
    </div>
  );
}
