import { deltaAsTyped } from '../../core/job/job-budget';
import { parseRational } from '../../core/rng/rational';
import { roundUpRational } from '../../core/privacy/round-up';
import { recordDomainLearning } from '../state/ledger-store';
import { useJobStore } from '../state/job-store';
import { replaceSchema, setLearning, useSchemaStore } from '../state/schema-store';
import { dataSession } from './workers';
import { messageOf } from './run-readiness';

/**
 * Learns the undeclared facts of `columns` (all columns with such facts when undefined) with DP in
 * the data worker, at the budget typed on the Schema step, then shows the learned schema and
 * records the learning in the privacy ledger (its values are now seen). A seed set on the Mechanism
 * step makes the learning reproducible, and not for release, like a seeded run.
 */
export async function learnDomainPrivately(columns?: string[]): Promise<void> {
  const { schema, learnBudget, learning } = useSchemaStore.getState();
  if (schema === null || learning.busy) return;
  setLearning({ busy: true, error: null, warnings: [] });
  try {
    const seed = useJobStore.getState().seed.trim();
    const result = await dataSession.worker.learnDomain(
      schema,
      {
        epsilon: learnBudget.epsilon.trim(),
        delta: deltaAsTyped(learnBudget.delta),
        ...(columns === undefined ? {} : { columns }),
      },
      seed === '' ? null : seed,
    );
    // Counted before it is shown.
    const sum = (key: 'epsilon' | 'delta') =>
      roundUpRational(result.steps.reduce((s, step) => s.add(parseRational(step[key])), parseRational(0)));
    recordDomainLearning(
      `domain:${result.schema.domainBudget!.learnedAt}`,
      { epsilon: sum('epsilon'), delta: sum('delta') },
      result.steps.length,
    );
    replaceSchema(result.schema);
    setLearning({ busy: false, error: null, warnings: result.warnings });
  } catch (error) {
    setLearning({ busy: false, error: messageOf(error), warnings: [] });
  }
}
