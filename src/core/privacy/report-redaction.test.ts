import { describe, expect, it } from 'vitest';
import { getMechanism } from '../mechanisms/registry';
import { resolveParams } from '../mechanisms/params';
import type { PublicContext } from '../mechanisms/types';
import type { Schema } from '../table/types';
import { buildReleaseReport, REDACTED_NUMBER, REDACTED_NUMBERS_NOTE, redactNumbers } from './report';

// A claim's texts are copied into the release report; a count made from a fact the report withholds
// (the levels of an integer column between inferred bounds, an inferred category list's length, the
// cells of their cross-tabulation) would give the fact away, so such texts lose their numbers.

const CATEGORIES = Array.from({ length: 31 }, (_, i) => `region ${String.fromCharCode(65 + (i % 26))}${i}`);

/** age: whole numbers between inferred bounds 17 and 54 (38 levels); region: 31 inferred categories. */
function schemaWith(source: 'inferred' | 'declared'): Schema {
  return {
    version: 1,
    columns: [
      { name: 'age', type: 'numeric', bounds: [17, 54], integer: true, source },
      { name: 'region', type: 'categorical', categories: CATEGORIES, source },
    ],
    missing: [''],
  };
}

function reportFor(mechanismId: string, schema: Schema, publishInferred: boolean) {
  const mechanism = getMechanism(mechanismId)!;
  const params = resolveParams(mechanism, { bins: 0 });
  const context: PublicContext = { n: 500, schema, epsilon: '1', delta: 0, releases: 1, seeded: false };
  const claim = mechanism.claim(params, context);
  return {
    claim,
    report: buildReleaseReport({
      appVersion: 'test',
      schema,
      mechanism,
      params,
      claim,
      rows: 500,
      releases: 1,
      seeded: false,
      publishInferred,
    }),
  };
}

const textsOf = (claim: { steps: { what: string }[]; assumptions: string[] }) =>
  [...claim.steps.map((step) => step.what), ...claim.assumptions].join('\n');

describe('numbers derived from withheld facts in the release report', () => {
  it('replaces standalone numbers, not digits inside names', () => {
    expect(redactNumbers('over the 1,248-cell cross-tabulation of x1 and age2 (37 classes), ε = 0.5')).toBe(
      `over the ${REDACTED_NUMBER}-cell cross-tabulation of x1 and age2 (${REDACTED_NUMBER} classes), ε = ${REDACTED_NUMBER}`,
    );
  });

  for (const id of ['multinomial-dirichlet', 'laplace-histogram']) {
    it(`${id}: the 39 × 32 = 1,248 cells (a missing level each) of inferred facts do not reach the report`, () => {
      const { claim, report } = reportFor(id, schemaWith('inferred'), false);
      // The claim itself (shown to the data holder) states the count…
      expect(textsOf(claim)).toContain('1,248');
      // …the report's copy does not, nor the level counts, and says why.
      const texts = textsOf(report.claim);
      expect(texts).not.toMatch(/1,248|1248|\b3[1289]\b/);
      expect(texts).toContain(REDACTED_NUMBER);
      expect(report.notes).toContain(REDACTED_NUMBERS_NOTE);
      // The structured numbers stay.
      expect(report.claim.epsilon).toBe(claim.epsilon);
      expect(report.claim.steps.map((step) => step.epsilon)).toEqual(claim.steps.map((step) => step.epsilon));
    });

    it(`${id}: declared facts, or inferred ones published on request, keep the texts whole`, () => {
      for (const [schema, publish] of [
        [schemaWith('declared'), false],
        [schemaWith('inferred'), true],
      ] as const) {
        const { claim, report } = reportFor(id, schema, publish);
        expect(report.claim.steps).toEqual(claim.steps);
        expect(textsOf(report.claim)).toContain('1,248');
        expect(report.notes).not.toContain(REDACTED_NUMBERS_NOTE);
      }
    });
  }
});
