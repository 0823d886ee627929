import test, { type ExecutionContext } from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keyFileOf, keyFileText } from '../../../src/adapters/cli/key-file.js';
import { startWitness, type RunningWitness } from '../../../src/adapters/cli/witness.js';
import { NodeEd25519 } from '../../../src/adapters/crypto/node-ed25519.js';
import { openDatabase } from '../../../src/adapters/sql/database.js';
import { KnexWitnessState } from '../../../src/adapters/sql/knex-witness-state.js';
import { LOG } from '../../../src/composition/log.tokens.js';
import { resolve } from '../../../src/composition/token.js';
import { parseCosignerVerifierKey, openCosignedNote } from '../../../src/domain/log/cosignature.js';
import { cosignedBy, parseWitnessPolicy } from '../../../src/domain/log/verify-bundle.js';
import { verifierKeyOf, type VerifierKey } from '../../../src/domain/log/verifier-key.js';
import { verifyBundle } from '../../../src/log-verification.js';
import { cli } from '../cli/harness.js';
import { postgresSchemaUrl } from '../../support/databases.js';
import { sha } from '../../support/log.js';
import { anEnvelope, WALLET_A } from '../../support/mothers.js';
import { protocol } from '../../support/protocol.js';
import { startTestRegistry, type TestRegistry } from '../../support/registry.js';

const ed = new NodeEd25519();
const LOG_SEED = new Uint8Array(32).fill(7);
const ORIGIN = 'registry.example/proof-registry';
const LOG_KEY: VerifierKey = verifierKeyOf(sha, ORIGIN, ed.publicKey(LOG_SEED));

interface Witness {
  readonly name: string;
  running: RunningWitness | null;
  vkey: string;
  port: number;
  start(fresh?: boolean): Promise<void>;
  stop(): Promise<void>;
}

/** A witness (`witness serve`'s code) on an ephemeral port, its state in SQLite; stopped and started again on the same port. */
async function aWitness(t: ExecutionContext, dir: string, name: string, seedByte: number): Promise<Witness> {
  let generation = 0;
  let close: (() => Promise<void>) | null = null;
  const w: Witness = {
    name,
    running: null,
    vkey: '',
    port: 0,
    async start(fresh = false) {
      if (fresh) generation++;
      const db = await openDatabase(`sqlite:${join(dir, `${name.replace(/\W/g, '_')}-${generation}.sqlite`)}`);
      const state = new KnexWitnessState(db);
      await state.prepare();
      const running = await startWitness({ seed: new Uint8Array(32).fill(seedByte), name, logKeys: [LOG_KEY], state, host: '127.0.0.1', port: w.port });
      w.running = running;
      w.vkey = running.vkey;
      w.port = Number(new URL(running.url).port);
      close = async () => {
        await running.close();
        await db.close();
      };
    },
    async stop() {
      await close?.();
      close = null;
      w.running = null;
    },
  };
  await w.start();
  t.teardown(() => w.stop());
  return w;
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

type Registry = TestRegistry & { dir: string; advance(): Promise<void>; cosign(): Promise<void>; policyFile: string };

async function registry(t: ExecutionContext, database: 'sqlite' | 'postgres', dir: string, policy: string): Promise<Registry> {
  const keyFile = join(dir, 'log-key.json');
  writeFileSync(keyFile, keyFileText(keyFileOf(LOG_SEED, ed)), { mode: 0o600 });
  const policyFile = join(dir, 'witnesses.policy');
  writeFileSync(policyFile, policy);
  const url = database === 'postgres' ? (await postgresSchemaUrl(t, 'witnesses')).url : `sqlite:${join(dir, 'registry.sqlite')}`;
  const r = await startTestRegistry({
    env: {
      DATABASE_URL: url,
      DATA_DIR: dir,
      LOG_CHECKPOINT_INTERVAL_MS: '3600000',
      PUBLIC_ORIGIN: 'https://registry.example',
      LOG_SIGNING_KEY_FILE: keyFile,
      LOG_WITNESS_POLICY_FILE: policyFile,
      LOG_WITNESS_INTERVAL_S: '3600',
      LOG_WITNESS_TIMEOUT_MS: '5000',
    },
  });
  t.teardown(() => r.close());
  const maintenance = await resolve(r.container, LOG.Maintenance);
  const requests = await resolve(r.container, LOG.RequestCosignatures);
  const advance = async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const outcome = await maintenance.tick();
      const result = outcome._tag === 'Advanced' ? outcome.result : null;
      if (result && E.isRight(result)) return;
      if (!result || result.left._tag !== 'IntegrationRaced') throw new Error(`the log did not advance: ${JSON.stringify(outcome)}`);
    }
    throw new Error('the log kept racing');
  };
  // The tick asks the witnesses without waiting; this joins that round.
  const cosign = async () => void (await requests.whenDue());
  return { ...r, dir, advance, cosign, policyFile };
}

