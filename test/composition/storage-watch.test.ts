import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { OPERATIONS } from '../../src/composition/operations.tokens.js';
import { startRegistry } from '../../src/composition/root.js';
import { resolve } from '../../src/composition/token.js';
import { loadConfig } from '../../src/config.js';
import { anEnvelope, WALLET_A } from '../support/mothers.js';
import { inlineVerification, testAccess } from '../support/registry.js';
import { authHeaders } from '../support/test-authenticator.js';

test('the stored proofs are a gauge; an SQLite registry past SQLITE_PROOFS_WARN says once that PostgreSQL is the way on', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'storage-watch-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const lines: Array<{ level: number; msg: string; storedProofs?: number }> = [];
  const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(JSON.parse(chunk.toString())), done()) });
  const config = loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'registry.sqlite')}`, DATA_DIR: dir, PORT: '0', SQLITE_PROOFS_WARN: '2' });
  const registry = await startRegistry(config, { logger: pino({ level: 'warn' }, sink), overrides: [testAccess, inlineVerification] });
  t.teardown(() => registry.close());
  for (let i = 0; i < 3; i++) {
    const res = await fetch(`${registry.url}/v1/proofs`, {
      method: 'POST',
      headers: { ...authHeaders(WALLET_A), 'content-type': 'application/json' },
      body: JSON.stringify({ envelope: anEnvelope({ taskId: `w-${i}` }) }),
    });
    t.is(res.status, 200);
  }
  const watch = await resolve(registry.container, OPERATIONS.StorageWatch);
  await watch.watch();
  await watch.watch();
  t.regex(await (await fetch(`${registry.url}/metrics`)).text(), /^stored_proofs 3$/m);
  const warnings = lines.filter((l) => l.msg.includes('copy-database'));
  t.is(warnings.length, 1);
  t.is(warnings[0]!.storedProofs, 3);
});
