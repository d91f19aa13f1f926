import { useEffect, useState } from 'react';
import type { DomainPlanView } from '../../../core/domain/domain-plan';
import { deltaAsTyped } from '../../../core/job/job-budget';
import type { Schema } from '../../../core/table/types';
import { dataSession } from '../../services/workers';

/** The plan being computed, computed, or not computable for this budget (the reason). */
export type DomainPlanState =
  { status: 'pending' } | { status: 'ready'; view: DomainPlanView } | { status: 'error'; message: string };

/** Time the ε and δ fields must rest before the plan is computed again. */
const SETTLE_MS = 150;

/**
 * The plan of learning `columns` of `schema` at the budget typed (core/domain/domain-plan.ts),
 * computed in the data worker from public facts only (n, ε, δ, the grid, the declared facts) and
 * recomputed as the budget changes; an answer that is no longer current is dropped.
 */
export function useDomainPlan(
  schema: Schema | null,
  budget: { epsilon: string; delta: string },
  columns: readonly string[],
): DomainPlanState {
  const [state, setState] = useState<DomainPlanState>({ status: 'pending' });
  const key = columns.join('\u0000');
  useEffect(() => {
    if (schema === null || columns.length === 0) return undefined;
    let current = true;
    setState({ status: 'pending' });
    const epsilon = budget.epsilon.trim();
    const delta = deltaAsTyped(budget.delta);
    const timer = setTimeout(() => {
      if (!(Number(epsilon) > 0)) {
        setState({ status: 'error', message: 'Type ε, a number above 0, to see the plan.' });
        return;
      }
      dataSession.worker
        .planDomain(schema, { epsilon, delta, columns: [...columns] })
        .then((answer) => {
          if (!current) return;
          setState(
            'error' in answer
              ? { status: 'error', message: answer.error }
              : { status: 'ready', view: answer },
          );
        })
        .catch((error: unknown) => {
          if (current) setState({ status: 'error', message: (error as Error).message });
        });
    }, SETTLE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
    // `key` stands for `columns`, whose array identity changes on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [schema, budget.epsilon, budget.delta, key]);
  return state;
}
