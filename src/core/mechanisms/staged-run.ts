import { Accountant, type BudgetReserver } from '../privacy/accountant';
import { parseBudget } from '../privacy/budget';
import { StageMeter } from '../privacy/meter';
import { makeRng } from '../rng/make-rng';
import { throwIfAborted } from '../abort';
import type { Schema, Table } from '../table/types';
import type { ParamValues, Release, RunContext, StagedRun } from './types';

/**
 * A staged mechanism's run on one thread: plan (budget reserved first), every stage in order with
 * the generator its seed gives and the plan's shared part, then finish. The studio's workers run the same three steps with the
 * stages in parallel, so a seeded run gives the same release either way. Each stage gets its own
 * StageMeter, whose charges go to the run's meter (`ctx.meter`) before the finish, as they do when the
 * stages run in other workers. Progress: the stages share 97 % evenly, the finish the rest.
 */
export async function runStagesInOneThread<Plan, Spec, Result, Shared>(
  staged: StagedRun<Plan, Spec, Result, Shared>,
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant: BudgetReserver = new Accountant(parseBudget(ctx.epsilon, ctx.delta)),
): Promise<Release> {
  const planned = staged.plan(table, schema, params, ctx, accountant);
  const { words } = planned;
  const count = planned.stages.length;
  const results = planned.stages.map((stage, c) => {
    const stageMeter = new StageMeter();
    const result = staged.runStage(
      stage.spec,
      makeRng(stage.seed ?? undefined),
      (done, total) =>
        ctx.progress(
          (0.97 * (c + done / total)) / count,
          `${words.stage} ${c + 1} of ${count}: ${words.step} ${done} of ${total}`,
        ),
      ctx.signal,
      planned.shared as Shared,
      stageMeter,
    );
    ctx.meter?.absorb(stageMeter.charges());
    return result;
  });
  throwIfAborted(ctx.signal);
  ctx.progress(0.98, words.finish);
  const release = staged.finish(planned.plan, results, ctx, accountant);
  ctx.progress(1, 'done');
  return release;
}
