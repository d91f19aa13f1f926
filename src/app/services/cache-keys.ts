/**
 * 32-bit FNV-1a hash of a string as 8 hex digits (Fowler–Noll–Vo, offset basis 2166136261,
 * prime 16777619). Used to name cache entries, not for anything secret.
 * Example: fnv1aHex('') === '811c9dc5'.
 */
export function fnv1aHex(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** Stable JSON: object keys sorted, so equal configurations give equal keys. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Key of the table a worker holds: the loaded dataset and the whole schema it was built under (the
 * schema's stable JSON itself, not a hash of it, so two schemas can never share a key).
 */
export function tableKeyOf(datasetId: string, schema: unknown): string {
  return `${datasetId}:${stableJson(schema)}`;
}
