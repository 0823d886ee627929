import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { MemoryProofStore } from '../../../src/adapters/memory/memory-proof-store.js';
import { EXPORT_CAP, ExportProofs, type ExportInput, type ProofExport } from '../../../src/application/proofs/export-proofs.js';
import { aProofRecord, WALLET_A } from '../../support/mothers.js';

const at = (hour: number) => `2026-11-19T${String(hour).padStart(2, '0')}:00:00Z`;

async function storeWith(hours: number[]) {
  const store = new MemoryProofStore();
  const ids: string[] = [];
  for (const h of hours) ids.push((await store.add(aProofRecord(WALLET_A, { taskId: `t-${h}`, createdAt: at(h) }))).record.proofId);
  return { store, ids };
}

/** The failure of a refused export. */
async function refusal(use: ExportProofs, query: ExportInput) {
  const result = await use.execute({ wallet: WALLET_A, query });
  return E.isLeft(result) ? result.left : null;
}

async function run(use: ExportProofs, query: ExportInput): Promise<ProofExport> {
  const result = await use.execute({ wallet: WALLET_A, query });
  if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
  return result.right;
}

async function taken(exported: ProofExport, during?: () => Promise<void>): Promise<string[]> {
  const out: string[] = [];
  for await (const page of exported.pages) {
    out.push(...page.map((p) => p.taskId));
    if (during && out.length === 2) await during();
  }
  return out;
}

test('the limit is 1 to the cap; a bad range or cursor is refused before anything is read', async (t) => {
  const use = new ExportProofs((await storeWith([1])).store);
  for (const limit of [0, EXPORT_CAP + 1, 1.5]) t.like(await refusal(use, { order: 'asc', limit }), { _tag: 'InvalidRange' });
  t.like(await refusal(use, { order: 'asc', cursor: 'x' }), { _tag: 'InvalidCursor' });
  t.like(await refusal(use, { order: 'asc', createdAfterMs: 2, createdBeforeMs: 1 }), { _tag: 'InvalidRange' });
});

test('pages of the store make one export up to its limit; the next cursor, known first, continues exactly after it', async (t) => {
  const { store } = await storeWith([1, 2, 3, 4, 5, 6, 7]);
  const use = new ExportProofs(store, 2);
  const first = await run(use, { order: 'asc', limit: 5 });
  t.is(first.planned, 5);
  t.not(first.nextCursor, null);
  t.deepEqual(await taken(first), ['t-1', 't-2', 't-3', 't-4', 't-5']);
  const rest = await run(use, { order: 'asc', limit: 5, cursor: first.nextCursor! });
  t.is(rest.nextCursor, null);
  t.deepEqual(await taken(rest), ['t-6', 't-7']);
  // A limit that ends the list exactly has no next.
  t.is((await run(use, { order: 'asc', limit: 7 })).nextCursor, null);
  t.deepEqual(await taken(await run(use, { order: 'asc', limit: 1, taskId: 't-3' })), ['t-3']);
});

test('a proof stored during an export inside its range comes once, and the continuation does not repeat it', async (t) => {
  const { store } = await storeWith([1, 3, 5, 7, 9]);
  const use = new ExportProofs(store, 2);
  const first = await run(use, { order: 'asc', limit: 3 });
  const got = await taken(first, async () => void (await store.add(aProofRecord(WALLET_A, { taskId: 't-4', createdAt: at(4) }))));
  // Planned as 1, 3, 5: the proof of 04:00, stored after 1 and 3 were read, lies inside the range.
  t.deepEqual(got, ['t-1', 't-3', 't-4', 't-5']);
  t.deepEqual(await taken(await run(use, { order: 'asc', cursor: first.nextCursor! })), ['t-7', 't-9']);
});

test('an empty search exports nothing, with no next', async (t) => {
  const use = new ExportProofs((await storeWith([])).store);
  const none = await run(use, { order: 'desc' });
  t.is(none.nextCursor, null);
  t.deepEqual(await taken(none), []);
});
