import test, { type ExecutionContext } from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOG } from '../../../src/composition/log.tokens.js';
import type { RunningRegistry } from '../../../src/composition/root.js';
import { resolve } from '../../../src/composition/token.js';
import { verifyBundle } from '../../../src/log-verification.js';
import { cli } from '../cli/harness.js';
import { startDashboardRegistry } from '../../support/dashboard-registry.js';
import { postgresSchemaUrl } from '../../support/databases.js';
import { aWallet } from '../../support/identity.js';
import { anEnvelope, WALLET_A, WALLET_B } from '../../support/mothers.js';
import { actoEnvelopeText } from '../../support/acto.js';
import { protocol } from '../../support/protocol.js';
import { startTestRegistry, type TestRegistry } from '../../support/registry.js';

type Registry = TestRegistry & { advance(): Promise<void>; dir: string };

/** A registry whose log advances only when the test says, on SQLite or on a PostgreSQL schema of its own. */
async function registry(t: ExecutionContext, database: 'sqlite' | 'postgres'): Promise<Registry> {
  const dir = mkdtempSync(join(tmpdir(), 'registry-bundle-'));
  const url = database === 'postgres' ? (await postgresSchemaUrl(t, 'bundle')).url : 'sqlite::memory:';
  const r = await startTestRegistry({
    env: { DATABASE_URL: url, DATA_DIR: dir, LOG_CHECKPOINT_INTERVAL_MS: '3600000', PUBLIC_ORIGIN: 'https://registry.example' },
  });
  t.teardown(async () => {
    await r.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { ...r, dir, advance: await advancer(r) };
}

/** Advances the registry's log now (its own timer's interval is an hour); a race with its first tick is retried. */
async function advancer(r: RunningRegistry): Promise<() => Promise<void>> {
  const maintenance = await resolve(r.container, LOG.Maintenance);
  return async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const outcome = await maintenance.tick();
      const result = outcome._tag === 'Advanced' ? outcome.result : null;
      if (result && E.isRight(result)) return;
      if (!result || result.left._tag !== 'IntegrationRaced') throw new Error(`the log did not advance: ${JSON.stringify(outcome)}`);
    }
    throw new Error('the log kept racing');
  };
}

