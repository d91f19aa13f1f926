/**
 * CSV files that are not UTF-8: the two-row Windows-1252 file of the studio's tests ("José" is the
 * bytes 4A 6F 73 E9) is read as Windows-1252 with a warning, read silently when --encoding names it,
 * and refused with its line when --encoding utf-8 is given; nothing is replaced by U+FFFD.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cli, tempFiles } from './cli-harness';

const LATIN = new Uint8Array(readFileSync(new URL('../../e2e/fixtures/windows-1252.csv', import.meta.url)));

interface SchemaOut {
  columns: { name: string; categories?: string[] }[];
}

describe('dpsynth and the encoding of CSV files', () => {
  const path = tempFiles({ 'people.csv': LATIN });

  it('reads a Windows-1252 file as such and says so on stderr (exit 0)', async () => {
    const result = await cli('schema', path('people.csv'));
    expect(result.code, result.stderr).toBe(0);
    const schema = JSON.parse(result.stdout) as SchemaOut;
    expect(schema.columns[0]!.categories).toEqual(['Ana', 'José']);
    expect(result.stdout).not.toContain('\uFFFD');
    expect(result.stderr).toContain('people.csv is not valid UTF-8 (byte 0xE9 on line 2');
    expect(result.stderr).toContain('read as Windows-1252');
  });

  it('reads it without a warning when --encoding windows-1252 names its encoding', async () => {
    const result = await cli('schema', path('people.csv'), '--encoding', 'windows-1252');
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as SchemaOut).columns[0]!.categories).toEqual(['Ana', 'José']);
    expect(result.stderr).not.toContain('not valid UTF-8');
  });

  it('refuses it with the line of the first bad byte under --encoding utf-8 (exit 2)', async () => {
    const result = await cli('schema', path('people.csv'), '--encoding=utf-8');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/people\.csv, line 2.*byte 0xE9 is not valid UTF-8/);
    expect(result.stdout).toBe('');
  });

  it('refuses an encoding it does not read (exit 2)', async () => {
    const result = await cli('schema', path('people.csv'), '--encoding', 'ebcdic');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('use auto, utf-8 or windows-1252');
  });
});
