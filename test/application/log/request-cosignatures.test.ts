import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { WitnessService } from '../../../src/adapters/cli/witness-service.js';
import { SeedCheckpointSigner } from '../../../src/adapters/crypto/seed-checkpoint-signer.js';
import { MemoryLogCosignatures } from '../../../src/adapters/memory/memory-log-cosignatures.js';
import { CosignedCheckpoints } from '../../../src/application/log/cosigned-checkpoints.js';
import { ListWitnesses } from '../../../src/application/log/list-witnesses.js';
import { RequestCosignatures } from '../../../src/application/log/request-cosignatures.js';
import type { WitnessClient, WitnessReply } from '../../../src/application/ports/log-cosignatures.js';
import type { WitnessedCheckpoint, WitnessState } from '../../../src/application/ports/witness-state.js';
import { cosignerKeyOf } from '../../../src/domain/log/cosignature.js';
import { cosignedBy, type WitnessPolicy } from '../../../src/domain/log/verify-bundle.js';
import type { VerifierKey } from '../../../src/domain/log/verifier-key.js';
import { aLog, ed } from '../../support/log-app.js';
import { sha } from '../../support/log.js';

class MemoryWitnessState implements WitnessState {
  readonly rows = new Map<string, WitnessedCheckpoint & { note: string }>();
  async latest(origin: string) {
    return this.rows.get(origin) ?? null;
  }
  async latestNote(origin: string) {
    return this.rows.get(origin)?.note ?? null;
  }
  async advance(origin: string, from: WitnessedCheckpoint | null, to: WitnessedCheckpoint & { note: string }) {
    if ((this.rows.get(origin)?.size ?? null) !== (from?.size ?? null)) return false;
    this.rows.set(origin, to);
    return true;
  }
}

/** A witness answering add-checkpoint as `witness serve` does, without HTTP; every body it was sent is kept. */
function aWitness(name: string, seedByte: number, logVkey: VerifierKey) {
  const seed = new Uint8Array(32).fill(seedByte);
  const state = new MemoryWitnessState();
  const service = new WitnessService(sha, ed, new SeedCheckpointSigner(ed, seed, name), state, { nowMs: () => 1_790_000_000_000 }, [logVkey]);
  return { name, state, key: cosignerKeyOf(sha, name, ed.publicKey(seed)), service, bodies: [] as string[] };
}

type FakeWitness = ReturnType<typeof aWitness>;

function clientFor(witnesses: Record<string, FakeWitness | 'down' | { reply: WitnessReply }>): WitnessClient {
  return {
    async addCheckpoint(url, body) {
      const w = witnesses[url]!;
      if (w === 'down') throw new Error('connect ECONNREFUSED');
      if ('reply' in w) return w.reply;
      w.bodies.push(body);
      const out = await w.service.addCheckpoint(body);
      if (E.isRight(out)) return { status: 200, contentType: 'text/plain', body: out.right.lines };
      if (out.left._tag === 'SizeConflict') return { status: 409, contentType: 'text/x.tlog.size', body: `${out.left.size}\n` };
      return { status: 422, contentType: 'text/plain', body: out.left._tag };
    },
  };
}

function setUp(witnesses: Record<string, FakeWitness | 'down' | { reply: WitnessReply }>, policy: WitnessPolicy, refreshMs = 60_000) {
  let now = 1_790_000_000_000;
  const log = aLog({ nowMs: () => now });
  const store = new MemoryLogCosignatures();
  const counts: string[] = [];
  const requests = new RequestCosignatures(
    log.checkpoints,
    log.proveConsistency,
    store,
    clientFor(witnesses),
    ed,
    policy,
    { nowMs: () => now },
    { requested: (w) => counts.push(`requested ${w}`), obtained: (w) => counts.push(`obtained ${w}`), failed: (w) => counts.push(`failed ${w}`) },
    refreshMs,
  );
  const served = new CosignedCheckpoints(log.checkpoints, store);
  return { log, store, requests, served, counts, tick: (ms: number) => (now += ms) };
}

