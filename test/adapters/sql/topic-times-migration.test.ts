import test, { type ExecutionContext } from 'ava';
import * as topicTimes from '../../../migrations/015_topic_times.js';
import { MemoryProofStore } from '../../../src/adapters/memory/memory-proof-store.js';
import { KnexProofStore, migrateLatest, type Database } from '../../../src/adapters/sql/index.js';
import type { ProofCursor, ProofQuery, ProofStore } from '../../../src/application/ports/proof-store.js';
import type { ProofRecord } from '../../../src/domain/proof/proof-record.js';
import { KnexProofWriter } from '../../support/knex-proof-writer.js';
import { emptyPostgresDatabase, emptySqliteDatabase, migrateTo, migrationsBefore } from '../../support/migrations.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../../support/mothers.js';

/**
 * 015_topic_times over topics stored before it, on both databases: every topic row comes out
 * with its proof's created_at_ms and nothing else changed; every topic page (alone and with
 * other filters, both orders, by cursor) is the in-memory store's; a topic is still refused
 * twice for one proof, and a topic of no proof refused; proofs stored after it are found the
 * same way; its `down` gives back the earlier layout with the same rows.
 */
const open = {
  sqlite: (t: ExecutionContext) => emptySqliteDatabase(t),
  postgres: (t: ExecutionContext) => emptyPostgresDatabase(t, 'topic_times_015'),
};

const base = Date.parse('2026-11-20T00:00:00Z');

function records(from: number, count: number): ProofRecord[] {
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    return aProofRecord(i % 5 === 4 ? WALLET_B : WALLET_A, {
      seed: i,
      taskId: `t${i % 3}`,
      robotId: `r${i % 2}`,
      topics: i % 7 === 0 ? ['rare', 'a'] : i % 2 ? ['a', 'b'] : ['a'],
      // Three proofs a millisecond.
      createdAt: new Date(base + Math.floor(i / 3)).toISOString(),
    });
  });
}

const queries: ReadonlyArray<Omit<ProofQuery, 'limit' | 'order'>> = [
  { topic: 'a' },
  { topic: 'b' },
  { topic: 'rare' },
  { topic: 'a', taskId: 't1' },
  { topic: 'b', robotId: 'r1', createdAfterMs: base + 3 },
  { topic: 'a', createdAfterMs: base + 2, createdBeforeMs: base + 8 },
  { topic: 'a', sort: 'task_id' },
];

/** Every topic page, walked with cursors of 2. */
async function topicPages(store: ProofStore): Promise<string[]> {
  const seen: string[] = [];
  for (const q of queries) {
    for (const order of ['asc', 'desc'] as const) {
      let after: ProofCursor | undefined;
      const ids: string[] = [];
      do {
        const page = await store.search(WALLET_A, { ...q, order, limit: 2, ...(after && { after }) });
        ids.push(...page.items.map((p) => p.proofId));
        after = page.next ?? undefined;
      } while (after);
      seen.push(`${JSON.stringify({ ...q, order })}: ${ids.join(',')}`);
    }
  }
  return seen;
}

async function topicRows(
  db: Database,
): Promise<Array<{ proof_pk: number; wallet_id: number; topic: string; created_at_ms: number | null; proof_created_at_ms: number }>> {
  const rows = (await db
    .knex('proof_topics')
    .join('proofs', 'proofs.id', 'proof_topics.proof_pk')
    .select('proof_topics.*', 'proofs.created_at_ms as proof_created_at_ms')
    .orderBy(['proof_pk', 'topic'])) as Array<Record<string, number | string | null>>;
  return rows.map((r) => ({
    proof_pk: Number(r.proof_pk),
    wallet_id: Number(r.wallet_id),
    topic: String(r.topic),
    created_at_ms: r.created_at_ms === undefined || r.created_at_ms === null ? null : Number(r.created_at_ms),
    proof_created_at_ms: Number(r.proof_created_at_ms),
  }));
}

