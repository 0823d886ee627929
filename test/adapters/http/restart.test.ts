import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { anEnvelope, WALLET_A } from '../../support/mothers.js';
import { startTestRegistry } from '../../support/registry.js';
import { authHeaders } from '../../support/test-authenticator.js';
import { request } from 'node:http';

test('acknowledged submissions survive a stop and a restart on the same database file', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'registry-restart-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env = { DATABASE_URL: `sqlite:${join(dir, 'registry.sqlite')}` };

  const first = await startTestRegistry({ env });
  const envelopes = Array.from({ length: 40 }, (_, i) => anEnvelope({ taskId: `restart-${i}`, robotId: `r${i % 4}` }));
  const acked = await Promise.all(envelopes.map((envelope) => first.call(WALLET_A, 'POST', '/v1/proofs', { envelope })));
  t.true(acked.every((r) => r.status === 200));
  await first.close();

  const second = await startTestRegistry({ env });
  t.teardown(() => second.close());
  for (const [i, reply] of acked.entries()) {
    const got = await second.call(WALLET_A, 'GET', `/v1/proofs/${reply.body.proof_id}`);
    t.is(got.status, 200);
    t.deepEqual(got.body.envelope, envelopes[i]);
  }
  const listed = await second.call(WALLET_A, 'GET', '/v1/proofs?limit=200');
  t.is(listed.body.items.length, 40);
});

test('a stop lets an in-flight request finish, then refuses new connections', async (t) => {
  const registry = await startTestRegistry();
  const body = JSON.stringify({ envelope: anEnvelope({ taskId: 'in-flight' }) });
  const { hostname, port } = new URL(registry.url);
  // Send the headers and half the body, so the request is in flight when the stop begins.
  const reply = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request({ hostname, port, path: '/v1/proofs', method: 'POST', headers: { ...authHeaders(WALLET_A), 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.write(body.slice(0, 100));
    setTimeout(() => req.end(body.slice(100)), 150);
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  const closing = registry.close();
  const answered = await reply;
  await closing;
  t.is(answered.status, 200, answered.text);
  t.regex(answered.text, /proof_id/);
  await t.throwsAsync(fetch(`${registry.url}/health`));
});
