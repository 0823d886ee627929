import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Signatures of the Standard Webhooks specification, v1 (https://www.standardwebhooks.com):
 * `webhook-signature` holds `v1,<base64 HMAC-SHA256>` over `${id}.${timestamp}.${body}`, one
 * per secret while a secret is being rotated, separated by spaces. The id and the timestamp
 * are signed with the body so a receiver can refuse a replay (same id) or an old message
 * (timestamp outside its tolerance).
 */

const PREFIX = 'whsec_';
const KEY_BYTES = 32;
/** The specification asks for keys of 24 to 64 bytes: shorter ones are guessable, longer ones gain nothing with SHA-256. */
const MIN_KEY_BYTES = 24;
const MAX_KEY_BYTES = 64;
export const DEFAULT_TOLERANCE_S = 300;

/** A new secret: 32 random bytes. */
export function newWebhookSecret(): string {
  return PREFIX + randomBytes(KEY_BYTES).toString('base64');
}

export function isWebhookSecret(secret: string): boolean {
  return keyOf(secret) !== null;
}

/** The HMAC key of a secret, or null when it is not `whsec_` and canonical base64 of 24 to 64 bytes. */
function keyOf(secret: string): Buffer | null {
  if (!secret.startsWith(PREFIX)) return null;
  const text = secret.slice(PREFIX.length);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  const key = Buffer.from(text, 'base64');
  // Node's decoder skips what it cannot read; only a text that encodes back to itself is the key it seems.
  if (key.toString('base64') !== text) return null;
  return key.length >= MIN_KEY_BYTES && key.length <= MAX_KEY_BYTES ? key : null;
}

function sign(key: Buffer, id: string, timestampS: number | string, body: string | Uint8Array): string {
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampS}.`, 'utf8').update(body).digest('base64')}`;
}

/**
 * The `webhook-signature` header: one signature per secret, so a receiver that knows either the
 * old or the new secret of a rotation accepts the message. The body is signed as sent, byte
 * for byte. Throws on a malformed secret or timestamp: those are bugs of the caller.
 */
export function signatureHeader(secrets: readonly string[], id: string, timestampS: number, body: string | Uint8Array): string {
  if (secrets.length === 0) throw new RangeError('a webhook needs at least one secret to be signed with');
  if (!Number.isSafeInteger(timestampS) || timestampS < 0) throw new RangeError(`a webhook timestamp is whole seconds since the epoch (got ${timestampS})`);
  return secrets
    .map((secret) => {
      const key = keyOf(secret);
      if (key === null) throw new TypeError('malformed webhook secret: expected whsec_ and the base64 of 24 to 64 bytes');
      return sign(key, id, timestampS, body);
    })
    .join(' ');
}

export interface SignedWebhook {
  readonly secret: string;
  readonly id: string;
  /** `webhook-timestamp` as received: whole seconds since the epoch. */
  readonly timestamp: string | number;
  /** `webhook-signature` as received. */
  readonly signature: string;
  readonly body: string | Uint8Array;
  readonly nowS: number;
  readonly toleranceS?: number;
}

export type SignatureCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** What a receiver does with a Standard Webhook: the timestamp within tolerance, then one v1 signature that matches. */
export function verifySignature({ secret, id, timestamp, signature, body, nowS, toleranceS = DEFAULT_TOLERANCE_S }: SignedWebhook): SignatureCheck {
  const key = keyOf(secret);
  if (key === null) return refused('malformed secret: expected whsec_ and the base64 of 24 to 64 bytes');
  const text = String(timestamp);
  if (!/^(0|[1-9][0-9]{0,14})$/.test(text)) return refused(`malformed timestamp ${JSON.stringify(text)}: expected whole seconds since the epoch`);
  const timestampS = Number(text);
  // The tolerance bounds how long a captured message can be replayed; a receiver keeps seen ids at least that long.
  if (nowS - timestampS > toleranceS) return refused(`stale timestamp: signed ${nowS - timestampS} s ago, beyond the tolerance of ${toleranceS} s`);
  if (timestampS - nowS > toleranceS) return refused(`future timestamp: signed ${timestampS - nowS} s ahead, beyond the tolerance of ${toleranceS} s`);
  const candidates = signature.split(' ').filter((s) => s.startsWith('v1,'));
  if (candidates.length === 0) return refused('no v1 signature in the header');
  const expected = Buffer.from(sign(key, id, text, body), 'utf8');
  // Compared in constant time: a comparison that stops at the first wrong byte would let a forger find a valid signature byte by byte.
  const matches = candidates.some((candidate) => {
    const given = Buffer.from(candidate, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? { ok: true } : refused('no signature matches');
}

const refused = (reason: string): SignatureCheck => ({ ok: false, reason });
