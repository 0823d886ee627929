import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { anEnvelope, WALLET_A } from '../../support/mothers.js';
import { startTestRegistry } from '../../support/registry.js';
import { authHeaders } from '../../support/test-authenticator.js';
import { Agent, request } from 'node:http';

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
  // One kept-alive connection: a first answer on it shows the server has taken the connection.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());
  const health = await new Promise<number>((resolve, reject) =>
    request(new URL('/health', registry.url), { agent }, (res) => res.resume().on('end', () => resolve(res.statusCode ?? 0)))
      .on('error', reject)
      .end(),
  );
  t.is(health, 200);
  // Then the headers and half the body on it, so the request is in flight when the stop begins.
  let finish!: () => void;
  const reply = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      new URL('/v1/proofs', registry.url),
      { agent, method: 'POST', headers: { ...authHeaders(WALLET_A), 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.write(body.slice(0, 100));
    finish = () => req.end(body.slice(100));
  });
  const closing = registry.close();
  finish();
  const answered = await reply;
  await closing;
  t.is(answered.status, 200, answered.text);
  t.regex(answered.text, /proof_id/);
  await t.throwsAsync(fetch(`${registry.url}/health`));
});

test('a stop under keep-alive load answers every request a client sent; it only refuses new connections', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'registry-stop-load-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // The claim is that the stop waits for every request in flight, so the grace period after
  // which it would cut them is made longer than any wait a busy machine could cause.
  const registry = await startTestRegistry({ env: { DATABASE_URL: `sqlite:${join(dir, 'registry.sqlite')}`, SHUTDOWN_GRACE_MS: '100000' } });
  const url = new URL('/v1/proofs', registry.url);
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  t.teardown(() => agent.destroy());
  const outcomes = { answered: 0, refused: 0, lost: [] as string[] };
  const acked: string[] = [];
  let stopping = false;
  let n = 0;
  const post = (body: string) =>
    new Promise<void>((resolve) => {
      const req = request(
        url,
        { method: 'POST', agent, headers: { ...authHeaders(WALLET_A), 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            if (++outcomes.answered === 64) loaded();
            if (res.statusCode === 200) acked.push((JSON.parse(Buffer.concat(chunks).toString()) as { proof_id: string }).proof_id);
            resolve();
          });
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'ECONNREFUSED') outcomes.refused++;
        else outcomes.lost.push(`${err.code ?? ''} ${err.message}`);
        resolve();
      });
      req.end(body);
    });
  // 32 clients, each sending one request after another on its kept-alive connection.
  const client = async () => {
    while (!stopping || outcomes.refused === 0) {
      await post(JSON.stringify({ envelope: anEnvelope({ taskId: `stop-load-${n++}` }) }));
      if (outcomes.refused > 0) return;
    }
  };
  // The stop comes once 64 answers are in: every client has had one, and the load is on.
  let loaded!: () => void;
  const underLoad = new Promise<void>((resolve) => (loaded = resolve));
  const clients = Array.from({ length: 32 }, client);
  await underLoad;
  stopping = true;
  await registry.close();
  await Promise.all(clients);
  t.deepEqual(outcomes.lost, [], `${outcomes.answered} answered, ${outcomes.refused} refused`);
  t.true(outcomes.answered >= 64);

  // Every acknowledged proof is there after a restart.
  const again = await startTestRegistry({ env: { DATABASE_URL: `sqlite:${join(dir, 'registry.sqlite')}` } });
  t.teardown(() => again.close());
  for (const id of acked) t.is((await again.call(WALLET_A, 'GET', `/v1/proofs/${id}`)).status, 200, id);
});
