import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cli, mixedCsv, MIXED_SCHEMA, tempFiles } from './cli-harness';

describe('synth without --delta', () => {
  it('gives a mechanism that needs δ > 0 the default δ, says so on stderr and in the claim; --delta 0 is refused', async () => {
    const path = tempFiles({ 'data.csv': mixedCsv(240), 's.json': JSON.stringify(MIXED_SCHEMA) });
    const common = ['synth', path('data.csv'), '--schema', path('s.json'), '--mechanism', 'mst'];
    const run = await cli(...common, '--epsilon', '1', '--seed', 'd', '--out', path('synth.csv'));
    expect(run.code, run.stderr).toBe(0);
    // n = 240: 1/n² = 1.7e-5 is above 1e-9, so the default is 1e-9.
    expect(run.stderr).toContain('dpsynth: δ was not set, so the default δ = 1e-9 applies');
    expect(run.stderr).toContain('Privacy claim: approx-dp, ε = 1, δ = 1e-9');
    const report = JSON.parse(readFileSync(path('synth.not-for-release.report.json'), 'utf8')) as {
      claim: { delta: number; assumptions: string[] };
    };
    expect(report.claim.delta).toBe(1e-9);
    expect(report.claim.assumptions.some((a) => a.includes('default δ = 1e-9'))).toBe(true);

    const refused = await cli(...common, '--epsilon', '1', '--delta', '0', '--out', path('other.csv'));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('set δ > 0');
  });
});