async function submit(r: TestRegistry, taskId: string): Promise<string> {
  const reply = await r.call(WALLET_A, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId }) });
  if (reply.status !== 200) throw new Error(`submit answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return reply.body.proof_id as string;
}

async function checkpoint(r: TestRegistry): Promise<string> {
  const res = await fetch(`${r.url}/v1/log/checkpoint`);
  return res.text();
}

const policyText = (witnesses: readonly { name: string; vkey: string; url: string }[], quorum: number) =>
  `# test policy\n${witnesses.map((w) => `witness ${w.name} ${w.vkey} ${w.url}`).join('\n')}\nquorum ${quorum}\n`;

for (const database of ['sqlite', 'postgres'] as const) {
  test.serial(`${database}: two witnesses cosign each checkpoint; the checkpoint and the bundle carry both; one down, then back, catches up`, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'registry-witnesses-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const w1 = await aWitness(t, dir, 'witness.example/one', 11);
    const w2 = await aWitness(t, dir, 'witness.example/two', 12);
    const entries = [w1, w2].map((w) => ({ name: w.name, vkey: w.vkey, url: w.running!.url }));
    const r = await registry(t, database, dir, policyText(entries, 2));
    const policy = parseWitnessPolicy(sha, policyText(entries, 2));
    if (E.isLeft(policy)) throw new Error(policy.left);

    const ids = [await submit(r, 'w-0'), await submit(r, 'w-1'), await submit(r, 'w-2')];
    await r.advance();
    await r.cosign();
    const note = await checkpoint(r);
    t.regex(note, /^registry\.example\/proof-registry\n3\n/);
    t.deepEqual(cosignedBy(ed, note, policy.right).sort(), [w1.name, w2.name]);
    for (const w of [w1, w2]) {
      const key = parseCosignerVerifierKey(sha, w.vkey);
      if (E.isLeft(key)) throw new Error('bad vkey');
      t.true(E.isRight(openCosignedNote(ed, note, key.right)), w.name);
    }
    const listed = await r.call(null, 'GET', '/v1/log/witnesses');
    t.is(listed.status, 200);
    t.is(listed.body.quorum, 2);
    t.deepEqual(
      listed.body.witnesses.map((w: Record<string, unknown>) => [w.name, w.url, w.last_cosigned_size, w.last_error]),
      entries.map((e) => [e.name, e.url, 3, null]),
    );
    t.regex(listed.body.witnesses[0].last_cosigned_at, /^\d{4}-\d\d-\d\dT/);

    // The bundle's checkpoint carries the cosignatures: it verifies with the policy, by the library and the CLI.
    const res = await fetch(`${r.url}/v1/proofs/${ids[1]}/bundle`, { headers: { authorization: `Bearer test:${WALLET_A}`, 'x-wallet-address': WALLET_A } });
    const bundleText = await res.text();
    t.is(res.status, 200);
    t.is(JSON.parse(bundleText).checkpoint, note);
    const vkey = (await r.call(null, 'GET', '/v1/log/key')).body.vkey as string;
    const verdict = verifyBundle(bundleText, { logKey: vkey, protocol, witnessPolicy: policy.right });
    t.true(verdict.valid, JSON.stringify(verdict));
    t.is(verdict.checks.find((c) => c.name === 'witnesses')?.status, 'pass');
    const file = join(dir, 'proof.bundle.json');
    writeFileSync(file, bundleText);
    const ok = await cli(['verify', file, '--log-key', vkey, '--witness-policy', r.policyFile], dir);
    t.is(ok.code, 0, ok.stdout + ok.stderr);
    t.regex(ok.stdout, /\n {2}witnesses +pass /);
    // A monitor with the policy sees the quorum.
    const watched = await cli(['log', 'monitor', '--url', r.url, '--state', 'monitor.json', '--once', '--witness-policy', r.policyFile], dir);
    t.is(watched.code, 0, watched.stdout + watched.stderr);
    t.regex(watched.stdout, /cosigned by 2 of 2 witnesses .*; quorum 2/);

    // Witness two goes down: submissions and checkpoints go on; its error is shown.
    await w2.stop();
    await submit(r, 'w-3');
    await r.advance();
    await r.cosign();
    const partial = await checkpoint(r);
    t.regex(partial, /\n4\n/);
    t.deepEqual(cosignedBy(ed, partial, policy.right), [w1.name]);
    // The monitor reports a checkpoint a quorum has not cosigned (exit 1 with --once).
    const short = await cli(['log', 'monitor', '--url', r.url, '--state', 'monitor.json', '--once', '--witness-policy', r.policyFile], dir);
    t.is(short.code, 1, short.stdout + short.stderr);
    t.regex(short.stdout, /checkpoint 4 .*consistent with 3\n {2}cosigned by 1 of 2 witnesses/);
    t.regex(short.stderr, /checkpoint 4 is not cosigned by a quorum of the policy's witnesses \(1 of 2\)/);
    const down = (await r.call(null, 'GET', '/v1/log/witnesses')).body.witnesses as Array<Record<string, unknown>>;
    t.is(down[1]!.last_cosigned_size, 3);
    t.truthy(down[1]!.last_error);
    t.is(down[0]!.last_error, null);
    t.is(down[0]!.last_cosigned_size, 4);

    // Back with its state: the log asks from the size it last cosigned (3), with a consistency proof.
    await w2.start();
    await submit(r, 'w-4');
    await r.advance();
    await r.cosign();
    t.deepEqual(cosignedBy(ed, await checkpoint(r), policy.right).sort(), [w1.name, w2.name]);
    const back = (await r.call(null, 'GET', '/v1/log/witnesses')).body.witnesses as Array<Record<string, unknown>>;
    t.deepEqual(
      back.map((w) => [w.last_cosigned_size, w.last_error]),
      [
        [5, null],
        [5, null],
      ],
    );

    // Back with its state lost: it answers 409 with size 0, and the log asks again from there.
    await w2.stop();
    await w2.start(true);
    await submit(r, 'w-5');
    await r.advance();
    await r.cosign();
    t.deepEqual(cosignedBy(ed, await checkpoint(r), policy.right).sort(), [w1.name, w2.name]);

    const metrics = await (await fetch(`${r.url}/metrics`)).text();
    const count = (name: string, witness: string) => Number(new RegExp(`^${name}\\{witness="${witness}"\\} (\\d+)$`, 'm').exec(metrics)?.[1] ?? 0);
    t.is(count('log_cosignatures_failed_total', w2.name), 1);
    t.is(count('log_cosignatures_failed_total', w1.name), 0);
    t.is(count('log_cosignatures_obtained_total', w2.name), count('log_cosignatures_obtained_total', w1.name) - 1);
    t.is(count('log_cosignatures_requested_total', w2.name), count('log_cosignatures_requested_total', w1.name));
    t.true(count('log_cosignatures_obtained_total', w1.name) >= 4);
  });
}

test.serial('sqlite: an unreachable witness leaves submissions and checkpoints working, and /v1/log/witnesses shows its error', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'registry-witnesses-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const w1 = await aWitness(t, dir, 'witness.example/one', 11);
  const port = await closedPort();
  const nowhere = { name: 'witness.example/nowhere', vkey: (await aWitness(t, dir, 'witness.example/nowhere', 13)).vkey, url: `http://127.0.0.1:${port}` };
  const r = await registry(t, 'sqlite', dir, policyText([{ name: w1.name, vkey: w1.vkey, url: w1.running!.url }, nowhere], 1));
  const id = await submit(r, 'u-0');
  await r.advance();
  await r.cosign();
  const note = await checkpoint(r);
  t.regex(note, /\n1\n/);
  t.is((await r.call(WALLET_A, 'GET', `/v1/log/inclusion/${id}`)).status, 200);
  const listed = (await r.call(null, 'GET', '/v1/log/witnesses')).body;
  t.is(listed.quorum, 1);
  t.is(listed.witnesses[1].name, nowhere.name);
  t.is(listed.witnesses[1].last_cosigned_size, null);
  t.regex(String(listed.witnesses[1].last_error), /fetch failed|ECONNREFUSED/);
  t.is(listed.witnesses[0].last_cosigned_size, 1);
  await submit(r, 'u-1');
  await r.advance();
  t.regex(await checkpoint(r), /\n2\n/);
});

