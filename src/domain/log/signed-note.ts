import * as E from 'fp-ts/lib/Either.js';
import { decodeBase64Strict, encodeBase64, utf8 } from '../protocol/encoding.js';
import type { SignatureVerifier } from '../protocol/crypto.js';
import type { NoteFailure } from './log-failures.js';
import { isKeyName, type VerifierKey } from './verifier-key.js';

/** One signature line of a note: `— <name> <base64(key id ‖ signature)>`. */
export interface NoteSignature {
  readonly name: string;
  /** 8 lowercase hex digits. */
  readonly keyId: string;
  readonly signature: Uint8Array;
}

export interface SignedNote {
  /** The signed text, up to and including its last newline before the blank line. */
  readonly text: string;
  readonly signatures: readonly NoteSignature[];
}

/** C2SP asks verifiers to accept at least 16 signatures; more than this is not a note. */
export const MAX_SIGNATURES = 100;

const DASH = '\u2014 ';
// eslint-disable-next-line no-control-regex -- C2SP forbids these characters in a note.
const CONTROL = /[\u0000-\u0009\u000b-\u001f]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function formatSignedNote(note: SignedNote): string {
  return `${note.text}\n${note.signatures.map(formatSignatureLine).join('')}`;
}

function formatSignatureLine(s: NoteSignature): string {
  const bytes = new Uint8Array(4 + s.signature.length);
  for (let i = 0; i < 4; i++) bytes[i] = parseInt(s.keyId.slice(2 * i, 2 * i + 2), 16);
  bytes.set(s.signature, 4);
  return `${DASH}${s.name} ${encodeBase64(bytes)}\n`;
}

const malformed = (problem: string): E.Either<NoteFailure, never> => E.left({ _tag: 'MalformedNote', problem });

/** Splits a note into its text and signature lines; verifies nothing. */
export function parseSignedNote(note: string): E.Either<NoteFailure, SignedNote> {
  if (LONE_SURROGATE.test(note)) return malformed('it is not valid UTF-8');
  if (CONTROL.test(note)) return malformed('it holds a control character other than newline');
  if (!note.endsWith('\n')) return malformed('it does not end with a newline');
  const split = note.lastIndexOf('\n\n');
  if (split < 0) return malformed('no blank line separates the text from the signatures');
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2, -1).split('\n');
  if (lines.length > MAX_SIGNATURES) return malformed(`more than ${MAX_SIGNATURES} signatures`);
  const signatures: NoteSignature[] = [];
  for (const line of lines) {
    const parsed = parseSignatureLine(line);
    if (parsed === null) return malformed(`${JSON.stringify(line)} is not a signature line (— <key name> <base64>)`);
    signatures.push(parsed);
  }
  return E.right({ text, signatures });
}

function parseSignatureLine(line: string): NoteSignature | null {
  if (!line.startsWith(DASH)) return null;
  const rest = line.slice(DASH.length);
  const space = rest.indexOf(' ');
  if (space < 0) return null;
  const name = rest.slice(0, space);
  const bytes = decodeBase64Strict(rest.slice(space + 1));
  if (!isKeyName(name) || bytes === null || bytes.length < 5) return null;
  const keyId = Array.from(bytes.subarray(0, 4), (b) => b.toString(16).padStart(2, '0')).join('');
  return { name, keyId, signature: bytes.slice(4) };
}

/**
 * C2SP signed-note verification with one trusted key: signatures by other keys are ignored
 * (a changed name or key id makes a signature another key's); one by this key must verify
 * over the text, or the whole note is rejected; with none, nothing vouches for the text.
 * Returns the verified text.
 */
export function openSignedNote(verifier: SignatureVerifier, note: string, key: VerifierKey): E.Either<NoteFailure, string> {
  const parsed = parseSignedNote(note);
  if (E.isLeft(parsed)) return parsed;
  const mine = parsed.right.signatures.filter((s) => s.name === key.name && s.keyId === key.keyId);
  if (mine.length === 0) return E.left({ _tag: 'NoSignatureByKey', keyName: key.name, keyId: key.keyId });
  const message = utf8(parsed.right.text);
  for (const s of mine) {
    if (s.signature.length !== 64 || !verifier.verify(key.publicKey, message, s.signature)) {
      return E.left({ _tag: 'SignatureInvalid', keyName: key.name, keyId: key.keyId });
    }
  }
  return E.right(parsed.right.text);
}
