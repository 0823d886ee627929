import test from 'ava';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import type { ProofPage, ProofQuery, ProofStore } from '../../../src/application/ports/proof-store.js';
import { MAX_OFFSET, SearchProofs, TOTAL_CAP } from '../../../src/application/proofs/search-proofs.js';
import { MemoryProofStore } from '../../../src/adapters/memory/memory-proof-store.js';
import { aProofRecord, WALLET_A } from '../../support/mothers.js';

/** A store with `matches` proofs that match anything: what count is asked for, and what it says. */
function countingStore(matches: number) {
  const asked: Array<{ query: ProofQuery; upTo: number }> = [];
  const store: ProofStore = {
    add: () => Promise.reject(new Error('not used')),
    get: () => Promise.resolve(null),
    search: (): Promise<ProofPage> => Promise.resolve({ items: [], next: null }),
    count: (_wallet, query, upTo) => {
      asked.push({ query, upTo });
      return Promise.resolve(Math.min(matches, upTo));
    },
  };
  return { store, asked };
}

test('an offset search counts up to one past the cap, and says whether its total is exact', async (t) => {
  for (const [matches, count, exact] of [
    [0, 0, true],
    [TOTAL_CAP, TOTAL_CAP, true],
    [TOTAL_CAP + 1, TOTAL_CAP, false],
    [5_000_000, TOTAL_CAP, false],
  ] as const) {
    const { store, asked } = countingStore(matches);
    const result = await new SearchProofs(store).execute({ wallet: WALLET_A, query: { order: 'desc', limit: 10, offset: 0, taskId: 't' } });
    t.true(isRight(result));
    if (isRight(result)) t.deepEqual(result.right.total, { count, exact });
    t.is(asked[0]!.upTo, TOTAL_CAP + 1);
    t.is(asked[0]!.query.taskId, 't');
  }
});

test('a search without offset counts nothing', async (t) => {
  const { store, asked } = countingStore(3);
  const result = await new SearchProofs(store).execute({ wallet: WALLET_A, query: { order: 'desc', limit: 10 } });
  t.true(isRight(result) && result.right.total === undefined);
  t.is(asked.length, 0);
});

test('offset out of range, or with a cursor, is refused before the store is asked', async (t) => {
  const store = new MemoryProofStore();
  await store.add(aProofRecord(WALLET_A, { taskId: 'a' }));
  await store.add(aProofRecord(WALLET_A, { taskId: 'b' }));
  const search = new SearchProofs(store);
  const first = await search.execute({ wallet: WALLET_A, query: { order: 'asc', limit: 1 } });
  const cursor = isRight(first) ? first.right.nextCursor! : '';
  for (const query of [
    { order: 'asc', limit: 1, offset: -1 },
    { order: 'asc', limit: 1, offset: MAX_OFFSET + 1 },
    { order: 'asc', limit: 1, offset: 0.5 },
    { order: 'asc', limit: 1, offset: 1, cursor },
  ] as const) {
    const result = await search.execute({ wallet: WALLET_A, query });
    t.true(isLeft(result) && result.left._tag === 'InvalidRange', JSON.stringify(query));
  }
  const deepest = await search.execute({ wallet: WALLET_A, query: { order: 'asc', limit: 1, offset: MAX_OFFSET } });
  t.true(isRight(deepest) && deepest.right.items.length === 0 && !deepest.right.hasMore);
});