test.serial('sqlite: a log that forks its history after a witness cosigned is refused by that witness and flagged by the monitor', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'registry-witnesses-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const w = await aWitness(t, dir, 'witness.example/one', 21);
  const policy = policyText([{ name: w.name, vkey: w.vkey, url: w.running!.url }], 1);
  // The honest history: the witness cosigns its checkpoint of 3, and a monitor records it.
  mkdirSync(join(dir, 'honest'));
  const honest = await registry(t, 'sqlite', join(dir, 'honest'), policy);
  for (let i = 0; i < 3; i++) await submit(honest, `honest-${i}`);
  await honest.advance();
  await honest.cosign();
  t.regex(await checkpoint(honest), new RegExp(`\n— ${w.name.replace('.', '\\.')} `));
  const seen = await cli(['log', 'monitor', '--url', honest.url, '--state', 'monitor.json', '--once', '--witness-policy', honest.policyFile], dir);
  t.is(seen.code, 0, seen.stdout + seen.stderr);

  // The same log key signs another history: its checkpoint of 5 does not extend the 3 cosigned.
  mkdirSync(join(dir, 'forked'));
  const forked = await registry(t, 'sqlite', join(dir, 'forked'), policy);
  for (let i = 0; i < 5; i++) await submit(forked, `forked-${i}`);
  await forked.advance();
  await forked.cosign();
  const note = await checkpoint(forked);
  t.regex(note, /\n5\n/);
  t.notRegex(note, new RegExp(`\n— ${w.name.replace('.', '\\.')} `), 'the witness did not cosign the fork');
  const state = (await forked.call(null, 'GET', '/v1/log/witnesses')).body.witnesses[0] as Record<string, unknown>;
  t.is(state.last_cosigned_size, null);
  t.truthy(state.last_error, 'the refusal is shown');
  const flagged = await cli(['log', 'monitor', '--url', forked.url, '--state', 'monitor.json', '--once', '--witness-policy', forked.policyFile], dir);
  t.is(flagged.code, 1);
  t.regex(flagged.stderr, /the log is inconsistent: the tree of 5 does not extend the tree of 3 it published/);
});
