import canonicalize from 'canonicalize';

/**
 * RFC 8785 (JCS) canonical text. JSON cannot carry NaN or Infinity, but a string can carry a
 * lone surrogate, which has no UTF-8 form: such a value has no canonical bytes and so can
 * never be hashed the same way twice. Returns null for it (and for anything not JSON).
 */
export function canonicalText(value: unknown): string | null {
  try {
    const text = canonicalize(value);
    return typeof text === 'string' ? text : null;
  } catch {
    return null;
  }
}

/**
 * Canonical text of the payload without its `payload_hash` member. `telemetryText` is the
 * already computed canonical text of `telemetry_normalized`, reused rather than recomputed:
 * JCS of an object is its members sorted by UTF-16 code units, each `"name":C(value)`.
 */
export function canonicalPayloadText(payload: Record<string, unknown>, telemetryText?: string): string | null {
  const names = Object.keys(payload)
    .filter((name) => name !== 'payload_hash' && payload[name] !== undefined)
    .sort();
  const members: string[] = [];
  for (const name of names) {
    const value =
      name === 'telemetry_normalized' && telemetryText !== undefined ? telemetryText : canonicalText(payload[name]);
    if (value === null) return null;
    members.push(`${JSON.stringify(name)}:${value}`);
  }
  return `{${members.join(',')}}`;
}
