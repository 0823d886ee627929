import test from 'ava';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { anEnvelope, WALLET_A, WALLET_B } from '../../support/mothers.js';
import { startTestRegistry, type TestRegistry } from '../../support/registry.js';
import { cli, tempDir } from './harness.js';
import { Sink, startTail, stub } from './events-support.js';

const as = (registry: { url: string }, wallet = WALLET_A, key = `test:${wallet}`) => ({
  PROOF_REGISTRY_URL: registry.url,
  PROOF_REGISTRY_API_KEY: key,
  PROOF_REGISTRY_WALLET: wallet,
});
const submit = async (registry: TestRegistry, taskId: string) => {
  const reply = await registry.call(WALLET_A, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId, robotId: 'arm-07' }) });
  if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
  return reply.body.proof_id as string;
};
const lines = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { id: string; type: string; data: { proof_id: string } });

test('tail --json --count 3 prints the events after --after as the stream sends them, one per line, and stops', async (t) => {
  const registry = await startTestRegistry({ env: { EVENT_POLL_MS: '10' } });
  t.teardown(() => registry.close());
  await submit(registry, 'before');
  const before = (await registry.call(WALLET_A, 'GET', '/v1/events?types=proof.accepted')).body.items[0].id as string;
  const tail = startTail(['--json', '--count', '3', '--types', 'proof.accepted', '--after', before], as(registry));
  const ids = [await submit(registry, 'cli-1'), await submit(registry, 'cli-2')];
  await registry.call(WALLET_B, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId: 'another wallet' }) });
  ids.push(await submit(registry, 'cli-3'));
  t.is(await tail.done, 0, tail.err.text);
  const printed = lines(tail.out.text);
  t.deepEqual(
    printed.map((e) => e.data.proof_id),
    ids,
  );
  const feed = (await registry.call(WALLET_A, 'GET', `/v1/events?types=proof.accepted&after=${before}`)).body.items as unknown[];
  t.is(tail.out.text, feed.map((e) => `${JSON.stringify(e)}\n`).join(''), 'each event as the service renders it, nothing else');
  t.regex(tail.err.text, new RegExp(`^proof-registry: following the events of ${WALLET_A} at ${registry.url}, after ${before}\n$`));

  const human = startTail(['--from-start', '--count', '1', '--types', 'proof.accepted'], as(registry));
  t.is(await human.done, 0, human.err.text);
  t.regex(human.out.text, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z proof\.accepted [0-9a-f]{4}…[0-9a-f]{5} task=before robot=arm-07 leaf=0\n$/);
});

test('a restart of the registry: tail reconnects with the last id printed, and prints what happened meanwhile once', async (t) => {
  const dir = tempDir(t);
  const env = { DATABASE_URL: `sqlite:${join(dir, 'registry.sqlite')}`, EVENT_POLL_MS: '10' };
  const first = await startTestRegistry({ env });
  const tail = startTail(['--json', '--count', '4', '--types', 'proof.accepted', '--from-start'], as(first), { gated: true });
  const ids = [await submit(first, 'r-1'), await submit(first, 'r-2')];
  await tail.until(tail.out, (text) => text.split('\n').length === 3);
  await first.close();
  await tail.until(tail.err, (text) => text.includes('reconnecting in 3 s'));
  const second = await startTestRegistry({ env: { ...env, PORT: new URL(first.url).port } });
  t.teardown(() => second.close());
  ids.push(await submit(second, 'r-3'), await submit(second, 'r-4'));
  tail.release();
  t.is(await tail.done, 0, tail.err.text);
  const printed = lines(tail.out.text);
  t.deepEqual(
    printed.map((e) => e.data.proof_id),
    ids,
    'every proof once, in order',
  );
  t.deepEqual(tail.waits, [3000], "the wait the service's retry: asks for");
  t.true(tail.err.text.includes(`reconnected, resuming after ${printed[1]!.id}\n`), tail.err.text);
});

