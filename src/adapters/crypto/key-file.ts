import type { Signer } from '../../domain/protocol/crypto.js';
import { decodeBase64Strict, encodeBase64 } from '../../domain/protocol/encoding.js';

/** A key file that cannot be used; the message names the file and what is wrong with it. */
export class KeyFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyFileError';
  }
}

/**
 * A device key file, the ACTO SDK's format: `private_key_b64` is the 32-byte Ed25519 seed.
 * Some tools write the 64-byte secret key (seed || public key) instead; both are read.
 */
export interface KeyFile {
  readonly public_key_b64: string;
  readonly private_key_b64: string;
}

export interface DeviceKey {
  readonly seed: Uint8Array;
  readonly publicKey: Uint8Array;
}

export function keyFileOf(seed: Uint8Array, signer: Signer): KeyFile {
  return { public_key_b64: encodeBase64(signer.publicKey(seed)), private_key_b64: encodeBase64(seed) };
}

export const keyFileText = (key: KeyFile): string => `${JSON.stringify(key, null, 2)}\n`;

/**
 * A key whose halves disagree would sign envelopes under a public key other than the one the
 * operator registered, so every mismatch is an error rather than a silent preference.
 */
export function parseKeyFile(text: string, path: string, signer: Signer): DeviceKey {
  const what = `key file ${path}`;
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch (error) {
    throw new KeyFileError(`${what}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!isPlainObject(json)) throw new KeyFileError(`${what}: must be a JSON object`);
  const secret = decodeField(json, 'private_key_b64', what);
  if (secret === null) throw new KeyFileError(`${what}: missing "private_key_b64"`);
  if (secret.length !== 32 && secret.length !== 64) {
    throw new KeyFileError(`${what}: "private_key_b64" must decode to 32 bytes (seed) or 64 bytes (seed and public key), got ${secret.length}`);
  }
  const seed = secret.slice(0, 32);
  const publicKey = signer.publicKey(seed);
  if (secret.length === 64 && !sameBytes(secret.subarray(32), publicKey)) {
    throw new KeyFileError(`${what}: the second half of "private_key_b64" is not the public key of its seed`);
  }
  const claimed = decodeField(json, 'public_key_b64', what);
  if (claimed !== null && !sameBytes(claimed, publicKey)) {
    throw new KeyFileError(`${what}: "public_key_b64" does not match the public key of "private_key_b64"`);
  }
  return { seed, publicKey };
}

function decodeField(json: Record<string, unknown>, name: string, what: string): Uint8Array | null {
  const value = json[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new KeyFileError(`${what}: "${name}" must be a base64 string`);
  const bytes = decodeBase64Strict(value.trim());
  if (bytes === null) throw new KeyFileError(`${what}: "${name}" is not standard padded base64`);
  return bytes;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
