import type { MechanismMeta, ParamSpec, ParamValue, ParamValues } from './types';

/**
 * A parameter given to a mechanism is unknown, of the wrong type or out of range.
 * The message is a complete sentence meant for the person who typed the value
 * (the CLI prints it and exits with status 2; the studio shows it beside the form).
 */
export class ParamError extends Error {
  override readonly name = 'ParamError';
  /** The parameter at fault, as the user spelled it. */
  readonly parameter: string;
  constructor(message: string, parameter: string) {
    super(message);
    this.parameter = parameter;
  }
}

/** What a raw value may look like: a CLI string (`--param bins=12`) or a typed studio value. */
export type RawParamValue = string | number | boolean;

/**
 * The full, validated parameter set for `mechanism`: every spec gets a value, the given
 * one after coercion and range checks, otherwise the spec's default.
 * Throws ParamError for an unknown name, a value of the wrong type or one out of range.
 * Example: resolveParams(laplaceHistogram, { bins: '12' }) → { bins: 12, negatives: 'zero' }.
 */
export function resolveParams(
  mechanism: Pick<MechanismMeta, 'id' | 'params'>,
  given: Readonly<Record<string, RawParamValue>>,
): ParamValues {
  const specsByName = new Map(mechanism.params.map((spec) => [spec.name, spec]));
  for (const name of Object.keys(given)) {
    if (!specsByName.has(name)) {
      const known = mechanism.params.map((spec) => spec.name);
      const knownText = known.length > 0 ? `known: ${known.join(', ')}` : 'it takes no parameters';
      throw new ParamError(`unknown parameter \`${name}\` for ${mechanism.id}; ${knownText}.`, name);
    }
  }
  const resolved: ParamValues = {};
  for (const spec of mechanism.params) {
    const raw = Object.prototype.hasOwnProperty.call(given, spec.name) ? given[spec.name] : undefined;
    resolved[spec.name] = raw === undefined ? spec.default : coerceParamValue(spec, raw);
  }
  return resolved;
}

/**
 * One raw value turned into the spec's type, or a ParamError saying what was expected.
 * Strings are trimmed; numbers accept the usual decimal and exponent forms ("1e3").
 */
export function coerceParamValue(spec: ParamSpec, raw: RawParamValue): ParamValue {
  switch (spec.type) {
    case 'integer':
    case 'number':
      return coerceNumber(spec, raw);
    case 'boolean':
      return coerceBoolean(spec, raw);
    case 'enum':
      return coerceEnum(spec, raw);
    case 'text':
      return String(raw).trim();
  }
}

/** "an integer between 2 and 1000", "a number ≥ 0", … : what a numeric spec accepts. */
export function describeAcceptedValues(spec: ParamSpec): string {
  switch (spec.type) {
    case 'boolean':
      return 'true or false';
    case 'text':
      return 'text';
    case 'enum':
      return `one of ${(spec.options ?? []).map((option) => option.value).join(', ')}`;
    case 'integer':
    case 'number': {
      const noun = spec.type === 'integer' ? 'an integer' : 'a number';
      if (spec.min !== undefined && spec.max !== undefined)
        return `${noun} between ${spec.min} and ${spec.max}`;
      if (spec.min !== undefined) return `${noun} ≥ ${spec.min}`;
      if (spec.max !== undefined) return `${noun} ≤ ${spec.max}`;
      return noun;
    }
  }
}

function rejection(spec: ParamSpec, raw: RawParamValue): ParamError {
  const text = String(raw).trim();
  const shown = text === '' ? 'an empty value' : text;
  return new ParamError(
    `parameter \`${spec.name}\` must be ${describeAcceptedValues(spec)}; got ${shown}.`,
    spec.name,
  );
}

function coerceNumber(spec: ParamSpec, raw: RawParamValue): number {
  let value: number;
  if (typeof raw === 'number') value = raw;
  else if (typeof raw === 'string' && raw.trim() !== '') value = Number(raw.trim());
  else throw rejection(spec, raw);
  const outOfRange =
    !Number.isFinite(value) ||
    (spec.type === 'integer' && !Number.isInteger(value)) ||
    (spec.min !== undefined && value < spec.min) ||
    (spec.max !== undefined && value > spec.max);
  if (outOfRange) throw rejection(spec, raw);
  return value;
}

const TRUE_WORDS = new Set(['true', 'yes', 'on', '1']);
const FALSE_WORDS = new Set(['false', 'no', 'off', '0']);

function coerceBoolean(spec: ParamSpec, raw: RawParamValue): boolean {
  if (typeof raw === 'boolean') return raw;
  const word = String(raw).trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  throw rejection(spec, raw);
}

function coerceEnum(spec: ParamSpec, raw: RawParamValue): string {
  const word = typeof raw === 'string' ? raw.trim() : String(raw);
  if ((spec.options ?? []).some((option) => option.value === word)) return word;
  throw rejection(spec, raw);
}
