import test, { type ExecutionContext } from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { keyFileOf, keyFileText } from '../../../src/adapters/cli/key-file.js';
import { parseListen, parseLogKeys, startWitness, type RunningWitness } from '../../../src/adapters/cli/witness.js';
import { NodeEd25519 } from '../../../src/adapters/crypto/node-ed25519.js';
import { openDatabase } from '../../../src/adapters/sql/database.js';
import { KnexWitnessState } from '../../../src/adapters/sql/knex-witness-state.js';
import type { Clock } from '../../../src/application/ports/clock.js';
import { LOG } from '../../../src/composition/log.tokens.js';
import { resolve } from '../../../src/composition/token.js';
import { formatCheckpoint } from '../../../src/domain/log/checkpoint.js';
import { cosignerKeyOf, openCosignedNote, parseCosignerVerifierKey } from '../../../src/domain/log/cosignature.js';
import { openCheckpoint } from '../../../src/domain/log/open-checkpoint.js';
import { formatSignedNote } from '../../../src/domain/log/signed-note.js';
import { formatVerifierKey, verifierKeyOf, type VerifierKey } from '../../../src/domain/log/verifier-key.js';
import { encodeBase64, hexToBytes, utf8 } from '../../../src/domain/protocol/encoding.js';
import { ReferenceTree, sha } from '../../support/log.js';
import { anEnvelope, WALLET_A } from '../../support/mothers.js';
import { startTestRegistry, type TestRegistry } from '../../support/registry.js';
import { cli, tempDir } from './harness.js';

const ed = new NodeEd25519();
const WITNESS_SEED = new Uint8Array(32).fill(9);
const WITNESS_NAME = 'witness.example/w1';
const WITNESS_KEY = cosignerKeyOf(sha, WITNESS_NAME, ed.publicKey(WITNESS_SEED));
const NOW = Date.parse('2026-12-05T12:00:00Z');
const clock: Clock = { nowMs: () => NOW };

/** A log of our own: its key, and checkpoints of a reference tree it signs (or forges). */
class TestLog {
  readonly key: VerifierKey;
  readonly tree = ReferenceTree.ofSize(40);
  constructor(
    readonly origin: string,
    private readonly seed: Uint8Array,
  ) {
    this.key = verifierKeyOf(sha, origin, ed.publicKey(seed));
  }
  get vkey(): string {
    return formatVerifierKey(this.key);
  }
  text(size: number, root = this.tree.mth(0, size)): string {
    return formatCheckpoint({ origin: this.origin, size, rootHash: root, extensions: [] });
  }
  /** The checkpoint note of `size`, signed with `seed` (the log's own by default) under the log's name and key id. */
  note(size: number, options: { root?: Uint8Array; seed?: Uint8Array; keyId?: string } = {}): string {
    const text = this.text(size, options.root);
    const signature = ed.sign(options.seed ?? this.seed, utf8(text));
    return formatSignedNote({ text, signatures: [{ name: this.origin, keyId: options.keyId ?? this.key.keyId, signature }] });
  }
  body(oldSize: number, size: number, options: { proof?: readonly Uint8Array[]; note?: string } = {}): string {
    const proof = options.proof ?? (oldSize === 0 || oldSize === size ? [] : this.tree.consistency(oldSize, size));
    return `old ${oldSize}\n${proof.map((h) => `${encodeBase64(h)}\n`).join('')}\n${options.note ?? this.note(size)}`;
  }
}

async function witnessFor(t: ExecutionContext, logKeys: readonly VerifierKey[], dbFile = join(tempDir(t), 'witness.sqlite')): Promise<RunningWitness> {
  const db = await openDatabase(`sqlite:${dbFile}`);
  const state = new KnexWitnessState(db);
  await state.prepare();
  const witness = await startWitness({ seed: WITNESS_SEED, name: WITNESS_NAME, logKeys, state, clock, host: '127.0.0.1', port: 0 });
  t.teardown(async () => {
    await witness.close();
    await db.close();
  });
  return witness;
}

interface Answer {
  status: number;
  type: string | null;
  body: string;
}

