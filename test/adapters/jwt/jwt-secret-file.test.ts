import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { JWT_SECRET_FILE, loadOrCreateJwtSecret } from '../../../src/adapters/jwt/jwt-secret-file.js';

const tempDir = async (t: { teardown(fn: () => Promise<void>): void }) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'proof-registry-jwt-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
};

test('the first start generates a secret in <dataDir>/jwt-secret with mode 0600; later starts reuse it', async (t) => {
  const dir = path.join(await tempDir(t), 'data');
  const first = await loadOrCreateJwtSecret(dir);
  t.true(first.created);
  t.is(first.file, path.join(dir, JWT_SECRET_FILE));
  t.true(Buffer.byteLength(first.secret) >= 32);
  t.is((await stat(first.file)).mode & 0o777, 0o600);
  const again = await loadOrCreateJwtSecret(dir);
  t.false(again.created);
  t.is(again.secret, first.secret);
});

test('two starts at once agree on one secret', async (t) => {
  const dir = await tempDir(t);
  const [a, b] = await Promise.all([loadOrCreateJwtSecret(dir), loadOrCreateJwtSecret(dir)]);
  t.is(a.secret, b.secret);
  t.is([a, b].filter((r) => r.created).length, 1);
});

test('a loose file mode is tightened; a truncated secret is refused', async (t) => {
  const dir = await tempDir(t);
  const file = path.join(dir, JWT_SECRET_FILE);
  await writeFile(file, 'x'.repeat(40), { mode: 0o644 });
  t.is((await loadOrCreateJwtSecret(dir)).secret, 'x'.repeat(40));
  t.is((await stat(file)).mode & 0o777, 0o600);
  await writeFile(file, 'short');
  await t.throwsAsync(loadOrCreateJwtSecret(dir), { message: /fewer than 32 bytes/ });
  t.is(await readFile(file, 'utf8'), 'short');
});
