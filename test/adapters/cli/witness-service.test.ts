import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { WitnessService } from '../../../src/adapters/cli/witness-service.js';
import { NodeEd25519 } from '../../../src/adapters/crypto/node-ed25519.js';
import { SeedCheckpointSigner } from '../../../src/adapters/crypto/seed-checkpoint-signer.js';
import { openDatabase } from '../../../src/adapters/sql/database.js';
import { KnexWitnessState } from '../../../src/adapters/sql/knex-witness-state.js';
import type { WitnessedCheckpoint, WitnessState } from '../../../src/application/ports/witness-state.js';
import { formatCheckpoint } from '../../../src/domain/log/checkpoint.js';
import { formatSignedNote } from '../../../src/domain/log/signed-note.js';
import { verifierKeyOf } from '../../../src/domain/log/verifier-key.js';
import { encodeBase64, utf8 } from '../../../src/domain/protocol/encoding.js';
import { ReferenceTree, sha } from '../../support/log.js';

const ed = new NodeEd25519();
const LOG_SEED = new Uint8Array(32).fill(5);
const ORIGIN = 'log.example/a';
const logKey = verifierKeyOf(sha, ORIGIN, ed.publicKey(LOG_SEED));
const tree = ReferenceTree.ofSize(20);

function body(oldSize: number, size: number): string {
  const text = formatCheckpoint({ origin: ORIGIN, size, rootHash: tree.mth(0, size), extensions: [] });
  const note = formatSignedNote({ text, signatures: [{ name: ORIGIN, keyId: logKey.keyId, signature: ed.sign(LOG_SEED, utf8(text)) }] });
  const proof = oldSize === 0 ? [] : tree.consistency(oldSize, size);
  return `old ${oldSize}\n${proof.map((h) => `${encodeBase64(h)}\n`).join('')}\n${note}`;
}

/** Holds every `latest` read until `readers` requests have read: both requests check against the same size before either records. */
class Barrier implements WitnessState {
  private waiting: (() => void)[] = [];
  constructor(
    private readonly inner: WitnessState,
    private readers: number,
  ) {}
  async latest(origin: string): Promise<WitnessedCheckpoint | null> {
    const value = await this.inner.latest(origin);
    if (this.readers > 0) {
      this.readers--;
      await new Promise<void>((done) => {
        this.waiting.push(done);
        if (this.readers === 0) for (const go of this.waiting.splice(0)) go();
      });
    }
    return value;
  }
  latestNote(origin: string): Promise<string | null> {
    return this.inner.latestNote(origin);
  }
  advance(...args: Parameters<WitnessState['advance']>): Promise<boolean> {
    return this.inner.advance(...args);
  }
}

for (const start of [0, 4]) {
  test(`two requests from old size ${start} that both passed the checks: the compare-and-set lets one record, the other gets 409`, async (t) => {
    const db = await openDatabase('sqlite::memory:');
    t.teardown(() => db.close());
    const stored = new KnexWitnessState(db);
    await stored.prepare();
    const clock = { nowMs: () => 1_800_000_000_000 };
    const signer = new SeedCheckpointSigner(ed, new Uint8Array(32).fill(9), 'witness.example/w1');
    if (start > 0) t.true(E.isRight(await new WitnessService(sha, ed, signer, stored, clock, [logKey]).addCheckpoint(body(0, start))));

    const witness = new WitnessService(sha, ed, signer, new Barrier(stored, 2), clock, [logKey]);
    const [a, b] = await Promise.all([witness.addCheckpoint(body(start, start + 3)), witness.addCheckpoint(body(start, start + 5))]);
    const outcomes = [a, b].map((o) => (E.isRight(o) ? `cosigned ${o.right.size}` : o.left._tag === 'SizeConflict' ? `409 ${o.left.size}` : o.left._tag));
    t.is(outcomes.filter((o) => o.startsWith('cosigned')).length, 1, outcomes.join(', '));
    const winner = Number(outcomes.find((o) => o.startsWith('cosigned'))!.split(' ')[1]);
    t.true(outcomes.includes(`409 ${winner}`), outcomes.join(', '));
    t.is((await stored.latest(ORIGIN))?.size, winner);
  });
}
