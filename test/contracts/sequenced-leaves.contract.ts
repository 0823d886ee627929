import test from 'ava';
import type { SequencedLeaves } from '../../src/application/ports/sequenced-leaves.js';
import { bytesToHex } from '../../src/domain/protocol/encoding.js';
import type { DeclareTest } from '../support/databases.js';
import { leafData } from '../support/log.js';

export interface SequencedLeavesFixture {
  readonly leaves: SequencedLeaves;
  /** Stores these leaves as the write path does (one batch, in order); a known one gets no new index. */
  append(batch: readonly Uint8Array[]): Promise<void>;
}

/** The SequencedLeaves contract; `make` returns an empty log and a way to sequence leaves into it. */
export function sequencedLeavesContract(name: string, make: () => Promise<SequencedLeavesFixture>, testFn: DeclareTest = test): void {
  testFn(`${name}: an empty log has no leaves`, async (t) => {
    const { leaves } = await make();
    t.is(await leaves.count(), 0);
    t.deepEqual(await leaves.read(0, 0), []);
    t.is(await leaves.indexOf(leafData(0)), null);
  });

  testFn(`${name}: leaves get indexes 0, 1, 2, … in the order sequenced, and read back by range`, async (t) => {
    const { leaves, append } = await make();
    await append([leafData(0), leafData(1)]);
    await append([leafData(2)]);
    t.is(await leaves.count(), 3);
    t.deepEqual(await leaves.read(0, 3), [leafData(0), leafData(1), leafData(2)]);
    t.deepEqual(await leaves.read(1, 2), [leafData(1)]);
    t.is(await leaves.indexOf(leafData(2)), 2);
    t.is(await leaves.indexOf(leafData(9)), null);
  });

  testFn(`${name}: a leaf sequenced again keeps its index and adds none`, async (t) => {
    const { leaves, append } = await make();
    await append([leafData(0), leafData(1), leafData(0)]);
    await append([leafData(1), leafData(2)]);
    t.is(await leaves.count(), 3);
    t.is(await leaves.indexOf(leafData(1)), 1);
    t.deepEqual(await leaves.read(0, 3), [leafData(0), leafData(1), leafData(2)]);
  });

  testFn(`${name}: concurrent batches leave no gap and no leaf twice`, async (t) => {
    const { leaves, append } = await make();
    const batches = Array.from({ length: 12 }, (_, b) => Array.from({ length: 8 }, (_, i) => leafData((b * 5 + i) % 40)));
    await Promise.all(batches.map((batch) => append(batch)));
    const count = await leaves.count();
    t.is(count, 40);
    const all = await leaves.read(0, count);
    t.is(new Set(all.map(bytesToHex)).size, 40);
    for (const [i, leaf] of all.entries()) t.is(await leaves.indexOf(leaf), i);
  });
}
