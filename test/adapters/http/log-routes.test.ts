import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOG } from '../../../src/composition/log.tokens.js';
import { resolve } from '../../../src/composition/token.js';
import { decodeEntryBundle } from '../../../src/domain/log/entry-bundles.js';
import { bytesToHex, hexToBytes } from '../../../src/domain/protocol/encoding.js';
import { logLeafHash, openCheckpoint, verifyConsistencyProof, verifyInclusionAnswer } from '../../../src/log-verification.js';
import { anEnvelope, WALLET_A, WALLET_B } from '../../support/mothers.js';
import { startTestRegistry, type TestRegistry } from '../../support/registry.js';

/** A registry whose log advances only when the test says (the timer's interval is an hour). */
async function registry(t: { teardown(fn: () => unknown): void }): Promise<TestRegistry & { advance(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'registry-log-'));
  const r = await startTestRegistry({ env: { DATA_DIR: dir, LOG_CHECKPOINT_INTERVAL_MS: '3600000', PUBLIC_ORIGIN: 'https://registry.example' } });
  t.teardown(async () => {
    await r.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const maintenance = await resolve(r.container, LOG.Maintenance);
  return {
    ...r,
    // The registry's own first tick may still run: an integration it won shows as a race here, and the next one goes on.
    advance: async () => {
      for (let attempt = 0; attempt < 5; attempt++) {
        const outcome = await maintenance.tick();
        const result = outcome._tag === 'Advanced' ? outcome.result : null;
        if (result && E.isRight(result)) return;
        if (!result || result.left._tag !== 'IntegrationRaced') throw new Error(`the log did not advance: ${JSON.stringify(outcome)}`);
      }
      throw new Error('the log kept racing');
    },
  };
}

async function submit(r: TestRegistry, wallet: string, taskId: string): Promise<{ proof_id: string; log_index: number; duplicate: boolean }> {
  const reply = await r.call(wallet, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId }) });
  if (reply.status !== 200) throw new Error(`submit answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return reply.body;
}

test('submit and get answer log_index: one leaf per distinct proof, the same for a duplicate from any wallet', async (t) => {
  const r = await registry(t);
  const a = await submit(r, WALLET_A, 'log-a');
  const b = await submit(r, WALLET_A, 'log-b');
  t.deepEqual([a.log_index, b.log_index], [0, 1]);
  const again = await submit(r, WALLET_A, 'log-a');
  t.true(again.duplicate);
  t.is(again.log_index, 0);
  const otherWallet = await submit(r, WALLET_B, 'log-b');
  t.false(otherWallet.duplicate);
  t.is(otherWallet.log_index, 1);
  t.is((await r.call(WALLET_B, 'GET', `/v1/proofs/${b.proof_id}`)).body.log_index, 1);
  t.is((await submit(r, WALLET_B, 'log-c')).log_index, 2);
});

test('the checkpoint, the key, inclusion and consistency proofs verify with the library, no credential needed', async (t) => {
  const r = await registry(t);
  const key = await r.call(null, 'GET', '/v1/log/key');
  t.is(key.status, 200);
  t.is(key.body.origin, 'registry.example/proof-registry');
  t.is(key.body.key_name, 'registry.example/proof-registry');
  t.regex(key.body.vkey, /^registry\.example\/proof-registry\+[0-9a-f]{8}\+[A-Za-z0-9+/]+=*$/);

  const proofs = [];
  for (let i = 0; i < 5; i++) proofs.push(await submit(r, WALLET_A, `incl-${i}`));
  // Sequenced, but in no checkpoint yet: not in the log.
  const early = await r.call(null, 'GET', `/v1/log/inclusion/${proofs[0]!.proof_id}`);
  t.is(early.status, 404);
  t.is(early.body.code, 'not_in_log');
  await r.advance();

  const note = await r.call(null, 'GET', '/v1/log/checkpoint');
  t.is(note.status, 200);
  t.is(note.headers.get('content-type'), 'text/plain; charset=utf-8');
  const opened = openCheckpoint(note.body, key.body.vkey);
  if (E.isLeft(opened)) return t.fail(JSON.stringify(opened.left));
  t.is(opened.right.size, 5);
  t.is(opened.right.origin, 'registry.example/proof-registry');

  for (const p of proofs) {
    const answer = await r.call(null, 'GET', `/v1/log/inclusion/${p.proof_id}`);
    t.is(answer.status, 200);
    t.is(answer.body.log_index, p.log_index);
    t.is(answer.body.leaf_hash, bytesToHex(logLeafHash(hexToBytes(p.proof_id)!)));
    t.true(E.isRight(verifyInclusionAnswer(answer.body, key.body.vkey, hexToBytes(p.proof_id)!)));
    // Another proof's leaf does not pass for this one.
    t.true(E.isLeft(verifyInclusionAnswer(answer.body, key.body.vkey, hexToBytes(proofs[(p.log_index + 1) % 5]!.proof_id)!)));
  }

  // Against an older size, and sizes out of range.
  for (let i = 0; i < 2; i++) await submit(r, WALLET_A, `later-${i}`);
  await r.advance();
  const at3 = await r.call(null, 'GET', `/v1/log/inclusion/${proofs[2]!.proof_id}?tree_size=3`);
  t.is(at3.status, 200);
  t.is(at3.body.tree_size, 3);
  t.false('checkpoint' in at3.body);
  for (const bad of ['2', '8', '0', 'x', '-1']) {
    const reply = await r.call(null, 'GET', `/v1/log/inclusion/${proofs[2]!.proof_id}?tree_size=${bad}`);
    t.is(reply.status, 422, `tree_size=${bad}`);
  }
  t.is((await r.call(null, 'GET', `/v1/log/inclusion/${'0'.repeat(64)}`)).status, 404);
  t.is((await r.call(null, 'GET', '/v1/log/inclusion/not-hex')).status, 422);

  const latest = openCheckpoint((await r.call(null, 'GET', '/v1/log/checkpoint')).body, key.body.vkey);
  if (E.isLeft(latest)) return t.fail('checkpoint did not open');
  t.is(latest.right.size, 7);
  const consistency = await r.call(null, 'GET', '/v1/log/consistency?first=5&second=7');
  t.is(consistency.status, 200);
  t.deepEqual([consistency.body.first, consistency.body.second], [5, 7]);
  const proof = { first: 5, second: 7, hashes: consistency.body.hashes.map((h: string) => hexToBytes(h)!) };
  t.true(E.isRight(verifyConsistencyProof(proof, opened.right.rootHash, latest.right.rootHash)));
  t.true(E.isLeft(verifyConsistencyProof(proof, latest.right.rootHash, opened.right.rootHash)));
  for (const q of ['first=0&second=3', 'first=4&second=3', 'first=3&second=8', 'first=3', 'first=a&second=3']) {
    t.is((await r.call(null, 'GET', `/v1/log/consistency?${q}`)).status, 422, q);
  }
});

test('tiles and entry bundles follow C2SP tlog-tiles; full ones are immutable, unpublished ones 404', async (t) => {
  const r = await registry(t);
  const ids: string[] = [];
  for (let start = 0; start < 260; start += 20) {
    const batch = await Promise.all(Array.from({ length: 20 }, (_, i) => submit(r, WALLET_A, `tile-${start + i}`)));
    for (const p of batch) ids[p.log_index] = p.proof_id;
  }
  await r.advance();
  const bytes = async (path: string) => {
    const res = await fetch(`${r.url}${path}`);
    return {
      status: res.status,
      cache: res.headers.get('cache-control'),
      type: res.headers.get('content-type'),
      body: new Uint8Array(await res.arrayBuffer()),
    };
  };
  const full = await bytes('/v1/log/tile/0/000');
  t.is(full.status, 200);
  t.is(full.cache, 'public, max-age=31536000, immutable');
  t.is(full.type, 'application/octet-stream');
  t.is(full.body.length, 256 * 32);
  t.deepEqual(full.body.slice(32 * 7, 32 * 8), logLeafHash(hexToBytes(ids[7]!)!));
  const partial = await bytes('/v1/log/tile/0/001.p/4');
  t.is(partial.status, 200);
  t.is(partial.cache, 'no-cache');
  t.deepEqual(partial.body.slice(32 * 3), logLeafHash(hexToBytes(ids[259]!)!));
  t.is((await bytes('/v1/log/tile/1/000.p/1')).body.length, 32);
  const entries = decodeEntryBundle((await bytes('/v1/log/tile/entries/000')).body);
  t.is(entries?.length, 256);
  t.deepEqual(entries?.map(bytesToHex), ids.slice(0, 256));
  t.deepEqual(decodeEntryBundle((await bytes('/v1/log/tile/entries/001.p/4')).body)?.map(bytesToHex), ids.slice(256));
  // Not published (yet), or not a canonical tile path.
  for (const path of [
    '/v1/log/tile/0/001.p/5',
    '/v1/log/tile/0/001',
    '/v1/log/tile/1/000',
    '/v1/log/tile/0/x000/001',
    '/v1/log/tile/0/01',
    '/v1/log/tile/entries/002',
    '/v1/log/tile/0/000.p/256',
  ]) {
    t.is((await bytes(path)).status, 404, path);
  }
  const doc = (await r.call(null, 'GET', '/openapi.json')).body;
  for (const path of ['/v1/log/checkpoint', '/v1/log/key', '/v1/log/inclusion/{proof_id}', '/v1/log/consistency', '/v1/log/tile/{tile_path}'])
    t.truthy(doc.paths[path]?.get, path);
});
