import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { MemoryProofStore } from '../../../src/adapters/memory/memory-proof-store.js';
import { SubmitProof } from '../../../src/application/proofs/submit-proof.js';
import { ManualClock } from '../../support/identity.js';
import { anEnvelope, WALLET_A, WALLET_B } from '../../support/mothers.js';
import { protocol } from '../../support/protocol.js';

// Refused submissions are told to the refusal counter, with the wallet and the time; stored
// proofs and duplicates are not.
function setup() {
  const clock = new ManualClock(Date.parse('2026-11-20T10:30:00Z'));
  const refusals: Array<[string, number]> = [];
  const store = new MemoryProofStore();
  const submit = new SubmitProof(protocol.checker, store, clock, { record: (wallet, atMs) => void refusals.push([wallet, atMs]) });
  return { clock, refusals, store, submit };
}

test('a proof that does not verify is refused, not stored, and counted for its wallet at the time it was refused', async (t) => {
  const { clock, refusals, store, submit } = setup();
  const forged = { ...anEnvelope({ taskId: 'forged' }), signature_b64: 'A'.repeat(88) };
  t.true(E.isLeft(await submit.execute({ wallet: WALLET_A, envelope: forged })));
  clock.advance(60_000);
  t.true(E.isLeft(await submit.execute({ wallet: WALLET_B, envelope: { not: 'an envelope' } })));
  t.deepEqual(refusals, [
    [WALLET_A, Date.parse('2026-11-20T10:30:00Z')],
    [WALLET_B, Date.parse('2026-11-20T10:31:00Z')],
  ]);
  t.is((await store.search(WALLET_A, { order: 'asc', limit: 10 })).items.length, 0);
});

test('a stored proof and its duplicate count no refusal', async (t) => {
  const { refusals, submit } = setup();
  const envelope = anEnvelope({ taskId: 'ok' });
  const first = await submit.execute({ wallet: WALLET_A, envelope });
  const again = await submit.execute({ wallet: WALLET_A, envelope });
  t.like(first, { _tag: 'Right', right: { stored: true } });
  t.like(again, { _tag: 'Right', right: { stored: false } });
  t.deepEqual(refusals, []);
});

test('with or without a refusal counter, a refusal is answered the same', async (t) => {
  const forged = { ...anEnvelope({ taskId: 'forged' }), signature_b64: Buffer.alloc(64, 7).toString('base64') };
  const plain = new SubmitProof(protocol.checker, new MemoryProofStore(), new ManualClock());
  const without = await plain.execute({ wallet: WALLET_A, envelope: forged });
  t.like(without, { _tag: 'Left', left: { _tag: 'SignatureInvalid' } });
  t.deepEqual(await setup().submit.execute({ wallet: WALLET_A, envelope: forged }), without);
});

test('a bound caller submits only for its robots: another robot is refused before verification, and no refusal is counted', async (t) => {
  const { refusals, store, clock } = setup();
  let checks = 0;
  const counting = { check: (envelope: unknown, json?: string) => (checks++, protocol.checker.check(envelope, json)) };
  const submit = new SubmitProof(counting, store, clock, { record: (wallet, atMs) => void refusals.push([wallet, atMs]) });
  const other = await submit.execute({ wallet: WALLET_A, envelope: anEnvelope({ robotId: 'arm-2' }), robotIds: ['arm-1'] });
  t.deepEqual(other, E.left({ _tag: 'RobotNotAllowed', robotId: 'arm-2' }));
  t.is(checks, 0, 'the claim is enough to refuse it');
  const none = await submit.execute({ wallet: WALLET_A, envelope: anEnvelope({ taskId: 'no robot' }), robotIds: ['arm-1'] });
  t.deepEqual(none, E.left({ _tag: 'RobotNotAllowed', robotId: null }));
  const broken = await submit.execute({ wallet: WALLET_A, envelope: { payload: {} }, robotIds: ['arm-1'] });
  t.not(E.isLeft(broken) && broken.left._tag, 'RobotNotAllowed', 'an envelope that names no robot and does not verify is a verification failure');
  t.like(await submit.execute({ wallet: WALLET_A, envelope: anEnvelope({ robotId: 'arm-1' }), robotIds: ['arm-1'] }), {
    _tag: 'Right',
    right: { stored: true },
  });
  t.is((await store.search(WALLET_A, { order: 'asc', limit: 10 })).items.length, 1);
  t.deepEqual(refusals.length, 1, 'only the envelope that did not verify counts as refused');
});