async function addCheckpoint(witness: RunningWitness, body: string): Promise<Answer> {
  const res = await fetch(`${witness.url}/add-checkpoint`, { method: 'POST', body });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

/** The cosignatures in an answer, verified against the checkpoint text with the witness's key by the domain function. */
function cosignedBy(t: ExecutionContext, answer: Answer, checkpointText: string): number {
  t.is(answer.status, 200, answer.body);
  t.regex(answer.body, /^— witness\.example\/w1 [A-Za-z0-9+/]{102}==\n$/);
  const opened = openCosignedNote(ed, `${checkpointText}\n${answer.body}`, WITNESS_KEY);
  if (E.isLeft(opened)) {
    t.fail(JSON.stringify(opened.left));
    return -1;
  }
  t.is(opened.right[0]!.timestamp, NOW / 1000);
  return opened.right[0]!.timestamp;
}

const LOG_SEED = new Uint8Array(32).fill(5);

test("a witness cosigns the registry's own log: from size 0, then through the registry's consistency proof", async (t) => {
  const dir = tempDir(t);
  const keyFile = join(dir, 'log-key.json');
  writeFileSync(keyFile, keyFileText(keyFileOf(LOG_SEED, ed)), { mode: 0o600 });
  const registry: TestRegistry = await startTestRegistry({
    env: { DATA_DIR: dir, LOG_CHECKPOINT_INTERVAL_MS: '3600000', LOG_SIGNING_KEY_FILE: keyFile, LOG_ORIGIN: 'registry.example/log' },
  });
  t.teardown(() => registry.close());
  const maintenance = await resolve(registry.container, LOG.Maintenance);
  const advance = async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const outcome = await maintenance.tick();
      if (outcome._tag === 'Advanced' && E.isRight(outcome.result)) return;
    }
    throw new Error('the log did not advance');
  };
  const submit = (taskId: string) => registry.call(WALLET_A, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId }) });
  const checkpoint = async () => (await registry.call(null, 'GET', '/v1/log/checkpoint')).body as string;

  const { vkey } = (await registry.call(null, 'GET', '/v1/log/key')).body as { vkey: string };
  const witness = await witnessFor(t, parseLogKeys([vkey]));

  await submit('w-0');
  await submit('w-1');
  await advance();
  const first = await checkpoint();
  t.regex(first, /^registry\.example\/log\n2\n/);
  cosignedBy(t, await addCheckpoint(witness, `old 0\n\n${first}`), first.slice(0, first.indexOf('\n\n') + 1));

  for (const id of ['w-2', 'w-3', 'w-4']) await submit(id);
  await advance();
  const second = await checkpoint();
  t.regex(second, /^registry\.example\/log\n5\n/);
  const { hashes } = (await registry.call(null, 'GET', '/v1/log/consistency?first=2&second=5')).body as { hashes: string[] };
  const proof = hashes.map((h) => `${encodeBase64(hexToBytes(h)!)}\n`).join('');
  cosignedBy(t, await addCheckpoint(witness, `old 2\n${proof}\n${second}`), second.slice(0, second.indexOf('\n\n') + 1));

  // A client still at size 2 learns the witness's size.
  t.deepEqual(await addCheckpoint(witness, `old 2\n${proof}\n${second}`), { status: 409, type: 'text/x.tlog.size', body: '5\n' });
});

test('stale old size → 409 with the size; a fork of the same size signed by the log → 422, never cosigned; the state stays', async (t) => {
  const log = new TestLog('log.example/a', LOG_SEED);
  const witness = await witnessFor(t, [log.key]);
  cosignedBy(t, await addCheckpoint(witness, log.body(0, 8)), log.text(8));
  cosignedBy(t, await addCheckpoint(witness, log.body(8, 13)), log.text(13));

  for (const stale of [0, 8, 12, 14]) {
    t.deepEqual(await addCheckpoint(witness, log.body(stale, 20)), { status: 409, type: 'text/x.tlog.size', body: '13\n' }, `old ${stale}`);
  }
  // The same size with another root, genuinely signed by the log: a fork.
  const forkRoot = ReferenceTree.ofSize(40).mth(1, 14);
  const fork = await addCheckpoint(witness, log.body(13, 13, { note: log.note(13, { root: forkRoot }) }));
  t.is(fork.status, 422, fork.body);
  t.notRegex(fork.body, /—/);
  // A larger tree that does not extend the cosigned one, with the proof of the forged history.
  const other = new ReferenceTree(Array.from({ length: 20 }, (_, i) => utf8(`other ${i}`)));
  const forked = await addCheckpoint(witness, log.body(13, 20, { proof: other.consistency(13, 20), note: log.note(20, { root: other.mth(0, 20) }) }));
  t.is(forked.status, 422, forked.body);
  // A proof that does not lead to the new root, and one of the wrong length.
  t.is((await addCheckpoint(witness, log.body(13, 20, { proof: log.tree.consistency(13, 21) }))).status, 422);
  t.is((await addCheckpoint(witness, log.body(13, 20, { proof: log.tree.consistency(13, 20).slice(1) }))).status, 422);
  // Unchanged: the honest next checkpoint still goes from 13, and re-submitting the same checkpoint is cosigned again.
  cosignedBy(t, await addCheckpoint(witness, log.body(13, 20)), log.text(20));
  cosignedBy(t, await addCheckpoint(witness, log.body(20, 20)), log.text(20));

  // Monitors read the latest cosigned checkpoint by the origin's SHA-256: the log's signature and the witness's cosignature.
  const served = await fetch(`${witness.url}/${createHash('sha256').update(log.origin).digest('hex')}/checkpoint`);
  const note = await served.text();
  t.is(served.status, 200, note);
  t.true(note.startsWith(`${log.text(20)}\n— ${log.origin} `));
  t.deepEqual(openCheckpoint(ed, note, log.key), E.right({ origin: log.origin, size: 20, rootHash: log.tree.mth(0, 20), extensions: [] }));
  t.true(E.isRight(openCosignedNote(ed, note, WITNESS_KEY)));
  t.is((await fetch(`${witness.url}/${'0'.repeat(64)}/checkpoint`)).status, 404);
});

