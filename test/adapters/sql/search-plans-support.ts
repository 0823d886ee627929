import type { Knex } from 'knex';
import { KnexProofStore, type Database } from '../../../src/adapters/sql/index.js';
import type { ProofQuery } from '../../../src/application/ports/proof-store.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../../support/mothers.js';

/**
 * Every filter the API offers, alone and in pairs, in every order, as a page and as a count:
 * no statement the store sends reads a whole table, and a search by topic or text reads the
 * proofs past its first ones through the topic or trigram index, by key, not by walking the
 * wallet. SQLite: EXPLAIN QUERY PLAN. PostgreSQL: EXPLAIN with sequential scans priced out
 * (its planner rightly prefers them on a few rows), so that the plan shows which index serves.
 * The store tests only 2 proofs in list order before it asks the indexes, so that both steps
 * of a text or topic page run here. The search-plans*.test.ts files share this module's seed
 * and its readings of the statements sent and of their plans.
 */
export const filters: Array<Omit<ProofQuery, 'order' | 'limit'>> = [
  {},
  { taskId: 't1' },
  { robotId: 'r1' },
  { runId: 'run-1' },
  { signerPublicKeyB64: 'signer' },
  { createdAfterMs: Date.parse('2026-11-20T00:03:00Z'), createdBeforeMs: Date.parse('2026-11-20T00:09:00Z') },
  { topic: 'a' },
  { text: 'lyon' },
  { taskId: 't1', robotId: 'r1' },
  { robotId: 'r1', createdAfterMs: Date.parse('2026-11-20T00:03:00Z') },
  { taskId: 't1', topic: 'a' },
  { robotId: 'r1', text: 'lyon' },
  { topic: 'a', text: 'lyon' },
  { topic: 'b', createdBeforeMs: Date.parse('2026-11-20T00:09:00Z') },
];
export const sorts = ['created_at', 'task_id', 'robot_id', 'payload_hash'] as const;

export async function seed(db: Database): Promise<KnexProofStore> {
  const store = new KnexProofStore(db, { textProbe: 2, textHitsPerProbe: 4 });
  for (let i = 0; i < 16; i++) {
    const createdAt = new Date(Date.parse('2026-11-20T00:00:00Z') + i * 60_000).toISOString();
    const spec = {
      taskId: `t${i % 3}`,
      robotId: `r${i % 2}`,
      runId: `run-${i % 4}`,
      topics: i % 2 ? ['a'] : ['b'],
      createdAt,
      meta: { site: i % 4 ? 'lyon' : 'paris' },
    };
    // Signed by 8 keys, so that no filter's value holds most of the wallet.
    await store.add(aProofRecord(WALLET_A, { ...spec, seed: i % 8 }));
    await store.add(aProofRecord(WALLET_B, { ...spec, seed: 8 + (i % 8) }));
  }
  await db.knex.raw('analyze');
  return store;
}

/** The statements a call sends to the read connections. */
export async function statements(db: Database, call: () => Promise<unknown>): Promise<Array<{ sql: string; bindings: Knex.RawBinding[] }>> {
  const seen: Array<{ sql: string; bindings: Knex.RawBinding[] }> = [];
  const listen = (d: { sql: string; bindings: Knex.RawBinding[] }) => seen.push(d);
  db.reader.on('query', listen);
  try {
    await call();
  } finally {
    db.reader.off('query', listen);
  }
  return seen.filter((s) => /^select/i.test(s.sql));
}

export async function planOf(db: Database, s: { sql: string; bindings: Knex.RawBinding[] }): Promise<string> {
  if (db.dialect === 'sqlite') {
    return ((await db.reader.raw(`explain query plan ${s.sql}`, s.bindings)) as Array<{ detail: string }>).map((r) => r.detail).join('\n');
  }
  return db.knex.transaction(async (trx) => {
    await trx.raw('set local enable_seqscan = off');
    const result = (await trx.raw(`explain ${s.sql.replace(/\$\d+/g, '?')}`, s.bindings)) as { rows: Array<{ 'QUERY PLAN': string }> };
    return result.rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}
