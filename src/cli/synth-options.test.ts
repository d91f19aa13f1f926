import { describe, expect, it } from 'vitest';
import { UsageError } from './errors';
import { seedOption } from './synth-options';

describe('synth options', () => {
  it('reads --seed as the job model does (trimmed), and refuses a blank one', () => {
    expect(seedOption(undefined)).toBeUndefined();
    expect(seedOption('42')).toBe('42');
    expect(seedOption(' 42 ')).toBe('42');
    expect(() => seedOption('')).toThrow(UsageError);
    expect(() => seedOption('  ')).toThrow(/--seed needs a value/);
  });
});
