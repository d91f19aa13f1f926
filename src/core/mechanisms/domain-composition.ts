import { withDomainSteps } from '../privacy/domain-claim';
import { checkCompleteColumns } from '../table/complete-columns';
import type { Mechanism, MechanismMeta, StagedRun } from './types';

/**
 * A mechanism's meta whose claim, on a schema with DP-learned facts, is composed with the steps
 * that learned them (privacy/domain-claim.ts). The catalogue applies it to every meta, so the
 * claim the studio shows before a run already states the total. Page-safe: no run code.
 */
export function composedMeta(meta: MechanismMeta): MechanismMeta {
  return {
    ...meta,
    claim: (params, context) => withDomainSteps(meta.claim(params, context), context.schema),
  };
}

/**
 * The mechanism with its run (its run in blocks, its staged finish) returning the composed claim, and the composed
 * meta's fields, so `claim` before the run and the run's claim agree (the registry applies it to
 * every mechanism with the catalogue's meta). Composition is idempotent: a claim already composed
 * is left as it is, so a staged run finished through `run` is composed once.
 */
export function composedMechanism(mechanism: Mechanism, meta: MechanismMeta): Mechanism {
  const staged = mechanism.staged === undefined ? undefined : composedStaged(mechanism.staged);
  return {
    ...mechanism,
    ...meta,
    run: async (table, schema, params, ctx) => {
      // A missing value in a column the schema declares complete: refused before any draw.
      checkCompleteColumns(table, schema);
      const release = await mechanism.run(table, schema, params, ctx);
      return { ...release, claim: withDomainSteps(release.claim, schema) };
    },
    ...(mechanism.runInBlocks === undefined
      ? {}
      : {
          runInBlocks: async (table, schema, params, ctx, options) => {
            checkCompleteColumns(table, schema);
            const release = await mechanism.runInBlocks!(table, schema, params, ctx, options);
            return { ...release, claim: withDomainSteps(release.claim, schema) };
          },
        }),
    ...(staged === undefined ? {} : { staged }),
  };
}

function composedStaged(staged: StagedRun): StagedRun {
  return {
    ...staged,
    finish: (plan, results, ctx, accountant) => {
      const release = staged.finish(plan, results, ctx, accountant);
      return { ...release, claim: withDomainSteps(release.claim, ctx.schema) };
    },
  };
}