for (const dialect of ['sqlite', 'postgres'] as const) {
  test.serial(`${dialect}: 015_topic_times gives each topic row its proof's time and keeps every topic page`, async (t) => {
    const db = await open[dialect](t);
    await migrateTo(db, migrationsBefore('015_topic_times'));
    const old = new KnexProofStore(db, { writer: new KnexProofWriter(db.knex, 'before-015') });
    const memory = new MemoryProofStore();
    // Stored newest first, so that ids and times run opposite ways.
    for (const r of records(0, 40).reverse()) {
      await old.add(r);
      await memory.add(r);
    }
    const before = await topicRows(db);
    t.true(before.length > 60);

    t.is((await migrateLatest(db))[0], '015_topic_times');

    const after = await topicRows(db);
    t.deepEqual(
      after.map(({ created_at_ms: _c, ...r }) => r),
      before.map(({ created_at_ms: _c, ...r }) => r),
    );
    t.true(after.every((r) => r.created_at_ms === r.proof_created_at_ms));

    const store = new KnexProofStore(db);
    t.deepEqual(await topicPages(store), await topicPages(memory));
    // Through the slices and the topic index past them, too.
    t.deepEqual(await topicPages(new KnexProofStore(db, { textProbe: 2, textHitsPerProbe: 4 })), await topicPages(memory));

    // A topic twice for one proof, or a topic of no proof, is refused.
    const row = (await db.knex('proof_topics').first()) as Record<string, unknown>;
    await t.throwsAsync(db.knex('proof_topics').insert(row), { message: dialect === 'sqlite' ? /UNIQUE constraint failed/ : /duplicate key/ });
    await t.throwsAsync(db.knex('proof_topics').insert({ ...row, proof_pk: 1_000_000 }), {
      message: dialect === 'sqlite' ? /FOREIGN KEY constraint failed/ : /proof_topics_proof_pk_fkey/,
    });

    // Proofs stored after it, older and newer than those before, take their places in the pages.
    for (const r of records(40, 20)) {
      await store.add(r);
      await memory.add(r);
    }
    for (const r of records(-20, 20)) {
      await store.add(r);
      await memory.add(r);
    }
    t.deepEqual(await topicPages(store), await topicPages(memory));
    t.true((await topicRows(db)).every((r) => r.created_at_ms === r.proof_created_at_ms));

    if (dialect === 'sqlite') {
      // One b-tree: the rows are the key's entries.
      const objects = (await db.knex.raw("select type, name, sql from sqlite_master where tbl_name = 'proof_topics'")) as Array<{
        type: string;
        sql: string | null;
      }>;
      t.deepEqual(
        objects.map((o) => o.type),
        ['table'],
      );
      t.regex(objects[0]!.sql!, /primary key \(wallet_id, topic, created_at_ms, proof_pk\)\s*\) without rowid/i);
    } else {
      const { rows } = (await db.knex.raw("select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename = 'proof_topics'")) as {
        rows: Array<{ indexname: string; indexdef: string }>;
      };
      t.deepEqual(
        rows.map((r) => [r.indexname, r.indexdef.replace(/^.* USING btree /, '')]),
        [['proof_topics_wallet_topic', '(wallet_id, topic, created_at_ms, proof_pk)']],
      );
      const { rows: checked } = (await db.knex.raw(
        "select convalidated from pg_constraint where conname = 'proof_topics_proof_pk_fkey' and connamespace = current_schema()::regnamespace",
      )) as { rows: Array<{ convalidated: boolean }> };
      t.deepEqual(checked, [{ convalidated: true }]);
    }

    // Down gives back the earlier layout with the same rows; up again restores the times.
    const now = await topicRows(db);
    await db.knex.transaction((trx) => topicTimes.down(trx));
    t.deepEqual(
      (await topicRows(db)).map(({ proof_pk, wallet_id, topic }) => ({ proof_pk, wallet_id, topic })),
      now.map(({ proof_pk, wallet_id, topic }) => ({ proof_pk, wallet_id, topic })),
    );
    t.true((await topicRows(db)).every((r) => r.created_at_ms === null));
    await db.knex.transaction((trx) => topicTimes.up(trx));
    t.deepEqual(await topicRows(db), now);
    // The writer's connection goes on writing topics with their times.
    const newer = records(60, 6);
    for (const r of newer) {
      await store.add(r);
      await memory.add(r);
    }
    t.is((await topicRows(db)).length, now.length + newer.reduce((n, r) => n + new Set(r.topics).size, 0));
    t.true((await topicRows(db)).every((r) => r.created_at_ms === r.proof_created_at_ms));
    t.deepEqual(await topicPages(store), await topicPages(memory));
  });
}
