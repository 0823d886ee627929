import test, { type ExecutionContext } from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeEd25519 } from '../../../src/adapters/crypto/node-ed25519.js';
import { keyFileOf, keyFileText } from '../../../src/adapters/cli/key-file.js';
import { hexToBytes } from '../../../src/domain/protocol/encoding.js';
import { openCheckpoint, verifyConsistencyProof, verifyInclusionAnswer } from '../../../src/log-verification.js';
import { childRegistry as child } from '../../support/child-registry.js';
import { postgresSchemaUrl } from '../../support/databases.js';
import { anEnvelope, WALLET_A, WALLET_B } from '../../support/mothers.js';
import { authHeaders } from '../../support/test-authenticator.js';

async function submit(url: string, wallet: string, taskId: string): Promise<{ proof_id: string; log_index: number } | null> {
  try {
    const res = await fetch(`${url}/v1/proofs`, {
      method: 'POST',
      headers: { ...authHeaders(wallet), 'content-type': 'application/json' },
      body: JSON.stringify({ envelope: anEnvelope({ taskId }) }),
    });
    return res.status === 200 ? ((await res.json()) as { proof_id: string; log_index: number }) : null;
  } catch {
    return null; // the server died under the request: not acknowledged
  }
}

const getJson = async (url: string) => (await fetch(url)).json() as Promise<Record<string, unknown> & { vkey: string }>;
const getText = async (url: string) => (await fetch(url)).text();

/**
 * Submits from `workers` loops until `stop` says so; every acknowledgement is kept. A
 * submission that got no answer (the server was killed under it) may still have been stored,
 * its leaf taken, just before the kill: `resubmitUnanswered` sends each again, as a client
 * does, and the answer (a duplicate's, if it was stored) names its leaf.
 */
function load(urls: () => readonly string[], acked: Map<string, number>, label: string, workers = 4) {
  let running = true;
  let n = 0;
  const unanswered: Array<{ wallet: string; taskId: string }> = [];
  const keep = (reply: { proof_id: string; log_index: number }) => {
    const known = acked.get(reply.proof_id);
    if (known !== undefined && known !== reply.log_index) throw new Error(`proof ${reply.proof_id} answered log_index ${reply.log_index}, then ${known}`);
    acked.set(reply.proof_id, reply.log_index);
  };
  const loops = Array.from({ length: workers }, async (_, w) => {
    while (running) {
      const target = urls()[w % urls().length]!;
      // Every fifth proof is one already submitted, from the other wallet: it must add no leaf.
      const i = n++;
      const attempt = { wallet: w % 2 ? WALLET_A : WALLET_B, taskId: i % 5 === 4 ? `${label}-${i - 4}` : `${label}-${i}` };
      const reply = await submit(target, attempt.wallet, attempt.taskId);
      if (reply) keep(reply);
      else unanswered.push(attempt);
    }
  });
  return {
    stop: async () => ((running = false), await Promise.all(loops)),
    count: () => acked.size,
    resubmitUnanswered: async (url: string) => {
      for (const { wallet, taskId } of unanswered.splice(0)) {
        const reply = await submit(url, wallet, taskId);
        if (!reply) throw new Error(`${taskId} got no answer from a running registry`);
        keep(reply);
      }
    },
  };
}

