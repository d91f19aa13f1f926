import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFixtureTablePair } from '../../../tests/reference/pmse/read-fixture-tables';
import { SeededRng } from '../rng/seeded-rng';
import { computePmse } from './pmse';
import { expectRelativelyClose } from '../testing/expect-close';

// Oracle: tests/fixtures/pmse/logit-sklearn-check.json, written by
// tests/reference/pmse/logit_sklearn_check.py (command: `/usr/bin/python3
// tests/reference/pmse/logit_sklearn_check.py`, scikit-learn 1.2.1, numpy 1.24.2). For every
// main-effects logit fixture without separation it rebuilds the design from the CSV pair with the
// normative preprocessing and fits an unpenalised LogisticRegression (newton-cg, tol 1e-12), an
// implementation independent of both ours and R's glm. No Python is needed to run this test.
const ROOT = join(__dirname, '../../..');
const CHECK_FILE = join(ROOT, 'tests/fixtures/pmse/logit-sklearn-check.json');

interface SklearnCase {
  name: string;
  real: string;
  synth: string;
  pMSE_sklearn: number;
  pMSE_R: number;
  relative_difference: number;
  k_sklearn: number;
  k_R: number;
  S_pMSE_sklearn: number;
}

const check = JSON.parse(readFileSync(CHECK_FILE, 'utf8')) as { command: string; fixtures: SklearnCase[] };

describe('main-effects logit pMSE equals scikit-learn on every fixture without separation', () => {
  it('has the cases, and sklearn agrees with R on them', () => {
    expect(check.command).toBe('/usr/bin/python3 tests/reference/pmse/logit_sklearn_check.py');
    expect(check.fixtures.length).toBeGreaterThanOrEqual(6);
    for (const entry of check.fixtures) {
      expect(entry.k_sklearn, entry.name).toBe(entry.k_R);
      expect(entry.relative_difference, entry.name).toBeLessThan(1e-6);
    }
  });

  it.each(check.fixtures.map((entry) => [entry.name, entry] as const))('%s', (_name, entry) => {
    const { real, synth } = readFixtureTablePair(join(ROOT, entry.real), join(ROOT, entry.synth));
    const result = computePmse(
      real,
      synth,
      // Same IRLS settings as pmse.fixtures.test.ts uses against the glm fixtures.
      { model: 'logit', maxOrder: 0, logit: { epsilon: 1e-14, maxIter: 100 } },
      new SeededRng(1),
    );
    expect(result.k, `${entry.name} rank`).toBe(entry.k_sklearn);
    expect(result.nExtreme).toBe(0);
    // Both fits sit at the unique MLE (sklearn's max |score| is <= 2e-9): 1e-6 relative is loose.
    expectRelativelyClose(result.value, entry.pMSE_sklearn, 1e-6, `${entry.name} pMSE`);
    expectRelativelyClose(result.ratio!, entry.S_pMSE_sklearn, 1e-6, `${entry.name} S_pMSE`);
  });
});
