import { describe, expect, it } from 'vitest';
import { DOMAIN_STEP_PREFIX } from '../privacy/domain-claim';
import { parseRational } from '../rng/rational';
import { roundUpRational } from '../privacy/round-up';
import { withPartSources, columnParts } from '../table/schema-facts';
import type { Schema } from '../table/types';
import { MECHANISM_CATALOGUE } from './catalogue';
import { mixedTable, runContext } from './common/testing/fixtures';
import { resolveParams } from './params';
import { MECHANISMS } from './registry';

// Every registered mechanism, on a schema whose facts were learned with DP: the claim before the
// run and the run's claim are the sequential composition of the domain steps and the mechanism's
// own claim (the same mechanism on the same facts declared), and the totals include the domain.
const N = 60;
const { table, schema: declared } = mixedTable(N);
const DOMAIN = { epsilon: '0.135', delta: '0.000002' };
const learned: Schema = {
  ...declared,
  columns: declared.columns.map((c) => withPartSources(c, columnParts(c), 'dp')),
  domainBudget: {
    ...DOMAIN,
    learnedAt: '2026-01-01T00:00:00Z',
    steps: declared.columns.flatMap((c) =>
      columnParts(c).map((part) => ({
        fact: `${c.name}.${part}`,
        what: `${part} of \`${c.name}\``,
        epsilon: '0.015',
        delta: part === 'categories' ? '0.000002' : '0',
      })),
    ),
  },
};

describe.each(MECHANISMS.map((m) => [m.id, m] as const))(
  '%s on a schema learned with DP',
  (id, mechanism) => {
    const params = resolveParams(mechanism, {});
    const ctx = (schema: Schema) => runContext(schema, N, { epsilon: '2', delta: '1e-5', releases: 1 });

    it('claims the domain steps, then its own, with totals that add both, before and after the run', async () => {
      expect(learned.domainBudget!.steps.length).toBe(9);
      const own = mechanism.claim(params, ctx(declared));
      const claim = mechanism.claim(params, ctx(learned));
      expect(MECHANISM_CATALOGUE.find((m) => m.id === id)!.claim(params, ctx(learned))).toEqual(claim);
      expect(claim.steps.slice(0, 9).map((s) => s.what)).toEqual(
        learned.domainBudget!.steps.map((s) => DOMAIN_STEP_PREFIX + s.what),
      );
      expect(claim.steps.slice(9)).toEqual(own.steps);
      expect(claim.epsilon).toBe(
        roundUpRational(parseRational(own.epsilon).add(parseRational(DOMAIN.epsilon))),
      );
      expect(claim.delta).toBe(roundUpRational(parseRational(own.delta).add(parseRational(DOMAIN.delta))));
      expect(claim.composedOf).toEqual({
        domain: { epsilon: 0.135, delta: 0.000002 },
        mechanism: {
          notion: own.notion,
          epsilon: own.epsilon,
          delta: own.delta,
          ...(own.mu === undefined ? {} : { mu: own.mu }),
          ...(own.rho === undefined ? {} : { rho: own.rho }),
        },
      });
      // The domain steps add up exactly to the domain part; for a pure mechanism the steps as shown
      // (each rounded up) add up to at least the total, which is the exact sum rounded up.
      const sum = (steps: typeof claim.steps) =>
        steps.reduce((s, step) => s.add(parseRational(step.epsilon)), parseRational(0));
      expect(sum(claim.steps.slice(0, 9)).compare(parseRational(DOMAIN.epsilon))).toBe(0);
      if (own.notion === 'pure-dp') {
        expect(sum(claim.steps).compare(parseRational(claim.epsilon))).toBeGreaterThanOrEqual(0);
      }
      const release = await mechanism.run(table, learned, params, ctx(learned));
      expect(release.claim).toEqual(claim);
      if (mechanism.runInBlocks !== undefined) {
        const inBlocks = await mechanism.runInBlocks(table, learned, params, ctx(learned));
        expect(inBlocks.claim).toEqual(claim);
      }
    });
  },
);