test('bad log signature → 403; unknown origin → 404; old size beyond the checkpoint or malformed → 400; empty-tree rules → 422', async (t) => {
  const log = new TestLog('log.example/a', LOG_SEED);
  const witness = await witnessFor(t, [log.key]);

  // Signed by another key under the log's name and key id: the signature does not verify.
  const forged = await addCheckpoint(witness, log.body(0, 5, { note: log.note(5, { seed: new Uint8Array(32).fill(6) }) }));
  t.is(forged.status, 403, forged.body);
  // Signed by a key this witness does not know for the log (another key id): no trusted signature.
  const unknownKey = await addCheckpoint(witness, log.body(0, 5, { note: log.note(5, { seed: new Uint8Array(32).fill(6), keyId: '01020304' }) }));
  t.is(unknownKey.status, 403, unknownKey.body);
  // A note whose text was changed after signing.
  const changed = await addCheckpoint(witness, log.body(0, 5, { note: log.note(5).replace('\n5\n', '\n6\n') }));
  t.is(changed.status, 403, changed.body);

  // Never cosigned: nothing to serve monitors.
  t.is((await fetch(`${witness.url}/${createHash('sha256').update(log.origin).digest('hex')}/checkpoint`)).status, 404);

  const stranger = new TestLog('log.example/unknown', LOG_SEED);
  const unknown = await addCheckpoint(witness, stranger.body(0, 5));
  t.is(unknown.status, 404, unknown.body);

  t.is((await addCheckpoint(witness, log.body(6, 5, { proof: [] }))).status, 400);
  t.is((await addCheckpoint(witness, 'old 0\n')).status, 400);
  t.is((await addCheckpoint(witness, `old 00\n\n${log.note(5)}`)).status, 400);
  t.is((await addCheckpoint(witness, `old 0\n\nnot a note`)).status, 400);
  t.is((await fetch(`${witness.url}/add-checkpoint`)).status, 405);
  t.is((await fetch(`${witness.url}/other`, { method: 'POST', body: '' })).status, 404);

  // From 0 the proof must be empty; a size-0 checkpoint must have the empty tree's root.
  t.is((await addCheckpoint(witness, log.body(0, 5, { proof: [log.tree.mth(0, 1)] }))).status, 422);
  t.is((await addCheckpoint(witness, log.body(0, 0, { note: log.note(0, { root: log.tree.mth(0, 1) }) }))).status, 422);
  // None of that moved the witness: it is still at 0, and cosigns the empty tree, then from it.
  cosignedBy(t, await addCheckpoint(witness, log.body(0, 0)), log.text(0));
  cosignedBy(t, await addCheckpoint(witness, log.body(0, 5)), log.text(5));
});

test('several logs, and several keys of one log: each is witnessed apart, by any of its keys', async (t) => {
  const a = new TestLog('log.example/a', LOG_SEED);
  const aRotated = new TestLog('log.example/a', new Uint8Array(32).fill(8));
  const b = new TestLog('log.example/b', new Uint8Array(32).fill(4));
  const witness = await witnessFor(t, parseLogKeys([`${a.vkey},${b.vkey}`, aRotated.vkey]));
  cosignedBy(t, await addCheckpoint(witness, a.body(0, 3)), a.text(3));
  cosignedBy(t, await addCheckpoint(witness, aRotated.body(3, 9)), aRotated.text(9));
  cosignedBy(t, await addCheckpoint(witness, b.body(0, 4)), b.text(4));
  t.deepEqual((await addCheckpoint(witness, a.body(3, 10))).body, '9\n');
});

