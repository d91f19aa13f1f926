import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { seededRuns, type SeededRunOutput } from './seeded-runs';

// The fixture was written by tests/reference/cli/make_seeded_runs.ts; regenerate it only when a
// change is meant to alter what the CLI prints or writes.
const FIXTURE = 'tests/fixtures/cli/seeded-runs.json';

describe('seeded CLI runs', () => {
  it('print and write byte for byte what the fixture recorded (CSVs, reports, messages)', async () => {
    const expected = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, SeededRunOutput>;
    const actual = await seededRuns();
    expect(Object.keys(actual)).toEqual(Object.keys(expected));
    for (const [name, run] of Object.entries(expected)) {
      expect({ name, ...actual[name] }).toEqual({ name, ...run });
    }
  });
});
