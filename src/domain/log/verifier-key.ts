import * as E from 'fp-ts/lib/Either.js';
import { decodeBase64Strict, encodeBase64, utf8 } from '../protocol/encoding.js';
import type { NoteFailure } from './log-failures.js';
import type { Sha256 } from './sha256.js';

/** C2SP signed-note signature type of Ed25519. */
export const ED25519_TYPE = 0x01;

/** An Ed25519 note key as a verifier knows it. `keyId` is the 32-bit id, as 8 lowercase hex digits. */
export interface VerifierKey {
  readonly name: string;
  readonly keyId: string;
  readonly publicKey: Uint8Array;
}

/** C2SP: key names are non-empty, with no Unicode space and no `+` (the vkey separator). */
export function isKeyName(name: string): boolean {
  return name !== '' && !/[\s+]/u.test(name);
}

/** SHA-256(key name ‖ 0x0A ‖ 0x01 ‖ public key)[:4], in hex. */
export function noteKeyId(sha: Sha256, name: string, publicKey: Uint8Array): string {
  const nameBytes = utf8(name);
  const input = new Uint8Array(nameBytes.length + 2 + publicKey.length);
  input.set(nameBytes);
  input[nameBytes.length] = 0x0a;
  input[nameBytes.length + 1] = ED25519_TYPE;
  input.set(publicKey, nameBytes.length + 2);
  return Array.from(sha.digest(input).subarray(0, 4), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** `<name>+<key id hex>+<base64(0x01 ‖ public key)>`. */
export function formatVerifierKey(key: VerifierKey): string {
  const typed = new Uint8Array(1 + key.publicKey.length);
  typed[0] = ED25519_TYPE;
  typed.set(key.publicKey, 1);
  return `${key.name}+${key.keyId}+${encodeBase64(typed)}`;
}

export function verifierKeyOf(sha: Sha256, name: string, publicKey: Uint8Array): VerifierKey {
  return { name, keyId: noteKeyId(sha, name, publicKey), publicKey };
}

const malformed = (problem: string): E.Either<NoteFailure, never> => E.left({ _tag: 'MalformedVerifierKey', problem });

/**
 * Reads a vkey. The key id must be the one the name and key imply: a vkey whose id was
 * edited would otherwise match signatures it cannot verify, or miss its own.
 */
export function parseVerifierKey(sha: Sha256, vkey: string): E.Either<NoteFailure, VerifierKey> {
  const first = vkey.indexOf('+');
  const second = vkey.indexOf('+', first + 1);
  if (first < 0 || second < 0) return malformed('expected <name>+<key id>+<key>');
  const name = vkey.slice(0, first);
  const idText = vkey.slice(first + 1, second);
  const typed = decodeBase64Strict(vkey.slice(second + 1));
  if (!isKeyName(name)) return malformed('the key name is empty or has a space or a plus sign');
  if (!/^[0-9a-fA-F]{8}$/.test(idText)) return malformed('the key id is not 8 hex digits');
  if (typed === null || typed.length === 0) return malformed('the key is not base64');
  if (typed[0] !== ED25519_TYPE) return malformed(`signature type 0x${typed[0]!.toString(16).padStart(2, '0')} is not Ed25519 (0x01)`);
  if (typed.length !== 33) return malformed('an Ed25519 public key is 32 bytes');
  const key = verifierKeyOf(sha, name, typed.slice(1));
  if (key.keyId !== idText.toLowerCase()) return malformed(`the key id ${idText} is not the id of this name and key (${key.keyId})`);
  return E.right(key);
}
