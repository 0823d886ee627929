import { decodeBase58, encodeBase58, encodeBase58Fixed } from './base58.js';

/**
 * API key format: `pr_live_<body><checksum>`.
 *
 * - `body` is base58 of 32 random bytes (256 bits): guessing is hopeless, so a fast hash
 *   (SHA-256) is the right way to store it, with no salt or stretching needed.
 * - `checksum` is CRC-32 of everything before it, as 6 base58 characters. It is not a
 *   security measure: it lets a mistyped or truncated key be refused before any lookup, and
 *   lets secret scanners recognise a real key with few false positives.
 * - the `pr_live_` prefix says what the secret is when it turns up in a log or a repository.
 */
export const API_KEY_PREFIX = 'pr_live_';
export const API_KEY_SECRET_BYTES = 32;
const CHECKSUM_LENGTH = 6;
/** Characters of the key shown in lists so a user can tell keys apart (never enough to use). */
const DISPLAY_LENGTH = API_KEY_PREFIX.length + 8;

export function formatApiKey(secret: Uint8Array): string {
  if (secret.length !== API_KEY_SECRET_BYTES) throw new RangeError(`an API key secret is ${API_KEY_SECRET_BYTES} bytes`);
  const head = API_KEY_PREFIX + encodeBase58(secret);
  return head + encodeBase58Fixed(crc32(head), CHECKSUM_LENGTH);
}

/**
 * True when the text has the shape of a key this service issues and its checksum matches.
 * Runs before any store lookup, so garbage and typos cost nothing and reveal nothing.
 */
export function isWellFormedApiKey(text: string): boolean {
  if (!text.startsWith(API_KEY_PREFIX) || text.length > API_KEY_PREFIX.length + 44 + CHECKSUM_LENGTH) return false;
  const head = text.slice(0, -CHECKSUM_LENGTH);
  const body = head.slice(API_KEY_PREFIX.length);
  const secret = decodeBase58(body);
  if (secret === null || secret.length !== API_KEY_SECRET_BYTES || encodeBase58(secret) !== body) return false;
  return text.slice(-CHECKSUM_LENGTH) === encodeBase58Fixed(crc32(head), CHECKSUM_LENGTH);
}

/** True when the bearer token is meant as an API key (as opposed to a JWT). */
export const looksLikeApiKey = (text: string): boolean => text.startsWith('pr_');

/** The part of a key shown in lists: the prefix and the first characters of the body. */
export const displayPrefix = (key: string): string => key.slice(0, DISPLAY_LENGTH);

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE 802.3) of the ASCII text. */
export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) crc = CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** A key's error_count / request_count, to 4 decimals; 0 for an unused key. */
export const errorRate = (k: { readonly requestCount: number; readonly errorCount: number }): number =>
  k.requestCount === 0 ? 0 : Math.round((k.errorCount / k.requestCount) * 10_000) / 10_000;