async function submit(r: TestRegistry, wallet: string, taskId: string): Promise<string> {
  const reply = await r.call(wallet, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId }) });
  if (reply.status !== 200) throw new Error(`submit answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return reply.body.proof_id as string;
}

/** The bundle's bytes as served. */
async function fetchBundle(r: TestRegistry, wallet: string, proofId: string): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(`${r.url}/v1/proofs/${proofId}/bundle`, { headers: { authorization: `Bearer test:${wallet}`, 'x-wallet-address': wallet } });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const MEMBERS = ['format', 'proof_id', 'envelope', 'envelope_text', 'log_index', 'tree_size', 'leaf_hash', 'hashes', 'checkpoint', 'tlog_proof'];

for (const database of ['sqlite', 'postgres'] as const) {
  test.serial(`${database}: a proof's bundle verifies offline, with the library and the CLI; others' and unlogged proofs are 404`, async (t) => {
    const r = await registry(t, database);
    const vkey = (await r.call(null, 'GET', '/v1/log/key')).body.vkey as string;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await submit(r, WALLET_A, `bundle-${i}`));

    const early = await r.call(WALLET_A, 'GET', `/v1/proofs/${ids[0]}/bundle`);
    t.is(early.status, 404);
    t.is(early.body.code, 'not_in_log');
    t.regex(early.body.detail, /not yet in a checkpoint.*retry shortly/);

    await r.advance();
    const late = await submit(r, WALLET_A, 'bundle-late');
    t.is((await r.call(WALLET_A, 'GET', `/v1/proofs/${late}/bundle`)).body.code, 'not_in_log');

    const served = await fetchBundle(r, WALLET_A, ids[1]!);
    t.is(served.status, 200);
    t.regex(served.headers.get('content-type') ?? '', /^application\/json/);
    t.is(served.headers.get('content-disposition'), `attachment; filename="${ids[1]}.bundle.json"`);
    const bundle = JSON.parse(served.text);
    t.deepEqual(Object.keys(bundle), MEMBERS);
    t.is(bundle.format, 'proof-registry/bundle@v1');
    t.is(bundle.proof_id, ids[1]);
    t.is(bundle.envelope.payload.payload_hash, ids[1]);
    t.is(bundle.log_index, 1);
    t.is(bundle.tree_size, 3);
    t.is(served.text, `${JSON.stringify(bundle, null, 2)}\n`);
    t.true((bundle.tlog_proof as string).startsWith('c2sp.org/tlog-proof@v1\nindex 1\n'));
    t.true((bundle.tlog_proof as string).endsWith(`\n\n${bundle.checkpoint}`));
    // The same proof as GET /v1/log/inclusion answers.
    const inclusion = await r.call(null, 'GET', `/v1/log/inclusion/${ids[1]}`);
    t.deepEqual(
      { log_index: bundle.log_index, tree_size: bundle.tree_size, leaf_hash: bundle.leaf_hash, hashes: bundle.hashes, checkpoint: bundle.checkpoint },
      inclusion.body,
    );

    const result = verifyBundle(served.text, { logKey: vkey, protocol });
    t.true(result.valid, JSON.stringify(result));
    t.is(result.proofId, ids[1]!);
    t.deepEqual(
      result.checks.map((c) => [c.name, c.status]),
      [...['canonical', 'format', 'envelope', 'proof_id', 'leaf_hash', 'checkpoint', 'inclusion', 'tlog_proof'].map((n) => [n, 'pass']), ['witnesses', 'skip']],
    );

    const file = join(r.dir, 'proof.bundle.json');
    writeFileSync(file, served.text);
    const ok = await cli(['verify', file, '--log-key', vkey], r.dir);
    t.is(ok.code, 0, ok.stdout + ok.stderr);
    t.regex(ok.stdout, new RegExp(`^valid bundle  proof_id ${ids[1]}\n`));
    t.regex(ok.stdout, /\n {2}inclusion +pass /);
    // Another log's key: the checkpoint is not its.
    const otherKey = vkey.replace(/\+[0-9a-f]{8}\+/, '+00000000+');
    t.is((await cli(['verify', file, '--log-key', otherKey], r.dir)).code, 1);
    // A bundle without --log-key is a usage error, not an envelope.
    t.is((await cli(['verify', file], r.dir)).code, 2);

    const other = await r.call(WALLET_B, 'GET', `/v1/proofs/${ids[1]}/bundle`);
    t.is(other.status, 404);
    t.is(other.body.code, 'not_found');
    t.is((await r.call(WALLET_A, 'GET', `/v1/proofs/${'ab'.repeat(32)}/bundle`)).status, 404);
    t.is((await r.call(null, 'GET', `/v1/proofs/${ids[1]}/bundle`)).status, 401);
  });
}

test.serial('any changed byte of a bundle fails: every byte with the library, a sample with the CLI (exit 1)', async (t) => {
  const r = await registry(t, 'sqlite');
  const vkey = (await r.call(null, 'GET', '/v1/log/key')).body.vkey as string;
  const id = await submit(r, WALLET_A, 'flip-0');
  await submit(r, WALLET_A, 'flip-1');
  await r.advance();
  const served = await fetchBundle(r, WALLET_A, id);
  t.is(served.status, 200);
  t.true(verifyBundle(served.text, { logKey: vkey, protocol }).valid);
  const bytes = Buffer.from(served.text, 'utf8');
  const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const passed: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    for (const mask of [0x01, 0x20]) {
      const changed = Buffer.from(bytes);
      changed[i] = changed[i]! ^ mask;
      let text: string;
      try {
        text = strict.decode(changed);
      } catch {
        continue; // not UTF-8: the CLI's reading refuses it (below)
      }
      if (verifyBundle(text, { logKey: vkey, protocol }).valid) passed.push(i);
    }
  }
  t.deepEqual(passed, [], `bytes whose change still verified: ${passed.map((i) => JSON.stringify(served.text[i])).join(' ')}`);

  const file = join(r.dir, 'flipped.bundle.json');
  const step = Math.max(1, Math.floor(bytes.length / 40));
  for (let i = 0; i < bytes.length; i += step) {
    const changed = Buffer.from(bytes);
    changed[i] = changed[i]! ^ 0x01;
    writeFileSync(file, changed);
    const run = await cli(['verify', file, '--log-key', vkey], r.dir);
    t.is(run.code, 1, `byte ${i}: ${run.stdout}${run.stderr}`);
  }
  // Not UTF-8, a byte added or removed.
  for (const changed of [
    Buffer.concat([bytes.subarray(0, 10), Buffer.from([0xff]), bytes.subarray(11)]),
    Buffer.concat([bytes, Buffer.from('\n')]),
    bytes.subarray(0, -1),
  ]) {
    writeFileSync(file, changed);
    t.is((await cli(['verify', file, '--log-key', vkey], r.dir)).code, 1);
  }
});

test.serial('an API key needs proofs:read (403 insufficient_scope without it); the dashboard JWT reads the bundle too', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'registry-bundle-keys-'));
  const r = await startDashboardRegistry({ env: { DATA_DIR: dir, LOG_CHECKPOINT_INTERVAL_MS: '3600000', JWT_TTL_S: '86400' } });
  t.teardown(async () => {
    await r.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const owner = aWallet(41);
  await r.fund(owner.address, '50000');
  const token = await r.signIn(owner);
  const as = (credential: string) => ({ credential, wallet: owner.address });
  const key = async (scopes: string[]) => {
    const made = await r.call('POST', '/v1/keys', { ...as(token), body: { name: scopes.join(' '), scopes } });
    if (made.status !== 201) throw new Error(`POST /v1/keys ${made.status} ${JSON.stringify(made.body)}`);
    return made.body.key as string;
  };
  const writer = await key(['proofs:write']);
  const reader = await key(['proofs:read']);
  const submitted = await r.call('POST', '/v1/proofs', { ...as(writer), body: { envelope: anEnvelope({ taskId: 'bundle-scope' }) } });
  t.is(submitted.status, 200);
  await (
    await advancer(r)
  )();
  const path = `/v1/proofs/${submitted.body.proof_id}/bundle`;

  const refused = await r.call('GET', path, as(writer));
  t.is(refused.status, 403);
  t.is(refused.body.code, 'insufficient_scope');
  t.is(refused.headers.get('www-authenticate'), 'Bearer error="insufficient_scope", scope="proofs:read"');
  const read = await r.call('GET', path, as(reader));
  t.is(read.status, 200);
  t.is(read.body.proof_id, submitted.body.proof_id);
  const viaJwt = await r.call('GET', path, as(token));
  t.is(viaJwt.status, 200);
  t.deepEqual(viaJwt.body, read.body);
});

test.serial('the bundle of an envelope the ACTO SDK made verifies: its text, numbers as written, is what is checked', async (t) => {
  const r = await registry(t, 'sqlite');
  const vkey = (await r.call(null, 'GET', '/v1/log/key')).body.vkey as string;
  // Hashed over `56.0` and `1.50` as written: parsed and written again they would read 56 and 1.5.
  const text = actoEnvelopeText({ data: '{"temp": 56.0, "ratio": 1.50}', seed: 11 });
  const reply = await r.call(WALLET_A, 'POST', '/v1/proofs', `{"envelope": ${text}}`);
  t.is(reply.status, 200, JSON.stringify(reply.body));
  await r.advance();
  const served = await fetchBundle(r, WALLET_A, reply.body.proof_id as string);
  const bundle = JSON.parse(served.text) as { envelope_text: string };
  t.is(bundle.envelope_text, text);
  t.true(JSON.stringify(JSON.parse(text)) !== text, 'the text is not what JSON.stringify would write');
  const result = verifyBundle(served.text, { logKey: vkey, protocol });
  t.true(result.valid, JSON.stringify(result.checks));
  // The readable copy must agree with the text: an edited `envelope` fails, canonical or not.
  const edited = JSON.parse(served.text) as { envelope: { anchor_ref: unknown } };
  edited.envelope.anchor_ref = 'elsewhere';
  const rewritten = `${JSON.stringify(edited, null, 2)}\n`;
  t.false(verifyBundle(rewritten, { logKey: vkey, protocol }).valid);
});
