import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const JWT_SECRET_FILE = 'jwt-secret';

/**
 * The JWT key when JWT_SECRET is unset: generated once (32 random bytes, base64url) and kept
 * in `<dataDir>/jwt-secret` with mode 0600, so tokens survive a restart. Each instance with its
 * own data directory gets its own key: several instances must share JWT_SECRET instead.
 */
export async function loadOrCreateJwtSecret(dataDir: string): Promise<{ secret: string; file: string; created: boolean }> {
  const file = path.resolve(dataDir, JWT_SECRET_FILE);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const fresh = randomBytes(32).toString('base64url');
  // Written whole to a private temporary file, then linked into place: link() never
  // overwrites, so of two processes starting at once one creates the file and both read the
  // same complete secret; nobody ever sees a half-written one.
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, fresh + '\n', { flag: 'wx', mode: 0o600 });
  try {
    await link(temporary, file);
    return { secret: fresh, file, created: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
  const secret = (await readFile(file, 'utf8')).trim();
  if (Buffer.byteLength(secret) < 32) throw new Error(`${file} holds fewer than 32 bytes; delete it to generate a new JWT secret`);
  // Tighten permissions left loose by a copy or an editor.
  await chmod(file, 0o600).catch(() => undefined);
  return { secret, file, created: false };
}