test('two witnesses cosign from 0, then from the size each last cosigned with a consistency proof; the served note carries both', async (t) => {
  const probe = aLog();
  const a = aWitness('w.example/a', 1, probe.vkey);
  const b = aWitness('w.example/b', 2, probe.vkey);
  const policy: WitnessPolicy = { witnesses: [a, b].map((w) => ({ key: w.key, url: `https://${w.name}` })), quorum: 2 };
  const s = setUp({ [`https://${a.name}`]: a, [`https://${b.name}`]: b }, policy);
  s.log.sequence(0, 5);
  await s.log.advance.execute();
  const first = await s.requests.whenDue();
  t.deepEqual(
    first.map((o) => [o.witness, o._tag]),
    [
      [a.name, 'Cosigned'],
      [b.name, 'Cosigned'],
    ],
  );
  t.true(a.bodies[0]!.startsWith('old 0\n\nregistry.example/proof-registry\n5\n'));
  const note = (await s.served.latest())!.note;
  t.deepEqual(cosignedBy(ed, note, policy), [a.name, b.name]);
  t.is((await s.log.checkpoints.latest())!.note.split('\n— ').length, 2, 'the stored note stays the log’s alone');

  // Not grown, not stale: nobody is asked.
  t.deepEqual(await s.requests.whenDue(), []);
  s.log.sequence(5, 12);
  await s.log.advance.execute();
  await s.requests.whenDue();
  const second = a.bodies[1]!.split('\n');
  t.is(second[0], 'old 5');
  t.true(second.slice(1, second.indexOf('')).length > 0, 'a consistency proof from 5 to 12');
  t.deepEqual(cosignedBy(ed, (await s.served.latest())!.note, policy), [a.name, b.name]);
  t.deepEqual(
    (await new ListWitnesses(policy, s.store).execute()).witnesses.map((w) => [w.name, w.lastCosignedSize, w.lastError]),
    [
      [a.name, 12, null],
      [b.name, 12, null],
    ],
  );

  // Stale: after the refresh interval they are asked again for the same size (old 12, no proof).
  s.tick(60_000);
  await s.requests.whenDue();
  t.true(a.bodies[2]!.startsWith('old 12\n\n'));
  t.deepEqual(
    s.counts.filter((c) => c.startsWith('failed')),
    [],
  );
});

test('a witness that lost its state answers 409 with its size; the log asks once more from there', async (t) => {
  const probe = aLog();
  const a = aWitness('w.example/a', 1, probe.vkey);
  const policy: WitnessPolicy = { witnesses: [{ key: a.key, url: 'https://a' }], quorum: 1 };
  const s = setUp({ 'https://a': a }, policy);
  s.log.sequence(0, 4);
  await s.log.advance.execute();
  await s.requests.whenDue();
  a.state.rows.clear();
  s.log.sequence(4, 9);
  await s.log.advance.execute();
  const [outcome] = await s.requests.whenDue();
  t.is(outcome!._tag, 'Cosigned');
  t.deepEqual(
    a.bodies.map((b) => b.split('\n')[0]),
    ['old 0', 'old 4', 'old 0'],
  );
});

test('a witness down, refusing, or answering with another key leaves no cosignature and records why; the others are kept', async (t) => {
  const probe = aLog();
  const good = aWitness('w.example/good', 1, probe.vkey);
  const impostor = aWitness('w.example/impostor', 3, probe.vkey);
  const expected = cosignerKeyOf(sha, impostor.name, ed.publicKey(new Uint8Array(32).fill(4)));
  const policy: WitnessPolicy = {
    witnesses: [
      { key: good.key, url: 'https://good' },
      { key: expected, url: 'https://impostor' },
      { key: cosignerKeyOf(sha, 'w.example/down', ed.publicKey(new Uint8Array(32).fill(5))), url: 'https://down' },
      { key: cosignerKeyOf(sha, 'w.example/refusing', ed.publicKey(new Uint8Array(32).fill(6))), url: 'https://refusing' },
    ],
    quorum: 1,
  };
  const s = setUp(
    {
      'https://good': good,
      'https://impostor': impostor,
      'https://down': 'down',
      'https://refusing': { reply: { status: 403, contentType: 'text/plain', body: 'no\n' } },
    },
    policy,
  );
  s.log.sequence(0, 3);
  await s.log.advance.execute();
  const outcomes = await s.requests.whenDue();
  t.deepEqual(
    outcomes.map((o) => o._tag),
    ['Cosigned', 'Failed', 'Failed', 'Failed'],
  );
  const listed = await new ListWitnesses(policy, s.store).execute();
  t.regex(listed.witnesses[1]!.lastError!, /does not verify with the policy's key/);
  t.regex(listed.witnesses[2]!.lastError!, /ECONNREFUSED/);
  t.regex(listed.witnesses[3]!.lastError!, /^HTTP 403: no$/);
  t.deepEqual(cosignedBy(ed, (await s.served.latest())!.note, policy), [good.name]);
  t.is((await s.store.linesAt(3)).length, 1);
  t.deepEqual(
    s.counts.filter((c) => c.startsWith('obtained')),
    [`obtained ${good.name}`],
  );
  t.is(s.counts.filter((c) => c.startsWith('failed')).length, 3);
});