test('concurrent add-checkpoint requests for two different next sizes: exactly one is cosigned, the other gets 409 with its size', async (t) => {
  const log = new TestLog('log.example/a', LOG_SEED);
  const dir = tempDir(t);
  const witness = await witnessFor(t, [log.key], join(dir, 'w.sqlite'));
  let size = 0;
  for (let round = 0; round < 8; round++) {
    const [x, y] = [size + 2, size + 3];
    const answers = await Promise.all([addCheckpoint(witness, log.body(size, x)), addCheckpoint(witness, log.body(size, y))]);
    const ok = answers.filter((a) => a.status === 200);
    t.is(ok.length, 1, JSON.stringify(answers));
    const winner = answers[0]!.status === 200 ? x : y;
    const loser = answers[0]!.status === 200 ? answers[1]! : answers[0]!;
    t.deepEqual(loser, { status: 409, type: 'text/x.tlog.size', body: `${winner}\n` });
    size = winner;
  }
  // A second witness process on the same file sees what the first recorded.
  const again = await witnessFor(t, [log.key], join(dir, 'w.sqlite'));
  t.deepEqual((await addCheckpoint(again, log.body(0, 30))).body, `${size}\n`);
});

test('options: --listen, --log, and the command refuses missing ones', async (t) => {
  t.deepEqual(parseListen('127.0.0.1:7380'), { host: '127.0.0.1', port: 7380 });
  t.deepEqual(parseListen('[::1]:0'), { host: '::1', port: 0 });
  t.throws(() => parseListen('7380'));
  t.throws(() => parseListen('h:70000'));
  t.throws(() => parseLogKeys(['example.com/foo+00000000+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k']), { message: /key id/ });
  const dir = tempDir(t);
  const missing = await cli(['witness', 'serve', '--log', new TestLog('l', LOG_SEED).vkey, '--db', 'w.sqlite', '--listen', '127.0.0.1:0'], dir);
  t.is(missing.code, 2);
  t.regex(missing.stderr, /--key is required/);
  const help = await cli(['witness', '--help'], dir);
  t.is(help.code, 0);
  t.regex(help.stdout, /add-checkpoint/);
});

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'bin', 'proof-registry.js');

test('witness serve (the real executable) prints its key line, serves add-checkpoint, and stops on SIGTERM', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'witness.json'), keyFileText(keyFileOf(WITNESS_SEED, ed)), { mode: 0o600 });
  const log = new TestLog('log.example/a', LOG_SEED);
  const child = spawn(
    process.execPath,
    [BIN, 'witness', 'serve', '--key', 'witness.json', '--log', log.vkey, '--db', 'w.sqlite', '--listen', '127.0.0.1:0', '--name', WITNESS_NAME],
    { cwd: dir, env: { ...process.env, PROOF_REGISTRY_FROM_SOURCE: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  t.teardown(() => void child.kill('SIGKILL'));
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const url = await new Promise<string>((done, fail) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const m = /listening on (http:\/\/\S+)\/add-checkpoint\n/.exec(stdout);
      if (m) done(m[1]!);
    });
    child.on('exit', (code) => fail(new Error(`exited ${code}: ${stderr}`)));
  });
  const [keyLine] = stdout.split('\n');
  const parts = keyLine!.split(' ');
  t.is(parts[0], 'witness');
  t.is(parts[1], WITNESS_NAME);
  t.deepEqual(parseCosignerVerifierKey(sha, parts[2]!), E.right(WITNESS_KEY));
  t.regex(stdout, new RegExp(`\\nlog log\\.example/a\\+${log.key.keyId}\\n`));

  const res = await fetch(`${url}/add-checkpoint`, { method: 'POST', body: log.body(0, 7) });
  const body = await res.text();
  t.is(res.status, 200, body);
  const opened = openCosignedNote(ed, `${log.text(7)}\n${body}`, WITNESS_KEY);
  t.true(E.isRight(opened));
  const code = await new Promise<number | null>((done) => {
    child.once('exit', (c) => done(c));
    child.kill('SIGTERM');
  });
  t.is(code, 0, stderr);
});