test('refusals exit 1 with the detail: a wrong key (401), a key of another wallet (403), a query the service refuses (422), not an event stream', async (t) => {
  const registry = await startTestRegistry();
  t.teardown(() => registry.close());
  const cases: Array<[Record<string, string>, RegExp]> = [
    [as(registry, WALLET_A, 'pr_live_wrong'), /^GET \/v1\/events\/stream: 401 invalid API key$/],
    [as(registry, WALLET_B, `test:${WALLET_A}`), /^GET \/v1\/events\/stream: 403 X-Wallet-Address does not match the wallet of the credential$/],
  ];
  const refusing = await stub(t, [(res) => res.writeHead(422, { 'content-type': 'application/json' }).end('{"detail":"after: too old"}')]);
  const notAStream = await stub(t, [(res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>')]);
  cases.push([{ ...as(refusing), PROOF_REGISTRY_API_KEY: 'k' }, /^GET \/v1\/events\/stream: 422 after: too old$/]);
  cases.push([
    { ...as(notAStream), PROOF_REGISTRY_API_KEY: 'k' },
    /^GET \/v1\/events\/stream answered text\/html, not an event stream: is http:\/\/127\.0\.0\.1:\d+ a Proof Registry\?$/,
  ]);
  for (const [env, message] of cases) {
    const tail = startTail([], env);
    t.is(await tail.done, 1);
    t.regex(tail.err.text, message);
    t.is(tail.out.text, '');
  }
});

test('usage errors exit 2 before anything is sent: an unknown type (with the list), a bad id or count, no credential, no service', async (t) => {
  const dir = tempDir(t);
  const closed = createServer().listen(0, '127.0.0.1');
  await once(closed, 'listening');
  const nobody = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise((resolve) => closed.close(resolve));
  const given = ['--key', 'k', '--wallet', WALLET_A, '--url', nobody];
  const cases: Array<[string[], RegExp]> = [
    [
      ['tail', '--types', 'proof.accepted,proof.acepted', ...given],
      /unknown event type "proof\.acepted"; the types are proof\.accepted, proof\.rejected, proof\.logged, device\.status_changed, key\.created, key\.updated, key\.deleted\n$/,
    ],
    [['tail', '--after', 'evt_12x', ...given], /--after must be an event id/],
    [['tail', '--after', 'evt_0000000000000001', '--from-start', ...given], /give one/],
    [['tail', '--count', '0', ...given], /--count must be a whole number/],
    [['follow', ...given], /unknown events command "follow": tail/],
    [['tail', '--session', join(dir, 'none.json'), '--url', nobody], /not signed in .*or give an API key \(--key or PROOF_REGISTRY_API_KEY\)/],
    [['tail', ...given], new RegExp(`^proof-registry: cannot reach the service at ${nobody} \\(ECONNREFUSED\\); is it running\\?`)],
  ];
  for (const [args, message] of cases) {
    const r = await cli(['events', ...args], dir);
    t.is(r.code, 2, r.stderr);
    t.regex(r.stderr, message);
  }
});

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'bin', 'proof-registry.js');

test('the bin, on the session login saved, exits 0 on SIGINT and SIGTERM with what it printed flushed', async (t) => {
  const registry = await startTestRegistry({ env: { EVENT_POLL_MS: '10' } });
  t.teardown(() => registry.close());
  const dir = tempDir(t);
  writeFileSync(
    join(dir, 'session.json'),
    JSON.stringify({ url: registry.url, wallet: WALLET_A, access_token: `test:${WALLET_A}`, expires_at: '2999-01-01T00:00:00Z' }),
  );
  await submit(registry, 'signal');
  await Promise.all(
    (['SIGINT', 'SIGTERM'] as const).map(async (signal) => {
      const child = spawn(process.execPath, [BIN, 'events', 'tail', '--from-start', '--types', 'proof.accepted'], {
        cwd: dir,
        env: {
          ...process.env,
          PROOF_REGISTRY_FROM_SOURCE: '1',
          PROOF_REGISTRY_SESSION: join(dir, 'session.json'),
          PROOF_REGISTRY_API_KEY: '',
          PROOF_REGISTRY_URL: '',
        },
      });
      const [out, err] = [new Sink(), new Sink()];
      child.stdout.setEncoding('utf8').on('data', out.write);
      child.stderr.setEncoding('utf8').on('data', err.write);
      const exited = once(child, 'close') as Promise<[number | null, string | null]>;
      await Promise.race([out.until((text) => text.includes('task=signal')), exited]);
      child.kill(signal);
      t.deepEqual(await exited, [0, null], `${signal}: ${err.text}`);
      t.regex(out.text, /^\S+ proof\.accepted \S+ task=signal robot=arm-07 leaf=0\n$/);
    }),
  );
});
