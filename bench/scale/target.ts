import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NodeSha256 } from '../../src/adapters/crypto/node-sha256.js';
import { openDatabase, type Database } from '../../src/adapters/sql/index.js';
import { KnexLogTileStore } from '../../src/adapters/sql/knex-log-tile-store.js';
import { KnexSequencedLeaves } from '../../src/adapters/sql/knex-sequenced-leaves.js';
import { PostgresProofWriter } from '../../src/adapters/sql/postgres-proof-writer.js';
import type { ProofWriter } from '../../src/adapters/sql/proof-writer.js';
import { SqliteProofWriter } from '../../src/adapters/sql/sqlite-proof-writer.js';
import { IntegrateLeaves } from '../../src/application/log/integrate-leaves.js';
import type { ProofRecord } from '../../src/domain/proof/proof-record.js';
import { TEST_POSTGRES_URL, uniqueSchemaName } from '../../test/support/databases.js';
import { BIG } from '../scale-data.js';

// The databases the scale bench loads and measures: made, attached, integrated, vacuumed, sized, sampled.
export interface Target {
  readonly dialect: 'sqlite' | 'postgres';
  readonly url: string;
  readonly db: Database;
  readonly writer: ProofWriter;
  readonly file?: string;
  readonly schema?: string;
  drop(): Promise<void>;
}

export async function prepare(dialect: 'sqlite' | 'postgres', label: string): Promise<Target> {
  if (dialect === 'sqlite') {
    const dir = await mkdtemp(path.join(process.env.SCALE_DIR ?? tmpdir(), `scale-${label}-`));
    const file = path.join(dir, 'registry.sqlite');
    const url = `sqlite:${file}`;
    const db = await openDatabase(url);
    return {
      dialect,
      url,
      db,
      file,
      writer: SqliteProofWriter.onKnex(db.knex),
      drop: async () => (await db.close(), await rm(dir, { recursive: true, force: true })),
    };
  }
  const schema = uniqueSchemaName(`scale_${label}`);
  const db = await openDatabase(TEST_POSTGRES_URL, { schema, poolSize: 4 });
  const url = new URL(TEST_POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    dialect,
    url: url.toString(),
    db,
    schema,
    writer: new PostgresProofWriter(db.knex),
    drop: async () => {
      await db.knex.raw('drop schema if exists ?? cascade', [schema]);
      await db.close();
    },
  };
}

/**
 * PostgreSQL's WAL position and counters (the whole server's) and its checkpoints so far; null
 * on SQLite. `bytes` is the WAL position, exact; records and full-page images come from
 * pg_stat_wal, which a busy backend reports about once a second and an idle one up to 10 s
 * late (PostgreSQL 15), so a short slice's last images may count in the next slice.
 */
export async function walCounters(t: Target): Promise<{ records: number; fpi: number; bytes: number; checkpoints: number; vacuuming: string } | null> {
  if (t.dialect !== 'postgres') return null;
  const { rows } = (await t.db.knex.raw(
    `select w.wal_records as records, w.wal_fpi as fpi, pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0') as bytes, b.checkpoints_timed + b.checkpoints_req as checkpoints,
       (select string_agg(p.relid::regclass::text || ' ' || p.phase, ', ') from pg_stat_progress_vacuum p) as vacuuming
     from pg_stat_wal w, pg_stat_bgwriter b`,
  )) as { rows: Array<Record<'records' | 'fpi' | 'bytes' | 'checkpoints', string | number> & { vacuuming: string | null }> };
  const r = rows[0]!;
  return { records: Number(r.records), fpi: Number(r.fpi), bytes: Number(r.bytes), checkpoints: Number(r.checkpoints), vacuuming: r.vacuuming ?? '' };
}

/**
 * Integrates the leaves the writers sequenced into the log's tiles, through the log's own use
 * case (what the service's upkeep does, 65,536 leaves a step), so that inclusion proofs exist
 * at every size; the service then only signs a checkpoint. Answers the time it took.
 */
export async function integrateLog(t: Target): Promise<{ leaves: number; steps: number; seconds: number }> {
  const integrate = new IntegrateLeaves(new KnexLogTileStore(t.db), new KnexSequencedLeaves(t.db), new NodeSha256());
  const start = performance.now();
  let leaves = 0;
  let steps = 0;
  for (;;) {
    const result = await integrate.execute();
    if (result._tag === 'Left') throw new Error(`the log did not integrate: ${JSON.stringify(result.left)}`);
    const added = result.right.toSize - result.right.fromSize;
    if (added === 0) break;
    leaves += added;
    steps++;
  }
  return { leaves, steps, seconds: Math.round((performance.now() - start) / 100) / 10 };
}

