import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cli, tempFiles } from './cli-harness';

const BIRTHWT = readFileSync('e2e/fixtures/birthwt.csv', 'utf8');

describe('schema --private: the plan before the spend', () => {
  it('refuses ε = 0.2 on the 189-row birth-weight table: exit 2, no schema, no ledger entry, an ε that works', async () => {
    const path = tempFiles({ 'birthwt.csv': BIRTHWT });
    const result = await cli(
      'schema',
      path('birthwt.csv'),
      '--private',
      '--epsilon',
      '0.2',
      '--delta',
      '1e-6',
      '--ledger',
      path('ledger.json'),
    );
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(existsSync(path('ledger.json'))).toBe(false);
    // The plan's table, then the refusal naming the facts and the ε that would meet the floors.
    expect(result.stderr).toContain('the plan for 189 rows (public facts only)');
    expect(result.stderr).toMatch(/bwt\.lower \(if numeric\)\s+0\.00\d+/);
    expect(result.stderr).toContain('ε = 0.2 is too small to learn this domain on 189 rows');
    const needed = /spend ε = ([\d.]+) with this split/.exec(result.stderr);
    expect(needed).not.toBeNull();
    expect(result.stderr).toContain('declare the column types');
    // The ε it names is enough: the plan for it passes (printed without learning anything).
    const plan = await cli(
      'schema',
      path('birthwt.csv'),
      '--private',
      '--plan',
      '--rows',
      '189',
      '--epsilon',
      needed![1]!,
    );
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('Every fact meets its floor');
  });

  it('--plan --rows reads the header only: broken data rows are never parsed', async () => {
    const path = tempFiles({ 'broken.csv': 'a,b\n1,2,3,4\n"unterminated\n' });
    const ok = await cli(
      'schema',
      path('broken.csv'),
      '--private',
      '--plan',
      '--rows',
      '5000',
      '--epsilon',
      '20',
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('The plan for 5000 rows at ε = 20');
    expect(ok.stdout).toMatch(/a\.type\s+/);
    const refused = await cli(
      'schema',
      path('broken.csv'),
      '--private',
      '--plan',
      '--rows',
      '100',
      '--epsilon',
      '0.1',
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('ε = 0.1 is too small to learn this domain on 100 rows');
    // Without --rows the file is read (for its row count), and its broken line is reported.
    const counted = await cli('schema', path('broken.csv'), '--private', '--plan', '--epsilon', '20');
    expect(counted.code).toBe(2);
    expect(counted.stderr).toContain('broken.csv');
    expect((await cli('schema', path('broken.csv'), '--rows', '5')).code).toBe(2);
  });

  it("--force learns anyway and writes the plan's warnings into the steps of the schema", async () => {
    const path = tempFiles({ 'birthwt.csv': BIRTHWT });
    const result = await cli(
      'schema',
      path('birthwt.csv'),
      '--private',
      '--epsilon',
      '0.2',
      '--force',
      '--seed',
      '3',
    );
    expect(result.code, result.stderr).toBe(0);
    const schema = JSON.parse(result.stdout) as { domainBudget: { steps: { what: string }[] } };
    expect(
      schema.domainBudget.steps.every((s) => s.what.includes("learned below the plan's floor (forced)")),
    ).toBe(true);
    expect(result.stderr).toContain("warning: learned below the plan's floors (forced)");
  });
});
