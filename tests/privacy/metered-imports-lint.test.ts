/**
 * The lint rule that keeps privacy noise behind the meter (eslint.config.js, `meteredMechanismFolders`):
 * a converted mechanism's source may not import a raw privacy sampler, only the metered primitives.
 * ESLint runs on snippets placed (virtually) in those folders, with the project's own configuration.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The folder list from the configuration itself (a plain JavaScript module without types).
const configUrl = new URL('../../eslint.config.js', import.meta.url).href;
const { meteredMechanismFolders, meteredCoreFolders, mechanismFolders } = (await import(configUrl)) as {
  mechanismFolders: string[];
  meteredMechanismFolders: string[];
  meteredCoreFolders: string[];
};

const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImports(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('no raw privacy sampler in a metered mechanism', () => {
  it('covers MST, AIM and the graphical-model engine', () => {
    expect(meteredMechanismFolders).toEqual(expect.arrayContaining(['mst', 'aim', 'common']));
    expect(meteredCoreFolders).toContain('models/pgm');
  });

  it('fails on a raw sampler in a file beside the mechanism folders', async () => {
    const messages = await restrictedImports(
      "import { makeDiscreteGaussianSampler } from '../rng/discrete-gaussian';\nexport const s = makeDiscreteGaussianSampler;\n",
      'src/core/mechanisms/violation.ts',
    );
    expect(messages.join('\n')).toContain('src/core/privacy/metered/');
  });

  it('covers every folder under src/core/mechanisms (a new mechanism is held to it from its first file)', () => {
    expect(mechanismFolders.length).toBeGreaterThan(10);
    for (const folder of mechanismFolders) expect(meteredMechanismFolders, folder).toContain(folder);
  });

  it('fails on a raw sampler in the graphical-model engine (models/pgm)', async () => {
    const messages = await restrictedImports(
      "import { makeDiscreteGaussianSampler } from '../../../rng/discrete-gaussian';\nexport const s = makeDiscreteGaussianSampler;\n",
      'src/core/models/pgm/violation.ts',
    );
    expect(messages.join('\n')).toContain('src/core/privacy/metered/');
  });

  it('fails on a deliberate violation in each metered folder, by file and through the rng index', async () => {
    for (const folder of meteredMechanismFolders) {
      const depth = folder.split('/').length + 2;
      const up = '../'.repeat(depth);
      const file = `src/core/mechanisms/${folder}/violation.ts`;
      const direct = await restrictedImports(
        `import { makeDiscreteGaussianSampler } from '${up}rng/discrete-gaussian';\nexport const s = makeDiscreteGaussianSampler;\n`,
        file,
      );
      expect(direct.join('\n'), file).toContain('src/core/privacy/metered/');
      for (const sampler of [
        'discrete-laplace',
        'exponential-mechanism',
        'geometric-exp-neg',
        'bernoulli-exp-neg',
      ]) {
        const messages = await restrictedImports(
          `import * as s from '${up}rng/${sampler}';\nexport { s };\n`,
          file,
        );
        expect(messages.length, `${file}: ${sampler}`).toBeGreaterThan(0);
      }
      const viaIndex = await restrictedImports(
        `import { sampleExponentialMechanism } from '${up}rng';\nexport const s = sampleExponentialMechanism;\n`,
        file,
      );
      expect(viaIndex, file).toHaveLength(1);
    }
  });

  it('allows the metered primitives and post-processing samplers there, and tests may use raw samplers', async () => {
    const allowed =
      "import { meteredDiscreteGaussian } from '../../privacy/metered/discrete-gaussian';\n" +
      "import { uniformInt } from '../../rng/uniform-int';\n" +
      "import { sampleMultinomial } from '../../rng/multinomial';\n" +
      'export const f = [meteredDiscreteGaussian, uniformInt, sampleMultinomial];\n';
    expect(await restrictedImports(allowed, 'src/core/mechanisms/mst/allowed.ts')).toEqual([]);
    const inTest =
      "import { makeDiscreteGaussianSampler } from '../../rng/discrete-gaussian';\nexport const s = makeDiscreteGaussianSampler;\n";
    expect(await restrictedImports(inTest, 'src/core/mechanisms/mst/noise.test.ts')).toEqual([]);
  });
});