/** The tables a proof write updates in place (counts and figures); proofs and their topics are only inserted. */
export const UPDATED_TABLES = ['wallet_stats', 'wallet_task_counts', 'wallet_robot_counts', 'wallet_activity_daily', 'wallet_proof_hours', 'devices'];

/**
 * On a PostgreSQL server with autovacuum off, a vacuum of the tables the load updates in place,
 * for the loader to run as it goes, as autovacuum would on a server left at its defaults:
 * otherwise every count updated leaves a dead row version and index entry behind, and those
 * tables grow with the proofs instead of with the counts (229 bytes a proof at a million).
 */
export async function vacuumsUpdatedTables(t: Target): Promise<(() => Promise<void>) | undefined> {
  if (t.dialect !== 'postgres') return undefined;
  const { rows } = (await t.db.knex.raw('show autovacuum')) as { rows: Array<{ autovacuum: string }> };
  if (rows[0]?.autovacuum !== 'off') return undefined;
  return async () => {
    await t.db.knex.raw(`vacuum ${UPDATED_TABLES.map(() => '??').join(', ')}`, UPDATED_TABLES);
  };
}

/** VACUUM ANALYZE of the schema's own tables on PostgreSQL (a bare VACUUM would go through every schema of the database); ANALYZE on SQLite. */
export async function analyze(t: Target): Promise<void> {
  if (t.dialect === 'sqlite') {
    await t.db.knex.raw('analyze');
    return;
  }
  const { rows } = (await t.db.knex.raw("select relname from pg_class where relnamespace = ?::regnamespace and relkind = 'r'", [t.schema!])) as {
    rows: Array<{ relname: string }>;
  };
  await t.db.knex.raw(
    `vacuum analyze ${rows.map(() => '??').join(', ')}`,
    rows.map((r) => `${t.schema!}.${r.relname}`),
  );
}

/** Bytes of each table and index, and of the whole database. */
export async function sizes(t: Target): Promise<{ total: number; parts: Array<[string, number]> }> {
  if (t.dialect === 'sqlite') {
    const rows = (await t.db.knex.raw('select name, sum(pgsize) as bytes from dbstat group by name order by 2 desc')) as Array<{ name: string; bytes: number }>;
    const total = statSync(t.file!).size;
    return { total, parts: rows.map((r) => [r.name, Number(r.bytes)]) };
  }
  const result = (await t.db.knex.raw(
    `select c.relname as name, pg_relation_size(c.oid) + coalesce((select pg_total_relation_size(c.reltoastrelid) where c.reltoastrelid <> 0), 0) as bytes
     from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = ? and c.relkind in ('r', 'i') order by 2 desc`,
    [t.schema!],
  )) as { rows: Array<{ name: string; bytes: string }> };
  const parts = result.rows.map((r): [string, number] => [r.name, Number(r.bytes)]);
  return { total: parts.reduce((a, [, b]) => a + b, 0), parts };
}

/** A database an earlier run loaded and kept (SCALE_KEEP=1), with whatever migrations its code applied. */
export async function attach(dialect: 'sqlite' | 'postgres', where: string): Promise<Target> {
  if (dialect === 'sqlite') {
    const url = `sqlite:${where}`;
    const db = await openDatabase(url);
    return { dialect, url, db, file: where, writer: SqliteProofWriter.onKnex(db.knex), drop: () => db.close() };
  }
  const db = await openDatabase(TEST_POSTGRES_URL, { schema: where, poolSize: 4 });
  const url = new URL(TEST_POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${where}`);
  return { dialect, url: url.toString(), db, schema: where, writer: new PostgresProofWriter(db.knex), drop: () => db.close() };
}

export async function proofCount(db: Database): Promise<number> {
  const [{ n }] = (await db.knex('proofs').count({ n: '*' })) as [{ n: number | string }];
  return Number(n);
}

/** The latency routes' sample of a loaded database: proofs of the big wallet, spread over the load. */
export async function sampleOf(db: Database): Promise<ProofRecord[]> {
  const rows = (await db
    .knex('proofs')
    .select('proof_id', 'created_at_ms', 'signer_public_key_b64', 'run_id')
    .where('wallet', BIG)
    .whereRaw('id % 997 = 0')
    .orderBy('created_at_ms')) as Array<{
    proof_id: string;
    created_at_ms: number | string;
    signer_public_key_b64: string;
    run_id: string | null;
  }>;
  return rows.map(
    (r) =>
      ({ proofId: r.proof_id, createdAtMs: Number(r.created_at_ms), signerPublicKeyB64: r.signer_public_key_b64, runId: r.run_id }) as unknown as ProofRecord,
  );
}

/** The names of the migrations a database has applied. */
export async function appliedNames(db: Database): Promise<Set<string>> {
  return new Set(((await db.knex('knex_migrations').select('name')) as Array<{ name: string }>).map((r) => r.name));
}
