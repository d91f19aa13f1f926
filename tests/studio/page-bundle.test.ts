import { describe, expect, it } from 'vitest';
import { MECHANISMS } from '../../src/core/mechanisms/registry';
import { staticModuleGraph } from './page-module-graph';

// The page imports mechanism metas only (catalogue.ts); run code belongs to workers and the CLI.
// The walk follows static value imports from the page's entry, as the bundler puts them in the
// page chunk; dynamic import() and worker entries start chunks of their own.
const page = staticModuleGraph('src/app/main.tsx');

const metaModules = new Set(
  MECHANISMS.flatMap((mechanism) => [
    ...staticModuleGraph(`src/core/mechanisms/${mechanism.id}/meta.ts`).keys(),
  ]),
);

/**
 * Modules a mechanism's run needs that no meta does: they must stay out of the page. The table and
 * privacy layers (errors, abort, accountant) are shared by design and left out.
 */
function runOnlyModules(id: string): string[] {
  return [...staticModuleGraph(`src/core/mechanisms/${id}/index.ts`).keys()].filter(
    (file) => !metaModules.has(file) && !/^src\/core\/(table|privacy)\//.test(file),
  );
}

describe('the page bundle', () => {
  it('reaches the catalogue of metas but not the registry', () => {
    expect(page.has('src/core/mechanisms/catalogue.ts')).toBe(true);
    expect(page.get('src/core/mechanisms/registry.ts')).toBeUndefined();
  });

  it.each(MECHANISMS.map((mechanism) => mechanism.id))('carries no run code of %s', (id) => {
    const runOnly = runOnlyModules(id);
    expect(runOnly).toContain(`src/core/mechanisms/${id}/index.ts`);
    const leaked = runOnly.filter((file) => page.has(file)).map((file) => page.get(file)!.join(' → '));
    expect(leaked).toEqual([]);
  });

  it('carries no sampler, tree grower or worker code', () => {
    const heavy = [...page.keys()].filter((file) =>
      /^src\/core\/(mcmc\/adaptive-metropolis|models\/cart\/|metrics\/pmse)|^src\/worker\/(data|pool)-worker/.test(
        file,
      ),
    );
    expect(heavy.map((file) => page.get(file)!.join(' → '))).toEqual([]);
  });
});
