import { useId } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { learnDomainPrivately } from '../../services/learn-domain';
import { selectInferredColumnNames, setLearnBudget, useSchemaStore } from '../../state/schema-store';
import { useDomainPlan, type DomainPlanState } from './use-domain-plan';

/** "ε = 0.5, δ = 1e-6" as typed, or "ε = 0.5" without δ. */
export function learnCost(budget: { epsilon: string; delta: string }): string {
  const delta = budget.delta.trim();
  return delta === '' || Number(delta) === 0
    ? `ε = ${budget.epsilon.trim()}`
    : `ε = ${budget.epsilon.trim()}, δ = ${delta}`;
}

/**
 * The budget for learning facts with DP and the button that learns every inferred column: bounds,
 * category lists, types and whole-number flags that are not declared, marked "dp" and paid for in
 * every claim on the schema. Each column's own button (ColumnSchemaEditor) spends the same budget
 * on that column alone.
 */
export function LearnDomainPanel() {
  const epsilonId = useId();
  const deltaId = useId();
  const budget = useSchemaStore((state) => state.learnBudget);
  const learning = useSchemaStore((state) => state.learning);
  const inferredNames = useSchemaStore(useShallow(selectInferredColumnNames));
  const domainBudget = useSchemaStore((state) => state.schema?.domainBudget);
  const schema = useSchemaStore((state) => state.schema);
  const plan = useDomainPlan(schema, budget, inferredNames);
  const reasonId = useId();
  const blocked = plan.status !== 'ready' || plan.view.refusal !== null;
  return (
    <div className="learn-domain" data-testid="learn-domain">
      <p>
        Or learn what you do not know from the data with differential privacy: each fact is marked{' '}
        <strong>dp</strong>, and what learning spends is added to the claim of every run on this schema and to
        the privacy ledger.
      </p>
      <div className="budget-grid">
        <label htmlFor={epsilonId}>ε for learning</label>
        <input
          id={epsilonId}
          type="text"
          inputMode="decimal"
          value={budget.epsilon}
          onChange={(event) => setLearnBudget('epsilon', event.target.value)}
        />
        <label htmlFor={deltaId}>δ for learning</label>
        <input
          id={deltaId}
          type="text"
          inputMode="decimal"
          value={budget.delta}
          onChange={(event) => setLearnBudget('delta', event.target.value)}
        />
      </div>
      {inferredNames.length > 0 && <PlanTable plan={plan} reasonId={reasonId} />}
      {inferredNames.length > 0 && (
        <button
          type="button"
          disabled={learning.busy || blocked}
          aria-describedby={reasonId}
          onClick={() => void learnDomainPrivately(inferredNames)}
        >
          Learn {inferredNames.length === 1 ? 'this domain' : `these ${inferredNames.length} domains`}{' '}
          privately (spend {learnCost(budget)})
        </button>
      )}
      {learning.busy && <p role="status">Learning the domain…</p>}
      {learning.error !== null && (
        <p className="field-error" role="alert">
          {learning.error}
        </p>
      )}
      {learning.warnings.map((warning, i) => (
        <p key={i} className="hint" role="status">
          {warning}
        </p>
      ))}
      {domainBudget !== undefined && (
        <p className="hint" data-testid="domain-budget">
          Learned with DP so far: ε = {domainBudget.epsilon}
          {Number(domainBudget.delta) > 0 ? `, δ = ${domainBudget.delta}` : ''} in {domainBudget.steps.length}{' '}
          steps; every run on this schema adds them to its claim.
        </p>
      )}
    </div>
  );
}

/**
 * The plan next to the budget: each fact's share of ε and its predicted quality, from the number
 * of rows, ε and δ only (nothing is read or spent), and, while it refuses, why and what would do.
 */
function PlanTable({ plan, reasonId }: { plan: DomainPlanState; reasonId: string }) {
  if (plan.status === 'pending') {
    return (
      <p id={reasonId} className="hint" role="status" data-testid="domain-plan-status">
        Planning how to spend ε…
      </p>
    );
  }
  if (plan.status === 'error') {
    return (
      <p id={reasonId} className="field-error" role="alert" data-testid="domain-plan-status">
        {plan.message}
      </p>
    );
  }
  const { view } = plan;
  return (
    <div data-testid="domain-plan">
      <table className="domain-plan">
        <caption>
          The plan for {view.n} rows, from n, ε and δ only: nothing is read or spent until you learn.
        </caption>
        <thead>
          <tr>
            <th scope="col">Fact</th>
            <th scope="col">Share of ε</th>
            <th scope="col">Predicted quality</th>
            <th scope="col">Floor</th>
          </tr>
        </thead>
        <tbody>
          {view.rows.map((row) => (
            <tr key={row[0]}>
              {row.map((cell, j) =>
                j === 0 ? (
                  <th scope="row" key={j}>
                    {cell}
                  </th>
                ) : (
                  <td key={j}>{cell}</td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {view.refusal === null ? (
        <p id={reasonId} className="hint" data-testid="domain-plan-status">
          Every fact meets its floor at this budget.
        </p>
      ) : (
        <p id={reasonId} className="field-error" role="alert" data-testid="domain-plan-status">
          Learning is off: {view.refusal}
        </p>
      )}
    </div>
  );
}
