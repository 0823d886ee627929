/** Strict encodings used by the protocol. Portable: no Buffer, runs in browsers too. */

const B64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The 6-bit value of each ASCII character of the alphabet; 255 for every other character. */
const B64_VALUE = new Uint8Array(128).fill(255);
for (let i = 0; i < B64_ALPHABET.length; i++) B64_VALUE[B64_ALPHABET.charCodeAt(i)] = i;
const PAD = 0x3d; // '='

/** The 6-bit value of the character at `i`, or 255 when it is not in the alphabet. */
const valueAt = (text: string, i: number): number => {
  const c = text.charCodeAt(i);
  return c < 128 ? B64_VALUE[c]! : 255;
};

/**
 * Standard base64 with padding, canonical only (unused trailing bits zero), so one byte
 * string has exactly one accepted text. Returns null for anything else: a length that is
 * not a multiple of 4, a character outside A–Z a–z 0–9 + / (url-safe `-` `_`, white space),
 * padding anywhere but as `xx==` or `xxx=` at the very end, or non-zero unused bits. The
 * empty text is the empty byte string.
 */
export function decodeBase64Strict(text: string): Uint8Array | null {
  const length = text.length;
  if ((length & 3) !== 0) return null;
  if (length === 0) return new Uint8Array(0);
  // The last quartet: `xxxx`, `xxx=` or `xx==`.
  const padding = text.charCodeAt(length - 1) !== PAD ? 0 : text.charCodeAt(length - 2) !== PAD ? 1 : 2;
  const out = new Uint8Array((length / 4) * 3 - padding);
  const full = padding === 0 ? length : length - 4;
  let o = 0;
  for (let i = 0; i < full; i += 4) {
    const a = valueAt(text, i);
    const b = valueAt(text, i + 1);
    const c = valueAt(text, i + 2);
    const d = valueAt(text, i + 3);
    // Every value is < 64 and 255 otherwise, so bit 7 of the OR flags any foreign character.
    if (((a | b | c | d) & 0x80) !== 0) return null;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = n >> 16;
    out[o++] = (n >> 8) & 0xff;
    out[o++] = n & 0xff;
  }
  if (padding === 0) return out;
  const a = valueAt(text, full);
  const b = valueAt(text, full + 1);
  if (padding === 2) {
    // `xx==`: one byte; the low 4 bits of the second character are unused and must be zero.
    if (((a | b) & 0x80) !== 0 || (b & 0x0f) !== 0) return null;
    out[o] = (a << 2) | (b >> 4);
  } else {
    // `xxx=`: two bytes; the low 2 bits of the third character are unused and must be zero.
    const c = valueAt(text, full + 2);
    if (((a | b | c) & 0x80) !== 0 || (c & 0x03) !== 0) return null;
    out[o++] = (a << 2) | (b >> 4);
    out[o] = ((b & 0x0f) << 4) | (c >> 2);
  }
  return out;
}

export function encodeBase64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += B64_ALPHABET[n >> 18]! + B64_ALPHABET[(n >> 12) & 63]! + B64_ALPHABET[(n >> 6) & 63]! + B64_ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += B64_ALPHABET[n >> 18]! + B64_ALPHABET[(n >> 12) & 63]! + '==';
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += B64_ALPHABET[n >> 18]! + B64_ALPHABET[(n >> 12) & 63]! + B64_ALPHABET[(n >> 6) & 63]! + '=';
  }
  return out;
}

const HEX64 = /^[0-9a-f]{64}$/;
export const isLowerHex256 = (text: string): boolean => HEX64.test(text);

/** Each byte's two lower-case hex digits. */
const HEX_DIGITS = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** Each ASCII character's value as a hex digit (either case), or -1. */
const HEX_VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  HEX_VALUES['0123456789abcdef'.charCodeAt(i)] = i;
  HEX_VALUES['0123456789ABCDEF'.charCodeAt(i)] = i;
}

export function bytesToHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += HEX_DIGITS[bytes[i]!]!;
  return out;
}

/**
 * The bytes a text of hex digit pairs (either case) spells, or null for any other text. Read
 * through a table, two characters at a time: API keys' hashes, proof ids and log leaves are
 * read this way on every request that touches them.
 */
export function hexToBytes(hex: string): Uint8Array | null {
  if (hex.length % 2 !== 0) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0, at = 0; i < out.length; i++, at += 2) {
    const high = hexValue(hex.charCodeAt(at));
    const low = hexValue(hex.charCodeAt(at + 1));
    if (high < 0 || low < 0) return null;
    out[i] = (high << 4) | low;
  }
  return out;
}

const hexValue = (code: number): number => (code < 128 ? HEX_VALUES[code]! : -1);

const encoder = new TextEncoder();
export const utf8 = (text: string): Uint8Array => encoder.encode(text);
