import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Signer } from '../../domain/protocol/crypto.js';
import { keyFileOf, keyFileText, parseKeyFile } from './key-file.js';

export const LOG_KEY_FILE = 'log-signing-key.json';

/**
 * The log's Ed25519 seed. From LOG_SIGNING_KEY_FILE when set (the CLI's key file format, as
 * `proof-registry keygen` writes it; instances sharing a database share this file). Unset:
 * generated once and kept in `<dataDir>/log-signing-key.json` (mode 0600), so a restart signs
 * with the same key. A changed key does not break the log, but every client holding the old
 * vkey would refuse the new checkpoints: the file is as precious as the database.
 */
export async function loadLogSigningKey(signer: Signer, file: string | null, dataDir: string): Promise<{ seed: Uint8Array; file: string; created: boolean }> {
  if (file !== null) {
    const text = await readFile(file, 'utf8');
    return { seed: parseKeyFile(text, file, signer).seed, file, created: false };
  }
  const kept = path.resolve(dataDir, LOG_KEY_FILE);
  await mkdir(path.dirname(kept), { recursive: true, mode: 0o700 });
  const seed = new Uint8Array(randomBytes(32));
  // Written whole to a private temporary file, then linked into place: link() never
  // overwrites, so of two processes starting at once one creates the key and both use it.
  const temporary = `${kept}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, keyFileText(keyFileOf(seed, signer)), { flag: 'wx', mode: 0o600 });
  try {
    await link(temporary, kept);
    return { seed, file: kept, created: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
  await chmod(kept, 0o600).catch(() => undefined);
  return { seed: parseKeyFile(await readFile(kept, 'utf8'), kept, signer).seed, file: kept, created: false };
}
