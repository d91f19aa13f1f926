import { describe, expect, it } from 'vitest';
import { progressReporter } from './progress-reporter';

describe('progressReporter', () => {
  it('on a terminal rewrites one line, at most every 100 ms unless the step changes, and ends it at 100%', () => {
    let text = '';
    let clock = 0;
    const report = progressReporter(
      (t) => (text += t),
      true,
      () => clock,
    );
    report(0.1, 'reading');
    clock = 50;
    report(0.2, 'reading'); // within 100 ms of the last: not shown
    report(0.3, 'running'); // a new step: shown
    clock = 200;
    report(1, 'done');
    const shown = text.split('\r').filter((part) => part !== '');
    expect(shown.map((part) => part.trim())).toEqual(['10% reading', '30% running', '100% done']);
    expect(text.endsWith('\n')).toBe(true);
  });

  it('in a log writes one line per step and per tenth of the work', () => {
    const lines: string[] = [];
    const report = progressReporter((t) => lines.push(t), false);
    for (let k = 0; k <= 30; k++) report(k / 100, 'reading');
    report(0.31, 'writing');
    expect(lines).toEqual([
      'dpsynth:   0% reading\n',
      'dpsynth:  10% reading\n',
      'dpsynth:  20% reading\n',
      'dpsynth:  30% reading\n',
      'dpsynth:  31% writing\n',
    ]);
  });
});
