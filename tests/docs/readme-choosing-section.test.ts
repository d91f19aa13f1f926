import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MECHANISM_CATALOGUE } from '../../src/core/mechanisms/catalogue';
import {
  choosingSection,
  SECTION_END,
  SECTION_START,
  withChoosingSection,
} from '../../scripts/choosing-section';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README "Choosing a mechanism"', () => {
  it("is what scripts/write-choosing-section.ts writes from the mechanisms' fit (run it after changing a fit.ts)", () => {
    const start = readme.indexOf(SECTION_START);
    const end = readme.indexOf(SECTION_END);
    expect(start).toBeGreaterThan(readme.indexOf('## Choosing a mechanism'));
    expect(readme.slice(start, end + SECTION_END.length)).toBe(choosingSection(MECHANISM_CATALOGUE));
  });

  it('has one row per mechanism, each with its measured figure and bench section', () => {
    const section = choosingSection(MECHANISM_CATALOGUE);
    for (const meta of MECHANISM_CATALOGUE) {
      const row = section.split('\n').find((line) => line.startsWith(`| \`${meta.id}\` |`));
      expect(row, meta.id).toBeDefined();
      expect(row).toContain('bench/RESULTS.md, "');
    }
  });

  it('a changed fit changes the section, so a stale README fails the first test', () => {
    const changed = MECHANISM_CATALOGUE.map((meta) =>
      meta.id === 'mst' ? { ...meta, fit: { ...meta.fit!, goodFor: 'something else' } } : meta,
    );
    const stale = withChoosingSection(readme, choosingSection(changed));
    expect(stale).not.toBe(readme);
    expect(withChoosingSection(stale, choosingSection(MECHANISM_CATALOGUE))).toBe(readme);
  });
});
