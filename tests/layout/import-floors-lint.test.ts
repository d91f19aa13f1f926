/**
 * The lint rules that keep imports running downhill (eslint.config.js, `coreFloors`): a lower floor of
 * src/core may not import a higher one, privacy/ no part of mechanisms/, a mechanism folder no other
 * mechanism folder (`mechanismFolders`), src/core may not import src/worker, src/cli or src/app, and
 * src/cli may not import src/worker. ESLint runs on snippets placed (virtually) in those folders, with
 * the project's own configuration.
 */
import { readdirSync } from 'node:fs';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const configUrl = new URL('../../eslint.config.js', import.meta.url).href;
const { coreFloors, coreTopFolders } = (await import(configUrl)) as {
  coreFloors: string[][];
  coreTopFolders: string[];
};

const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImports(specifier: string, filePath: string): Promise<string[]> {
  const code = `import * as m from '${specifier}';\nexport { m };\n`;
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import floors of src/core', () => {
  it('places every folder of src/core on a floor (or among the top folders: mechanisms, counts, recommend, job)', () => {
    const folders = readdirSync('src/core', { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== 'testing')
      .map((entry) => entry.name);
    expect(coreTopFolders).toEqual(['mechanisms', 'counts', 'recommend', 'job']);
    const placed = new Set([...coreFloors.flat(), ...coreTopFolders]);
    expect(folders.filter((folder) => !placed.has(folder))).toEqual([]);
  });

  it('fails on a deliberate upward import from each lower floor', async () => {
    const cases: [file: string, specifier: string][] = [
      ['src/core/table/violation.ts', '../mechanisms/types'],
      ['src/core/rng/violation.ts', '../table/types'],
      ['src/core/stats/violation.ts', '../metrics/tvd'],
      ['src/core/privacy/violation.ts', '../mechanisms/registry'],
      ['src/core/privacy/violation.ts', '../mechanisms/common/coding/column-coding'],
      ['src/core/privacy/metered/violation.ts', '../../mechanisms/common/noisy-counts/grid-noise'],
      ['src/core/cells/violation.ts', '../privacy/meter'],
      ['src/core/format/violation.ts', '../rng/rational'],
      ['src/core/privacy/metered/violation.ts', '../../models/regression-fits'],
      ['src/core/models/violation.ts', '../metrics/regression-comparison'],
      ['src/core/mcmc/violation.ts', '../inference/combining-rules'],
      ['src/core/inference/violation.ts', '../metrics/evaluate'],
      ['src/core/metrics/violation.ts', '../mechanisms/types'],
      ['src/core/metrics/violation.ts', '../counts/count-source'],
      ['src/core/metrics/violation.ts', '../job/job-rows'],
    ];
    for (const [file, specifier] of cases) {
      const messages = await restrictedImports(specifier, file);
      expect(messages.join('\n'), `${file} -> ${specifier}`).toContain('may not import a higher one');
    }
  });

  it('allows imports to the same or a lower floor', async () => {
    const cases: [file: string, specifier: string][] = [
      ['src/core/table/violation.ts', '../abort'],
      ['src/core/table/violation.ts', '../rng/types'],
      ['src/core/models/violation.ts', '../mcmc/rhat'],
      ['src/core/inference/violation.ts', '../models/regression-fits'],
      ['src/core/metrics/violation.ts', '../inference/combining-rules'],
      ['src/core/privacy/metered/violation.ts', '../../cells/sparse-cell-counts'],
      ['src/core/privacy/violation.ts', '../format/format-count'],
      ['src/core/models/pgm/violation.ts', '../../abort'],
      ['src/core/mechanisms/violation.ts', '../metrics/tvd'],
    ];
    for (const [file, specifier] of cases) {
      expect(await restrictedImports(specifier, file), `${file} -> ${specifier}`).toEqual([]);
    }
  });

  it('keeps a mechanism folder off every other mechanism folder, and keeps the raw-sampler ban there', async () => {
    for (const [file, specifier] of [
      ['src/core/mechanisms/aim/violation.ts', '../mst/meta'],
      ['src/core/mechanisms/aim/violation.ts', '../mst'],
      ['src/core/mechanisms/dp-sequential-regression/violation.ts', '../modips/glom-model'],
      ['src/core/mechanisms/mst/violation.ts', '../../mechanisms/aim/meta'],
      ['src/core/mechanisms/common/graphical-models/violation.ts', '../../aim/meta'],
      ['src/core/mechanisms/shape/violation.ts', '../laplace-histogram/meta'],
    ] as const) {
      const messages = await restrictedImports(specifier, file);
      expect(messages.join('\n'), `${file} -> ${specifier}`).toContain(
        'may not import another mechanism folder',
      );
    }
    const sampler = await restrictedImports(
      '../../rng/discrete-gaussian',
      'src/core/mechanisms/aim/violation.ts',
    );
    expect(sampler.join('\n')).toContain('src/core/privacy/metered/');
  });

  it('lets a mechanism folder import its own folder, common/, shape/, the top-level files and lower floors', async () => {
    const cases: [file: string, specifier: string][] = [
      ['src/core/mechanisms/aim/violation.ts', './meta'],
      ['src/core/mechanisms/aim/violation.ts', '../common/graphical-models/noisy-marginal'],
      ['src/core/mechanisms/aim/violation.ts', '../shape/define-meta'],
      ['src/core/mechanisms/aim/violation.ts', '../types'],
      ['src/core/mechanisms/aim/violation.ts', '../../models/pgm/mirror-descent'],
      ['src/core/mechanisms/aim/violation.ts', '../../privacy/zcdp-costs'],
      ['src/core/mechanisms/common/coding/violation.ts', '../../../table/types'],
      ['src/core/mechanisms/violation.ts', './mst'],
      ['src/core/mechanisms/aim/violation.test.ts', '../mst/meta'],
    ];
    for (const [file, specifier] of cases) {
      expect(await restrictedImports(specifier, file), `${file} -> ${specifier}`).toEqual([]);
    }
  });

  it('keeps src/core off the worker, the CLI and the studio, and the CLI off the worker', async () => {
    for (const [file, specifier] of [
      ['src/core/table/violation.ts', '../../worker/protocol'],
      ['src/core/metrics/violation.ts', '../../cli/args'],
      ['src/core/mechanisms/violation.ts', '../../app/main'],
      ['src/cli/commands/violation.ts', '../../worker/protocol'],
      ['src/cli/violation.ts', '../worker/data-worker'],
    ] as const) {
      expect((await restrictedImports(specifier, file)).length, `${file} -> ${specifier}`).toBeGreaterThan(0);
    }
    expect(await restrictedImports('../../core/job/synthesis-job', 'src/cli/commands/violation.ts')).toEqual(
      [],
    );
  });
});