/** Waits (bounded) until the log's checkpoint covers `size` leaves; the checkpoints it saw on the way, opened. */
async function coveredUpTo(url: string, vkey: string, size: number, seen: Array<{ size: number; rootHash: Uint8Array }>): Promise<void> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const res = await fetch(`${url}/v1/log/checkpoint`);
    const note = await res.text();
    // 503 until the first checkpoint is published.
    if (res.status !== 200) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      continue;
    }
    const opened = openCheckpoint(note, vkey);
    if (E.isLeft(opened)) throw new Error(`a checkpoint did not open: ${JSON.stringify(opened.left)}`);
    seen.push(opened.right);
    if (opened.right.size >= size) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the log never covered ${size} leaves`);
}

/**
 * The log after everything: one leaf per acknowledged proof at the index it was acknowledged
 * with, no gap, every inclusion proof verifying, and every checkpoint seen before consistent
 * with the latest (so no published size shrank and no size's root changed).
 */
async function audit(
  t: ExecutionContext,
  url: string,
  vkey: string,
  acked: ReadonlyMap<string, number>,
  seen: ReadonlyArray<{ size: number; rootHash: Uint8Array }>,
): Promise<void> {
  const latest = openCheckpoint(await getText(`${url}/v1/log/checkpoint`), vkey);
  if (E.isLeft(latest)) return t.fail('the latest checkpoint did not open');
  const indexes = [...acked.values()].sort((a, b) => a - b);
  t.deepEqual(
    indexes,
    indexes.map((_, i) => i),
    'acknowledged proofs hold the leaves 0 … n − 1, once each',
  );
  t.true(latest.right.size >= acked.size);
  for (const [proofId, index] of acked) {
    const answer = await getJson(`${url}/v1/log/inclusion/${proofId}`);
    t.is(answer['log_index'], index);
    t.true(E.isRight(verifyInclusionAnswer(answer as never, vkey, hexToBytes(proofId)!)), proofId);
  }
  let previous = 0;
  for (const cp of seen) {
    if (cp.size === 0) continue;
    const proof = (await getJson(`${url}/v1/log/consistency?first=${cp.size}&second=${latest.right.size}`)) as unknown as { hashes: string[] };
    t.true(
      E.isRight(
        verifyConsistencyProof(
          { first: cp.size, second: latest.right.size, hashes: proof.hashes.map((h) => hexToBytes(h)!) },
          cp.rootHash,
          latest.right.rootHash,
        ),
      ),
      `size ${cp.size}`,
    );
    previous = Math.max(previous, cp.size);
  }
  t.true(latest.right.size >= previous);
}

for (const dialect of ['sqlite', 'postgres'] as const) {
  test.serial(`${dialect}: kill -9 mid-load, then a restart: no acknowledged proof lost, no published size shrunk, no root changed`, async (t) => {
    t.timeout(400_000); // processes start slowly on a loaded machine
    const dir = mkdtempSync(join(tmpdir(), 'registry-log-crash-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const databaseUrl = dialect === 'sqlite' ? `sqlite:${join(dir, 'registry.sqlite')}` : (await postgresSchemaUrl(t, 'log_crash')).url;
    const env = { DATABASE_URL: databaseUrl, DATA_DIR: dir };
    let server = await child(t, env);
    const { vkey } = await getJson(`${server.url}/v1/log/key`);
    const acked = new Map<string, number>();
    const seen: Array<{ size: number; rootHash: Uint8Array }> = [];
    const loader = load(() => [server.url], acked, `crash-${dialect}`);
    while (loader.count() < 20) await coveredUpTo(server.url, vkey, 0, seen);
    await server.kill9(); // mid-load: requests in flight die with it
    await loader.stop();
    server = await child(t, env);
    t.is((await getJson(`${server.url}/v1/log/key`)).vkey, vkey, 'the same key after the restart');
    await loader.resubmitUnanswered(server.url);
    const target = acked.size + 5;
    const more = load(() => [server.url], acked, `after-${dialect}`, 2);
    while (more.count() < target) await new Promise((resolve) => setTimeout(resolve, 10));
    await more.stop();
    await coveredUpTo(server.url, vkey, acked.size, seen);
    await audit(t, server.url, vkey, acked, seen);
    await server.stop();
  });
}

test.serial('postgres: two instances sequence concurrently into one gap-free log, and one killed mid-load changes nothing published', async (t) => {
  t.timeout(400_000);
  const dir = mkdtempSync(join(tmpdir(), 'registry-log-two-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const { url: databaseUrl } = await postgresSchemaUrl(t, 'log_two');
  const keyFile = join(dir, 'log-key.json');
  writeFileSync(keyFile, keyFileText(keyFileOf(new Uint8Array(32).fill(9), new NodeEd25519())), { mode: 0o600 });
  const env = (name: string) => ({ DATABASE_URL: databaseUrl, DATA_DIR: join(dir, name), LOG_SIGNING_KEY_FILE: keyFile });
  const one = await child(t, env('one'));
  let two = await child(t, env('two'));
  const { vkey } = await getJson(`${one.url}/v1/log/key`);
  t.is((await getJson(`${two.url}/v1/log/key`)).vkey, vkey);
  const acked = new Map<string, number>();
  const seen: Array<{ size: number; rootHash: Uint8Array }> = [];
  const loader = load(() => [one.url, two.url], acked, 'two', 6);
  while (loader.count() < 20) await coveredUpTo(two.url, vkey, 0, seen);
  await two.kill9();
  two = await child(t, env('two'));
  while (loader.count() < 40) await coveredUpTo(one.url, vkey, 0, seen);
  await loader.stop();
  await loader.resubmitUnanswered(one.url);
  await coveredUpTo(two.url, vkey, acked.size, seen);
  await audit(t, one.url, vkey, acked, seen);
  t.is(await getText(`${one.url}/v1/log/checkpoint`), await getText(`${two.url}/v1/log/checkpoint`));
  await Promise.all([one.stop(), two.stop()]);
});
