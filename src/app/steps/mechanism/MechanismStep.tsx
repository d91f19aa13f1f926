import { useState } from 'react';
import type { SynthesisGoal } from '../../../core/recommend/goals';
import { StepSection } from '../../components/StepSection';
import { useRecommendation } from '../../services/recommendation';
import { useRunReadiness } from '../../services/run-readiness';
import { tuningNotes } from '../../services/tuning-notes';
import { useJobStore } from '../../state/job-store';
import { useSchemaStore } from '../../state/schema-store';
import { ledgerSummaryParts, useLedgerStore } from '../../state/ledger-store';
import { formatBudget } from '../../../core/privacy/ledger';
import { BudgetFields } from './BudgetFields';
import { NeighbouringChoice } from './NeighbouringChoice';
import { ClaimPanel } from './ClaimPanel';
import { GoalQuestion } from './GoalQuestion';
import { MechanismCatalogue } from './MechanismCatalogue';
import { ParamForm } from './ParamForm';

/** What has been spent on the loaded dataset so far (the studio's privacy ledger). */
function LedgerSummary() {
  const looks = useLedgerStore((state) => state.looks);
  const exports = useLedgerStore((state) => state.exports);
  const summary = ledgerSummaryParts({ looks, exports });
  if (summary === null) return null;
  return (
    <p className="ledger-summary" data-testid="ledger-summary">
      Spent on this dataset so far: <strong>{summary.spent}</strong> over {summary.looks} whose results were
      shown (runs, ε-sweep points, comparisons, schema facts learned with DP; summed, rounded up). Exported:{' '}
      {summary.exported}.
    </p>
  );
}

export function MechanismStep() {
  const schema = useSchemaStore((state) => state.schema);
  const mechanismId = useJobStore((state) => state.mechanismId);
  const readiness = useRunReadiness();
  const dataLooks = useJobStore((state) => state.dataLooks);
  const epsilon = useJobStore((state) => state.epsilon);
  const [goal, setGoal] = useState<SynthesisGoal | null>(null);
  const [label, setLabel] = useState('');
  const recommendation = useRecommendation(goal, label);
  return (
    <StepSection
      id="step-mechanism"
      title="Mechanism"
      intro="Choose how the synthetic data is made and how much privacy budget it may spend."
      unavailableBecause={schema === null ? 'Load a dataset and review its schema first.' : null}
    >
      {schema !== null && (
        <div className="mechanism-layout">
          <div>
            <GoalQuestion
              schema={schema}
              goal={goal}
              label={label}
              recommendation={recommendation}
              onGoal={setGoal}
              onLabel={setLabel}
            />
            <MechanismCatalogue schema={schema} selectedId={mechanismId} recommendation={recommendation} />
            {readiness.mechanism !== undefined && (
              <ParamForm mechanism={readiness.mechanism} paramError={readiness.paramError} />
            )}
            <BudgetFields />
            <NeighbouringChoice />
          </div>
          <div>
            <ClaimPanel
              claim={readiness.claim}
              error={readiness.claimError}
              title="Privacy claim (before running)"
              tuningNotes={tuningNotes(dataLooks, epsilon)}
            />
            <LedgerSummary />
            {readiness.claim?.composedOf !== undefined && (
              <p className="ledger-summary" data-testid="domain-budget-summary">
                This schema's facts learned with DP cost{' '}
                <strong>{formatBudget(readiness.claim.composedOf.domain)}</strong>; this run adds{' '}
                {formatBudget(readiness.claim.composedOf.mechanism)}, so its claim states{' '}
                <strong>{formatBudget(readiness.claim)}</strong> in total (sequential composition).
              </p>
            )}
            {readiness.facts.length > 0 && (
              <div className="mechanism-facts" data-testid="mechanism-facts">
                <p>This configuration:</p>
                <ul>
                  {readiness.facts.map((fact, i) => (
                    <li key={i}>{fact}</li>
                  ))}
                </ul>
              </div>
            )}
            {readiness.problems.length > 0 && (
              <div className="mechanism-problems" role="status">
                <p>Cannot run yet:</p>
                <ul>
                  {readiness.problems.map((problem, i) => (
                    <li key={i}>{problem}</li>
                  ))}
                </ul>
              </div>
            )}
          </div>
        </div>
      )}
    </StepSection>
  );
}
