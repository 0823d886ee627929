/**
 * C2SP tlog-tiles entry bundles: each entry as a big-endian uint16 length, then its bytes.
 * This log's entries are the 32 bytes of a proof's payload_hash.
 */
export function encodeEntryBundle(entries: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(entries.reduce((n, e) => n + 2 + e.length, 0));
  let at = 0;
  for (const e of entries) {
    if (e.length > 0xffff) throw new RangeError('an entry bundle holds entries of at most 65,535 bytes');
    out[at] = e.length >> 8;
    out[at + 1] = e.length & 0xff;
    out.set(e, at + 2);
    at += 2 + e.length;
  }
  return out;
}

/** The entries of a bundle, or null when a length runs past the end. */
export function decodeEntryBundle(bundle: Uint8Array): Uint8Array[] | null {
  const entries: Uint8Array[] = [];
  let at = 0;
  while (at < bundle.length) {
    if (at + 2 > bundle.length) return null;
    const length = (bundle[at]! << 8) | bundle[at + 1]!;
    if (at + 2 + length > bundle.length) return null;
    entries.push(bundle.slice(at + 2, at + 2 + length));
    at += 2 + length;
  }
  return entries;
}
