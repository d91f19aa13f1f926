import { describe, expect, it } from 'vitest';
import { isNumericToken, parseNumericToken } from './numeric-token';

// Cases of the normative pattern, reference/README.md §Common preprocessing 3; the expected verdicts are
// those of Python's re.match(r"^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$", token) in refcommon.py.
describe('isNumericToken', () => {
  it.each(['0', '42', '-7', '+3', '1.', '.5', '-.5', '3.25', '1e5', '1E5', '2.5e-3', '-1.e+2', '007'])(
    'accepts %j',
    (token) => expect(isNumericToken(token)).toBe(true),
  );

  it.each([
    '',
    '.',
    '-',
    '+',
    'e5',
    '1e',
    '1e+',
    '0x10',
    'inf',
    'Infinity',
    'NaN',
    ' 1',
    '1 ',
    '1,5',
    '1.2.3',
    '--1',
  ])('rejects %j', (token) => expect(isNumericToken(token)).toBe(false));
});

describe('isNumericToken and non-ASCII digits', () => {
  it('reads only ASCII digits as digits (a deliberate difference from Python, whose \\d matches any Unicode digit)', () => {
    expect(isNumericToken('\u0661')).toBe(false); // ARABIC-INDIC DIGIT ONE
    expect(isNumericToken('\uff11')).toBe(false); // FULLWIDTH DIGIT ONE
  });
});

describe('parseNumericToken', () => {
  it('gives the same doubles as Python float()', () => {
    expect(parseNumericToken('1.')).toBe(1);
    expect(parseNumericToken('.5')).toBe(0.5);
    expect(parseNumericToken('+3')).toBe(3);
    expect(parseNumericToken('1e5')).toBe(100000);
    expect(parseNumericToken('0.1')).toBe(0.1);
    expect(parseNumericToken('1e400')).toBe(Infinity);
  });
});
