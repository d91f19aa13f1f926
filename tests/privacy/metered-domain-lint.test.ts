/**
 * The lint rule that keeps the domain learning's privacy noise behind the meter (eslint.config.js,
 * `meteredCoreFolders`): src/core/domain may not import a raw privacy sampler, only the metered
 * primitives, and keeps its floor's rules (no import from a higher floor). ESLint runs on snippets
 * placed (virtually) in that folder, with the project's own configuration.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const configUrl = new URL('../../eslint.config.js', import.meta.url).href;
const { meteredCoreFolders } = (await import(configUrl)) as { meteredCoreFolders: string[] };

const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImports(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('no raw privacy sampler in the domain learning', () => {
  it('covers src/core/domain', () => {
    expect(meteredCoreFolders).toContain('domain');
  });

  it('fails on a deliberate violation in each folder, by file and through the rng index', async () => {
    for (const folder of meteredCoreFolders) {
      const file = `src/core/${folder}/violation.ts`;
      for (const sampler of [
        'discrete-laplace',
        'exponential-mechanism',
        'discrete-gaussian',
        'geometric-exp-neg',
        'bernoulli-exp-neg',
      ]) {
        const messages = await restrictedImports(
          `import * as s from '../rng/${sampler}';\nexport { s };\n`,
          file,
        );
        expect(messages.join('\n'), `${file}: ${sampler}`).toContain('src/core/privacy/metered/');
      }
      const viaIndex = await restrictedImports(
        "import { makeDiscreteLaplaceSampler } from '../rng';\nexport const s = makeDiscreteLaplaceSampler;\n",
        file,
      );
      expect(viaIndex, file).toHaveLength(1);
      const testing = await restrictedImports(
        "import { recordingStep } from '../privacy/metered/testing';\nexport const s = recordingStep;\n",
        file,
      );
      expect(testing, file).toHaveLength(1);
    }
  });

  it('keeps the floor rules there, allows the metered primitives, and lets tests use raw samplers', async () => {
    const higher = await restrictedImports(
      "import { registry } from '../mechanisms/registry';\nexport const r = registry;\n",
      'src/core/domain/violation.ts',
    );
    expect(higher.join('\n')).toContain('lower floor');
    const allowed =
      "import { meteredDiscreteLaplace } from '../privacy/metered/discrete-laplace';\n" +
      "import { meteredThresholdedCounts } from '../privacy/metered/thresholded-counts';\n" +
      "import { Rational } from '../rng/rational';\n" +
      'export const f = [meteredDiscreteLaplace, meteredThresholdedCounts, Rational];\n';
    expect(await restrictedImports(allowed, 'src/core/domain/allowed.ts')).toEqual([]);
    const inTest =
      "import { makeDiscreteLaplaceSampler } from '../rng/discrete-laplace';\nexport const s = makeDiscreteLaplaceSampler;\n";
    expect(await restrictedImports(inTest, 'src/core/domain/noise.test.ts')).toEqual([]);
  });
});
