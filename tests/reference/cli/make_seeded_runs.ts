/**
 * Writes tests/fixtures/cli/seeded-runs.json: what seeded CLI calls print and write (synthetic CSVs,
 * release reports) for every mechanism, so that a change meant to keep behaviour can be checked
 * byte for byte (tests/cli/seeded-runs.test.ts). Run from the repository root, and only when the
 * output is meant to change:
 *   npx tsx tests/reference/cli/make_seeded_runs.ts
 */
import { writeFileSync } from 'node:fs';
import { seededRuns } from '../../cli/seeded-runs';

const runs = await seededRuns();
writeFileSync('tests/fixtures/cli/seeded-runs.json', `${JSON.stringify(runs, null, 1)}\n`);
