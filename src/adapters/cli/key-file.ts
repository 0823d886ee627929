import { readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Signer } from '../../domain/protocol/crypto.js';
import { KeyFileError, keyFileText, parseKeyFile, type DeviceKey, type KeyFile } from '../crypto/key-file.js';
import { CliError, describeFsError } from './command.js';

/** The key file's format is the crypto adapter's (the registry reads its log key in it too); here, the CLI's files. */
export { keyFileOf, keyFileText, type DeviceKey, type KeyFile } from '../crypto/key-file.js';

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
      const isDirectory = await stat(target).then(
        (s) => s.isDirectory(),
        () => false,
      );
      throw new CliError(
        isDirectory ? `${path} is a directory; --out takes the key file's own name` : `${path} already exists; refusing to overwrite a key file`,
      );
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
  try {
    return parseKeyFile(text, path, signer);
  } catch (error) {
    throw error instanceof KeyFileError ? new CliError(error.message) : error;
  }
}
