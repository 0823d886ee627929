import * as E from 'fp-ts/lib/Either.js';
import { decodeBase64Strict, encodeBase64, utf8 } from '../protocol/encoding.js';
import type { SignatureVerifier } from '../protocol/crypto.js';
import type { NoteFailure } from './log-failures.js';
import type { Sha256 } from './sha256.js';
import { parseSignedNote, type NoteSignature } from './signed-note.js';
import { isKeyName, type VerifierKey } from './verifier-key.js';

/** C2SP signed-note signature type of timestamped Ed25519 checkpoint cosignatures (c2sp.org/tlog-cosignature). */
export const COSIGNATURE_V1_TYPE = 0x04;

/** The largest timestamp a cosignature may carry: tlog-cosignature caps it at 2^63 − 1; a JS number is exact to 2^53 − 1. */
const MAX_TIMESTAMP = Number.MAX_SAFE_INTEGER;

/** One cosignature, read from its signature line: who (name, key id), when (POSIX seconds), and the Ed25519 signature. */
export interface Cosignature {
  readonly name: string;
  /** 8 lowercase hex digits. */
  readonly keyId: string;
  readonly timestamp: number;
  readonly signature: Uint8Array;
}

const hexOf = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** tlog-cosignature "Format": SHA-256(name ‖ 0x0A ‖ 0x04 ‖ 32-byte Ed25519 public key)[:4], in hex. */
export function cosignerKeyId(sha: Sha256, name: string, publicKey: Uint8Array): string {
  const nameBytes = utf8(name);
  const input = new Uint8Array(nameBytes.length + 2 + publicKey.length);
  input.set(nameBytes);
  input[nameBytes.length] = 0x0a;
  input[nameBytes.length + 1] = COSIGNATURE_V1_TYPE;
  input.set(publicKey, nameBytes.length + 2);
  return hexOf(sha.digest(input).subarray(0, 4));
}

/** A cosigner's key: the same shape as a note key, its id computed with the cosignature/v1 type byte. */
export function cosignerKeyOf(sha: Sha256, name: string, publicKey: Uint8Array): VerifierKey {
  return { name, keyId: cosignerKeyId(sha, name, publicKey), publicKey };
}

/** The cosigner's vkey: `<name>+<key id>+base64(0x04 ‖ public key)` (signed-note "Verifier keys"). */
export function formatCosignerVerifierKey(key: VerifierKey): string {
  const typed = new Uint8Array(1 + key.publicKey.length);
  typed[0] = COSIGNATURE_V1_TYPE;
  typed.set(key.publicKey, 1);
  return `${key.name}+${key.keyId}+${encodeBase64(typed)}`;
}

const badKey = (problem: string): E.Either<NoteFailure, never> => E.left({ _tag: 'MalformedVerifierKey', problem });

/** Reads a cosigner's vkey (type 0x04, 32-byte Ed25519 key); its key id must be the one its name and key imply. */
export function parseCosignerVerifierKey(sha: Sha256, vkey: string): E.Either<NoteFailure, VerifierKey> {
  // The name and the id hold no plus sign; the base64 key may.
  const first = vkey.indexOf('+');
  const second = first < 0 ? -1 : vkey.indexOf('+', first + 1);
  if (second < 0) return badKey('expected <name>+<key id>+<key>');
  const [name, idText, keyText] = [vkey.slice(0, first), vkey.slice(first + 1, second), vkey.slice(second + 1)];
  const typed = decodeBase64Strict(keyText);
  if (!isKeyName(name)) return badKey('the key name is empty or has a space or a plus sign');
  if (!/^[0-9a-fA-F]{8}$/.test(idText)) return badKey('the key id is not 8 hex digits');
  if (typed === null || typed.length === 0) return badKey('the key is not base64');
  if (typed[0] !== COSIGNATURE_V1_TYPE) {
    return badKey(`signature type 0x${typed[0]!.toString(16).padStart(2, '0')} is not an Ed25519 cosignature (0x04)`);
  }
  if (typed.length !== 33) return badKey('an Ed25519 public key is 32 bytes');
  const key = cosignerKeyOf(sha, name, typed.slice(1));
  if (key.keyId !== idText.toLowerCase()) return badKey(`the key id ${idText} is not the id of this name and key (${key.keyId})`);
  return E.right(key);
}

