import { readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Signer } from '../../domain/protocol/crypto.js';
import { decodeBase64Strict, encodeBase64 } from '../../domain/protocol/encoding.js';
import { CliError, describeFsError, isPlainObject, parseJson } from './command.js';

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
 * Writes a new key file readable by its owner only. `wx` fails if the file exists, so an
 * existing device key is never replaced by accident (that would orphan every proof it signed).
 */
export async function writeKeyFile(path: string, cwd: string, key: KeyFile): Promise<void> {
  if (path === '') throw new CliError('--out needs a file name');
  const target = resolve(cwd, path);
  try {
    await writeFile(target, keyFileText(key), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      const isDirectory = await stat(target).then((s) => s.isDirectory(), () => false);
      throw new CliError(isDirectory ? `${path} is a directory; --out takes the key file's own name` : `${path} already exists; refusing to overwrite a key file`);
    }
    if (code === 'ENOENT') throw new CliError(`${path}: no such directory: ${dirname(path) || '.'}`);
    throw new CliError(`${path}: ${describeFsError(error)}`);
  }
}

export async function readKeyFile(path: string, cwd: string, signer: Signer): Promise<DeviceKey> {
  let text: string;
  try {
    text = await readFile(resolve(cwd, path), 'utf8');
  } catch (error) {
    throw new CliError(`key file ${path}: ${describeFsError(error)}`);
  }
  return parseKeyFile(text, path, signer);
}

/**
 * A key whose halves disagree would sign envelopes under a public key other than the one the
 * operator registered, so every mismatch is an error rather than a silent preference.
 */
export function parseKeyFile(text: string, path: string, signer: Signer): DeviceKey {
  const what = `key file ${path}`;
  const json = parseJson(text, what);
  if (!isPlainObject(json)) throw new CliError(`${what}: must be a JSON object`);
  const secret = decodeField(json, 'private_key_b64', what);
  if (secret === null) throw new CliError(`${what}: missing "private_key_b64"`);
  if (secret.length !== 32 && secret.length !== 64) {
    throw new CliError(
      `${what}: "private_key_b64" must decode to 32 bytes (seed) or 64 bytes (seed and public key), got ${secret.length}`,
    );
  }
  const seed = secret.slice(0, 32);
  const publicKey = signer.publicKey(seed);
  if (secret.length === 64 && !sameBytes(secret.subarray(32), publicKey)) {
    throw new CliError(`${what}: the second half of "private_key_b64" is not the public key of its seed`);
  }
  const claimed = decodeField(json, 'public_key_b64', what);
  if (claimed !== null && !sameBytes(claimed, publicKey)) {
    throw new CliError(`${what}: "public_key_b64" does not match the public key of "private_key_b64"`);
  }
  return { seed, publicKey };
}

function decodeField(json: Record<string, unknown>, name: string, what: string): Uint8Array | null {
  const value = json[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new CliError(`${what}: "${name}" must be a base64 string`);
  const bytes = decodeBase64Strict(value.trim());
  if (bytes === null) throw new CliError(`${what}: "${name}" is not standard padded base64`);
  return bytes;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
