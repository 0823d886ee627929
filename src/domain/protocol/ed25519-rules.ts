/**
 * RFC 8032 §5.1.7 encoding rules that a verifier must enforce itself, because libraries
 * differ: tweetnacl accepts S ≥ L (a second, malleable signature for the same message) and
 * some accept non-canonical point encodings (y ≥ p, or "negative zero" x). Rejecting these
 * makes both signature adapters accept exactly the same set of signatures.
 */

// L = 2^252 + 27742317777372353535851937790883648493, little-endian.
const L = [0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10];

/** True when the 32-byte little-endian scalar is below the group order L. */
export function isCanonicalScalar(s: Uint8Array): boolean {
  if (s.length !== 32) return false;
  for (let i = 31; i >= 0; i--) {
    if (s[i]! < L[i]!) return true;
    if (s[i]! > L[i]!) return false;
  }
  return false; // equal to L
}

/**
 * True when the 32-byte point encoding is canonical: y < p = 2^255 − 19, and the sign bit is
 * not set on a point whose x is zero (y = 1 or y = p − 1). Whether y is on the curve at all
 * is decided by the library's decompression.
 */
export function isCanonicalPointEncoding(point: Uint8Array): boolean {
  if (point.length !== 32) return false;
  const sign = point[31]! & 0x80;
  const y = Uint8Array.from(point);
  y[31] = y[31]! & 0x7f;
  if (compareToP(y) >= 0) return false;
  if (sign !== 0 && (isOne(y) || isPMinusOne(y))) return false;
  return true;
}

/** Compares a 255-bit little-endian value to p = 2^255 − 19. */
function compareToP(y: Uint8Array): number {
  if (y[31] !== 0x7f) return -1;
  for (let i = 30; i >= 1; i--) if (y[i] !== 0xff) return -1;
  return y[0]! >= 0xed ? 1 : -1; // y[0] === 0xed is exactly p
}

function isOne(y: Uint8Array): boolean {
  if (y[0] !== 1) return false;
  for (let i = 1; i < 32; i++) if (y[i] !== 0) return false;
  return true;
}

function isPMinusOne(y: Uint8Array): boolean {
  if (y[0] !== 0xec || y[31] !== 0x7f) return false;
  for (let i = 1; i < 31; i++) if (y[i] !== 0xff) return false;
  return true;
}

/** The checks every Ed25519 adapter runs before the curve arithmetic. */
export function passesStrictEncoding(publicKey: Uint8Array, signature: Uint8Array): boolean {
  return (
    publicKey.length === 32 &&
    signature.length === 64 &&
    isCanonicalPointEncoding(publicKey) &&
    isCanonicalPointEncoding(signature.subarray(0, 32)) &&
    isCanonicalScalar(signature.subarray(32, 64))
  );
}