/**
 * tlog-cosignature "Ed25519 signed message": `cosignature/v1\n`, `time <timestamp>\n`, then
 * the checkpoint's whole note text (with its extension lines and final newline).
 */
export function cosignedMessage(checkpointText: string, timestamp: number): Uint8Array {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new RangeError(`a cosignature timestamp is whole seconds ≥ 0, got ${timestamp}`);
  return utf8(`cosignature/v1\ntime ${timestamp}\n${checkpointText}`);
}

/** The note signature of a cosignature: its 64-byte signature prefixed by the 8-byte big-endian timestamp. */
export function cosignatureNoteSignature(cosignature: Cosignature): NoteSignature {
  const bytes = new Uint8Array(8 + cosignature.signature.length);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(cosignature.timestamp));
  bytes.set(cosignature.signature, 8);
  return { name: cosignature.name, keyId: cosignature.keyId, signature: bytes };
}

/** `— <name> base64(key id ‖ timestamp ‖ signature)\n`: one line of an add-checkpoint answer. */
export function formatCosignatureLine(cosignature: Cosignature): string {
  const s = cosignatureNoteSignature(cosignature);
  const bytes = new Uint8Array(4 + s.signature.length);
  for (let i = 0; i < 4; i++) bytes[i] = parseInt(s.keyId.slice(2 * i, 2 * i + 2), 16);
  bytes.set(s.signature, 4);
  return `\u2014 ${s.name} ${encodeBase64(bytes)}\n`;
}

/** Reads a note signature as a cosignature/v1 `timestamped_signature`: 8 bytes of time, 64 of Ed25519; null if it is not one. */
export function cosignatureOf(signature: NoteSignature): Cosignature | null {
  if (signature.signature.length !== 8 + 64) return null;
  const view = new DataView(signature.signature.buffer, signature.signature.byteOffset, 8);
  const timestamp = view.getBigUint64(0);
  if (timestamp > BigInt(MAX_TIMESTAMP)) return null;
  return { name: signature.name, keyId: signature.keyId, timestamp: Number(timestamp), signature: signature.signature.slice(8) };
}

/** Does the cosignature verify for this checkpoint text with this cosigner key (name, id and signature)? */
export function verifyCosignature(verifier: SignatureVerifier, checkpointText: string, cosignature: Cosignature, key: VerifierKey): boolean {
  if (cosignature.name !== key.name || cosignature.keyId !== key.keyId || cosignature.signature.length !== 64) return false;
  return verifier.verify(key.publicKey, cosignedMessage(checkpointText, cosignature.timestamp), cosignature.signature);
}

export type CosignatureFailure = NoteFailure | { readonly _tag: 'NotACosignature'; readonly keyName: string; readonly keyId: string };

/**
 * Opens a checkpoint note by a cosigner's signature, as signed-note says for any key: lines of
 * other keys are ignored; every line of this key must be a valid cosignature, and one must be
 * there. Returns the cosignatures (their times are what a client may check).
 */
export function openCosignedNote(verifier: SignatureVerifier, note: string, key: VerifierKey): E.Either<CosignatureFailure, readonly Cosignature[]> {
  const parsed = parseSignedNote(note);
  if (E.isLeft(parsed)) return parsed;
  const mine = parsed.right.signatures.filter((s) => s.name === key.name && s.keyId === key.keyId);
  if (mine.length === 0) return E.left({ _tag: 'NoSignatureByKey', keyName: key.name, keyId: key.keyId });
  const found: Cosignature[] = [];
  for (const s of mine) {
    const cosignature = cosignatureOf(s);
    if (cosignature === null) return E.left({ _tag: 'NotACosignature', keyName: key.name, keyId: key.keyId });
    if (!verifyCosignature(verifier, parsed.right.text, cosignature, key)) return E.left({ _tag: 'SignatureInvalid', keyName: key.name, keyId: key.keyId });
    found.push(cosignature);
  }
  return E.right(found);
}
