import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { openDatabase } from '../../src/adapters/sql/database.js';
import { anEnvelope, WALLET_A } from '../support/mothers.js';
import { fixedClock, startTestRegistry } from '../support/registry.js';

// Refused submissions are counted in memory on the request's path; the proofs slice writes
// them on a timer, and what is still pending when the registry stops.
test('stopping the registry writes the refused submissions still counted in memory', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'proof-registry-refusals-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const url = `sqlite:${path.join(dir, 'registry.sqlite')}`;
  const registry = await startTestRegistry({ env: { DATABASE_URL: url }, clock: fixedClock('2026-11-20T10:30:00Z') });
  const forged = { ...anEnvelope({ taskId: 'forged' }), signature_b64: Buffer.alloc(64, 7).toString('base64') };
  t.is((await registry.call(WALLET_A, 'POST', '/v1/proofs', { envelope: forged })).status, 422);
  t.is((await registry.call(WALLET_A, 'POST', '/v1/proofs', { envelope: forged })).status, 422);
  t.is((await registry.call(WALLET_A, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId: 'fine' }) })).status, 200);
  await registry.close();

  const db = await openDatabase(url);
  t.teardown(() => db.close());
  t.deepEqual(await db.knex('proof_rejections_hourly').select('wallet', 'hour_ms', 'rejected_count'), [
    { wallet: WALLET_A, hour_ms: Date.parse('2026-11-20T10:00:00Z'), rejected_count: 2 },
  ]);
});
