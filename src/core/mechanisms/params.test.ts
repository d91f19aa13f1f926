import { describe, expect, it } from 'vitest';
import { coerceParamValue, describeAcceptedValues, ParamError, resolveParams } from './params';
import type { ParamSpec } from './types';

const binsSpec: ParamSpec = {
  name: 'bins',
  label: 'Bins',
  type: 'integer',
  default: 10,
  min: 2,
  max: 1000,
  help: 'Bins per numeric column.',
};
const ruleSpec: ParamSpec = {
  name: 'binning',
  label: 'Bin rule',
  type: 'enum',
  default: 'scott',
  options: [
    { value: 'scott', label: 'Scott' },
    { value: 'fixed', label: 'Fixed' },
  ],
  help: 'How bins are chosen.',
};
const flagSpec: ParamSpec = { name: 'shuffle', label: 'Shuffle', type: 'boolean', default: true, help: '' };
const weightSpec: ParamSpec = {
  name: 'weight',
  label: 'Weight',
  type: 'number',
  default: 0.5,
  min: 0,
  help: '',
};
const fake = { id: 'laplace-histogram', params: [binsSpec, ruleSpec, flagSpec, weightSpec] };

function errorOf(action: () => unknown): ParamError {
  try {
    action();
  } catch (error) {
    if (error instanceof ParamError) return error;
    throw error;
  }
  throw new Error('expected a ParamError');
}

describe('resolveParams', () => {
  it('fills every default when nothing is given', () => {
    expect(resolveParams(fake, {})).toEqual({ bins: 10, binning: 'scott', shuffle: true, weight: 0.5 });
  });

  it('coerces CLI strings to the declared types', () => {
    expect(resolveParams(fake, { bins: ' 12 ', binning: 'fixed', shuffle: 'no', weight: '2.5e-1' })).toEqual({
      bins: 12,
      binning: 'fixed',
      shuffle: false,
      weight: 0.25,
    });
  });

  it('passes typed studio values through', () => {
    expect(resolveParams(fake, { bins: 3, shuffle: false })).toMatchObject({ bins: 3, shuffle: false });
  });

  it('names the unknown parameter and lists the known ones', () => {
    const error = errorOf(() => resolveParams(fake, { foo: '1' }));
    expect(error.message).toBe(
      'unknown parameter `foo` for laplace-histogram; known: bins, binning, shuffle, weight.',
    );
    expect(error.parameter).toBe('foo');
  });

  it('says what an integer parameter accepts when given a fraction or an out-of-range value', () => {
    expect(errorOf(() => resolveParams(fake, { bins: '1.5' })).message).toBe(
      'parameter `bins` must be an integer between 2 and 1000; got 1.5.',
    );
    expect(errorOf(() => resolveParams(fake, { bins: 1001 })).message).toBe(
      'parameter `bins` must be an integer between 2 and 1000; got 1001.',
    );
    expect(errorOf(() => resolveParams(fake, { bins: 'ten' })).message).toContain('got ten.');
    expect(errorOf(() => resolveParams(fake, { bins: '' })).message).toContain('got an empty value.');
    expect(errorOf(() => resolveParams(fake, { bins: true })).message).toContain('got true.');
  });

  it('rejects non-finite numbers and values below a one-sided minimum', () => {
    expect(errorOf(() => resolveParams(fake, { weight: 'Infinity' })).message).toBe(
      'parameter `weight` must be a number ≥ 0; got Infinity.',
    );
    expect(errorOf(() => resolveParams(fake, { weight: -1 })).message).toContain('got -1.');
  });

  it('lists the choices of an enum and the words of a boolean', () => {
    expect(errorOf(() => resolveParams(fake, { binning: 'sturges' })).message).toBe(
      'parameter `binning` must be one of scott, fixed; got sturges.',
    );
    expect(errorOf(() => resolveParams(fake, { shuffle: 'maybe' })).message).toBe(
      'parameter `shuffle` must be true or false; got maybe.',
    );
  });

  it('says so when a mechanism takes no parameters', () => {
    expect(errorOf(() => resolveParams({ id: 'plain', params: [] }, { x: 1 })).message).toBe(
      'unknown parameter `x` for plain; it takes no parameters.',
    );
  });
});

describe('coerceParamValue and describeAcceptedValues', () => {
  it('accepts every boolean spelling', () => {
    for (const word of ['true', 'YES', 'on', '1']) expect(coerceParamValue(flagSpec, word)).toBe(true);
    for (const word of ['false', 'No', 'off', '0']) expect(coerceParamValue(flagSpec, word)).toBe(false);
  });

  it('describes one-sided and unbounded ranges', () => {
    expect(describeAcceptedValues({ ...weightSpec, min: undefined, max: 3 })).toBe('a number ≤ 3');
    expect(describeAcceptedValues({ ...weightSpec, min: undefined })).toBe('a number');
  });
});
