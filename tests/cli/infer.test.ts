import { describe, expect, it } from 'vitest';
import { cli, tempFiles } from './cli-harness';

// Three releases with x means 1, 2, 3 and standard errors 1 (values a, a, a + 2, a + 2: s = 2/√3,
// se = 1/√3; the mean of n = 4 values), s with p̂ = 1/2, and y roughly linear in x.
const files = tempFiles({
  'synth.1.csv': 'x,s,y\n0,F,1\n0,M,0\n2,M,3\n2,F,2\n',
  'synth.2.csv': 'x,s,y\n1,F,1\n1,M,2\n3,M,4\n3,F,3\n',
  'synth.3.csv': 'x,s,y\n2,M,2\n2,F,3\n4,F,4\n4,M,6\n',
});
const releases = ['synth.1.csv', 'synth.2.csv', 'synth.3.csv'].map(files);

describe('dpsynth infer', () => {
  it('prints the combined mean as JSON with estimate, se, df and ci', async () => {
    const result = await cli('infer', ...releases, '--estimand', 'mean:x', '--json');
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout);
    // β̄ = 2, B = 1, W = 1/3, T = B/m + W = 2/3, ν = (m − 1)(1 + mW/B)² = 2·2² = 8;
    // qt(0.975, 8) = 2.306004 (R 4.3).
    expect(json.estimand).toBe('mean:x');
    expect(json.releases).toBe(3);
    expect(json.estimate).toBeCloseTo(2, 12);
    expect(json.se).toBeCloseTo(Math.sqrt(2 / 3), 12);
    expect(json.df).toBeCloseTo(8, 10);
    expect(json.ci[0]).toBeCloseTo(2 - 2.306004 * Math.sqrt(2 / 3), 5);
  });

  it('prints a line per coefficient, and one object each under coefficients in JSON', async () => {
    const text = await cli('infer', ...releases, '--estimand', 'coef:y~x');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^coef:y~x from 3 releases/);
    expect(text.stdout).toMatch(/\n\(Intercept\): estimate .*\nx: estimate /);
    const json = JSON.parse((await cli('infer', ...releases, '--estimand', 'coef:y~x', '--json')).stdout);
    expect(json.coefficients.map((c: { term: string }) => c.term)).toEqual(['(Intercept)', 'x']);
    expect(Object.keys(json.coefficients[1])).toEqual([
      'term',
      'estimate',
      'se',
      'df',
      'ci',
      'between',
      'within',
    ]);
  });

  it('estimates a proportion of a level', async () => {
    const json = JSON.parse(
      (await cli('infer', ...releases, '--estimand', 'proportion:s=F', '--json')).stdout,
    );
    expect(json.estimate).toBeCloseTo(0.5, 12);
  });

  it('exits 2 with a sentence for one release, a bad estimand or an unknown column', async () => {
    const one = await cli('infer', releases[0]!, '--estimand', 'mean:x');
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('dpsynth infer takes two or more synthetic CSVs (one per release).');
    const bad = await cli('infer', ...releases, '--estimand', 'average:x');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("estimand 'average:x' is not one of");
    const unknown = await cli('infer', ...releases, '--estimand', 'mean:z');
    expect(unknown.stderr).toContain("no column 'z'; columns are x, s, y.");
  });
});
