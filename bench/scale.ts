import type { Knex } from 'knex';
import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { NodeSha256 } from '../src/adapters/crypto/node-sha256.js';
import { openDatabase, type Database } from '../src/adapters/sql/index.js';
import { KnexLogTileStore } from '../src/adapters/sql/knex-log-tile-store.js';
import { KnexSequencedLeaves } from '../src/adapters/sql/knex-sequenced-leaves.js';
import { PostgresProofWriter } from '../src/adapters/sql/postgres-proof-writer.js';
import type { ProofWriter } from '../src/adapters/sql/proof-writer.js';
import { SqliteProofWriter } from '../src/adapters/sql/sqlite-proof-writer.js';
import { encodeCursor } from '../src/application/proofs/proof-cursor.js';
import { IntegrateLeaves } from '../src/application/log/integrate-leaves.js';
import type { ProofRecord } from '../src/domain/proof/proof-record.js';
import { migrations } from '../migrations/index.js';
import { TEST_POSTGRES_URL, uniqueSchemaName } from '../test/support/databases.js';
import { authHeaders } from '../test/support/test-authenticator.js';
import { machineTimes, startChildServer, type ChildServer } from './child-server.js';
import { fleetProof } from './fleet-proofs.js';
import { load } from './http-load.js';
import { BIG, DAY, END_MS, scaleRecord } from './scale-data.js';
import { toRow } from '../src/adapters/sql/proof-rows.js';
import { ScaleLoader } from './scale-load.js';

/**
 * `npm run bench:scale`: what the registry costs as its data grows. Not run in CI.
 *
 * For each database (SCALE_DATABASES, default sqlite,postgres), one at a time and dropped once
 * measured, it loads proofs through the store's own batch writer (not HTTP; the proofs made
 * on worker threads, scale-load.ts) up to each size of SCALE_SIZES (default 1,000,000 and
 * 10,000,000), and at each size measures, with the same code in one run:
 * - the HTTP submission rate against an empty database of the same kind, in turns;
 * - p50/p99 of sequential requests: get by id, list and search with each filter and order,
 *   text and topic of several frequencies, sorts, offsets, a deep cursor page, the fleet
 *   overview, wallet statistics and the series;
 * - bytes on disk per proof and per table or index; start-up time; migration 010's time
 *   over the rows already there (the first size only: it runs once).
 *
 * The data (scale-data.ts): 50 wallets, one holding 60% of the proofs; 500 robots each signing
 * with its own key (2% of proofs without a robot id); 2,000 tasks; 30 topics of very different
 * frequencies; one event per topic for 95% of proofs and 5–16 events for the rest (envelopes
 * of about 0.8 KB on average); meta with a site among 40, a shift and an operator, and one proof
 * in 100,000 with a rare word; created_at over 90 days, arriving in order. Deterministic: the
 * same sizes give the same proofs.
 *
 * SCALE_EXISTING=1 measures databases an interrupted run left instead of loading new ones:
 * SCALE_SQLITE_BIG / SCALE_SQLITE_EMPTY (files), SCALE_PG_BIG / SCALE_PG_EMPTY (schemas).
 *
 * SCALE_KEEP=1 only loads: it keeps the databases, measures nothing and prints the line that
 * measures them later with SCALE_EXISTING=1 (load on a busy machine, measure on a quiet one).
 *
 * SCALE_DIR: where SQLite files go (default the temp directory). SCALE_WORKERS: threads making
 * proofs (default one per core). SCALE_REQUESTS: requests per
 * route (default 100, after 10 warm-up ones). SCALE_RATE_S: seconds per submission slice;
 * SCALE_RATE_CONNECTIONS: the connection counts of the submission rates (default 16; the
 * sustained runs take the first).
 * SCALE_ROUTES: a regular expression; only the routes whose label it finds are measured, and
 * the submission rates are not (to compare a few routes before and after a change).
 * SCALE_DEFER, SCALE_REMIGRATE: which migrations are timed over the loaded rows (see beforeLoad).
 * SCALE_GAP=N: after the routes, N proofs for the big wallet, newer than all and holding none
 * of the data's words or topics (a fleet's proofs after a site went quiet), are written
 * through the batch writer, and the text and topic searches are measured again: a
 * newest-first search walks past them before its first match.
 * SCALE_RATES_ONLY=1 measures the submission rates and not the routes; SCALE_RATE_ROUNDS sets
 * their rounds (default 3). SCALE_SUSTAINED_S=N measures them instead with each server alone
 * for N seconds from a checkpoint (sustainedRates).
 */
const SIZES = (process.env.SCALE_SIZES ?? '1000000,10000000').split(',').map(Number);
const DIALECTS = (process.env.SCALE_DATABASES ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;
const REQUESTS = Number(process.env.SCALE_REQUESTS ?? 100);
const WARMUP = 10;
const RATE_SLICE_S = Number(process.env.SCALE_RATE_S ?? 5);
const KEEP = process.env.SCALE_KEEP === '1';
const RATE_ROUNDS = Number(process.env.SCALE_RATE_ROUNDS ?? 3);
const RATES_ONLY = process.env.SCALE_RATES_ONLY === '1';
const ROUTES = process.env.SCALE_ROUTES === undefined ? undefined : new RegExp(process.env.SCALE_ROUTES);
/**
 * Connection counts the submission rates are measured at (SCALE_RATE_CONNECTIONS, default 16;
 * e.g. `16,64`). With more than one, each server's rate is its best count's, as `npm run
 * bench` takes a server's maximum rate: a closed loop of few clients can leave a server that
 * waits longer per commit short of its capacity while the machine idles.
 */
const RATE_CONNECTIONS = (process.env.SCALE_RATE_CONNECTIONS ?? '16').split(',').map(Number);
const GAP = Number(process.env.SCALE_GAP ?? 0);
const SUSTAINED_S = Number(process.env.SCALE_SUSTAINED_S ?? 0);
const SUSTAINED_SLICE_S = 30;

interface Target {
  readonly dialect: 'sqlite' | 'postgres';
  readonly url: string;
  readonly db: Database;
  readonly writer: ProofWriter;
  readonly file?: string;
  readonly schema?: string;
  drop(): Promise<void>;
}

async function prepare(dialect: 'sqlite' | 'postgres', label: string): Promise<Target> {
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

/** Knex's migrator serving `source` (a part of the list), in the database's schema. */
function migratorConfig(db: Database, source: readonly (typeof migrations)[number][]): Knex.MigratorConfig {
  return {
    migrationSource: {
      getMigrations: async () => [...source],
      getMigrationName: (m: (typeof migrations)[number]) => m.name,
      getMigration: async (m: (typeof migrations)[number]) => m.migration,
    },
    ...(db.schema !== undefined && { schemaName: db.schema }),
  };
}

/**
 * Applies the migrations of `listed` not yet in `applied`, one at a time in list order, timing
 * each. Each step serves Knex the migrations applied so far plus the next, so a database may
 * have them in another order than the list's (the loaded ones skip 010_search at first).
 */
async function migrateTimed(db: Database, listed: typeof migrations, applied: ReadonlySet<string> = new Set()): Promise<Record<string, number>> {
  const times: Record<string, number> = {};
  const done = new Set(applied);
  for (const next of listed.filter((m) => !done.has(m.name))) {
    done.add(next.name);
    const source = migrations.filter((m) => done.has(m.name));
    const start = performance.now();
    await db.knex.migrate.latest(migratorConfig(db, source));
    times[next.name] = Math.round(performance.now() - start);
  }
  return times;
}

/**
 * The migrations a database is loaded at, and those timed over the loaded rows. The load
 * starts from a fully migrated schema, as a database grows in service: every index grows by
 * inserts (on PostgreSQL a grown B-tree is about half full, a freshly built one 90%; see
 * docs/storage.md, "Size on disk"). Then the migrations of SCALE_REMIGRATE (by default the
 * newest) are rolled back, newest first, and applied again over the loaded rows, each way
 * timed. SCALE_DEFER=010_search,… applies the migrations it names after the load instead,
 * timed (the text index built in one go over the rows, which also loads faster); only a
 * migration that no later one builds on can wait, since one applied out of order over a
 * schema its successors changed fails (014_narrow_indexes after 015_topic_times does).
 */
const DEFER = (process.env.SCALE_DEFER ?? '').split(',').filter(Boolean);
const beforeLoad = migrations.filter((m) => !DEFER.includes(m.name));
const REMIGRATE = (process.env.SCALE_REMIGRATE ?? (process.env.SCALE_EXISTING === '1' ? '' : migrations[migrations.length - 1]!.name))
  .split(',')
  .filter(Boolean);

/** Rolls back the named migrations, newest first, then applies them again in list order, timing each step. */
async function remigrateTimed(db: Database, names: readonly string[]): Promise<Record<string, { down: number; up: number }>> {
  const config = migratorConfig(db, migrations);
  const listed = migrations.filter((m) => names.includes(m.name)).map((m) => m.name);
  const times: Record<string, { down: number; up: number }> = {};
  for (const name of [...listed].reverse()) {
    const start = performance.now();
    await db.knex.migrate.down({ ...config, name });
    times[name] = { down: Math.round(performance.now() - start), up: 0 };
  }
  for (const name of listed) {
    const start = performance.now();
    await db.knex.migrate.up({ ...config, name });
    times[name]!.up = Math.round(performance.now() - start);
  }
  return times;
}

interface Latency {
  readonly p50: number;
  readonly p99: number;
}

async function measure(
  server: ChildServer,
  wallet: string,
  request: (i: number) => { method: 'GET' | 'POST'; path: string; body?: unknown },
): Promise<Latency & { status: number }> {
  const times: number[] = [];
  let status = 0;
  for (let i = -WARMUP; i < REQUESTS; i++) {
    const { method, path: p, body } = request(i + WARMUP);
    const start = performance.now();
    const res = await fetch(server.url + p, {
      method,
      headers: { ...authHeaders(wallet), 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    const ms = performance.now() - start;
    status = res.status;
    if (res.status !== 200) throw new Error(`${method} ${p} ${JSON.stringify(body)} answered ${res.status}: ${text.slice(0, 300)}`);
    if (i >= 0) times.push(ms);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]! * 10) / 10;
  return { p50: at(0.5), p99: at(0.99), status };
}

/** Every read route the issue names, on the big wallet; `logSize`: leaves the published log covers at least. */
function routes(sample: readonly ProofRecord[], logSize: number) {
  const mid = sample[Math.floor(sample.length / 2)]!;
  const deepCursor = (order: 'asc' | 'desc') => encodeCursor({ createdAtMs: mid.createdAtMs, proofId: mid.proofId }, { order });
  const dayFrom = new Date(END_MS - 30 * DAY).toISOString();
  const dayTo = new Date(END_MS - 29 * DAY).toISOString();
  const search = (body: Record<string, unknown>) => () => ({ method: 'POST' as const, path: '/v1/proofs/search', body: { limit: 50, ...body } });
  const list: Array<[string, (i: number) => { method: 'GET' | 'POST'; path: string; body?: unknown }]> = [
    ['get by id', (i) => ({ method: 'GET', path: `/v1/proofs/${sample[(i * 7919) % sample.length]!.proofId}` })],
    ['list, first page', () => ({ method: 'GET', path: '/v1/proofs?limit=50' })],
    ['list, cursor deep in the wallet', () => ({ method: 'GET', path: `/v1/proofs?limit=50&cursor=${deepCursor('desc')}` })],
  ];
  for (const order of ['desc', 'asc'] as const) {
    const o = order === 'desc' ? '' : ', oldest first';
    list.push(
      [`search task${o}`, search({ order, task_id: 'task-3' })],
      [`search robot${o}`, search({ order, robot_id: 'robot-7' })],
      [`search run${o}`, search({ order, run_id: sample.find((r) => r.runId !== null)?.runId ?? 'run-0' })],
      [`search signer${o}`, search({ order, signer_public_key_b64: mid.signerPublicKeyB64 })],
      [`search 1-day window${o}`, search({ order, created_after: dayFrom, created_before: dayTo })],
      [`search robot + 1-day window${o}`, search({ order, robot_id: 'robot-7', created_after: dayFrom, created_before: dayTo })],
      [`search topic in 77%${o}`, search({ order, topic: 'nav/pose' })],
      [`search topic in 14%${o}`, search({ order, topic: 'weld/arc' })],
      [`search topic in 0.1%${o}`, search({ order, topic: 'alarm/estop' })],
      [`search topic absent from the wallet${o}`, search({ order, topic: 'absent/topic' })],
      [`search text, common word${o}`, search({ order, text: 'lyon' })],
      [`search text, word in half the proofs${o}`, search({ order, text: 'night' })],
      [`search text, rare word${o}`, search({ order, text: 'quasar' })],
      [`search text, absent word${o}`, search({ order, text: 'zzyzx' })],
      [`search text, 2 characters${o}`, search({ order, text: 'ly' })],
      [`search task + text${o}`, search({ order, task_id: 'task-3', text: 'paris' })],
      [`search cursor deep in the wallet${o}`, search({ order, cursor: deepCursor(order) })],
    );
  }
  list.push(
    ['search sort task_id', search({ sort_field: 'task_id' })],
    ['search sort robot_id', search({ sort_field: 'robot_id', sort_order: 'asc' })],
    ['search sort payload_hash', search({ sort_field: 'payload_hash' })],
    ['search offset 0 with total (ACTO)', search({ offset: 0, sort_field: 'created_at', sort_order: 'desc' })],
    ['search offset 5,000 with total', search({ offset: 5_000 })],
    ['search offset 0, text, with total', search({ offset: 0, text: 'lyon' })],
    ['search offset 0, rare text, with total', search({ offset: 0, text: 'quasar' })],
    ['fleet overview', () => ({ method: 'GET', path: '/v1/fleet' })],
    ['wallet statistics', () => ({ method: 'GET', path: `/v1/stats/wallet/${BIG}` })],
    [
      'series, 30 days by day',
      () => ({
        method: 'GET',
        path: `/v1/stats/wallet/${BIG}/series?bucket=day&from=${new Date(END_MS - 30 * DAY).toISOString()}&to=${new Date(END_MS).toISOString()}`,
      }),
    ],
    [
      'series, 24 hours by hour',
      () => ({
        method: 'GET',
        path: `/v1/stats/wallet/${BIG}/series?bucket=hour&from=${new Date(END_MS - DAY).toISOString()}&to=${new Date(END_MS).toISOString()}`,
      }),
    ],
  );
  // Inclusion proofs of proofs spread over the whole load (the sample runs from the first to
  // the last), of the oldest tenth, and against half the tree (its proofs from the first 40%).
  const oldest = sample.slice(0, Math.max(1, Math.floor(sample.length / 10)));
  const firstPart = sample.slice(0, Math.max(1, Math.floor(sample.length * 0.4)));
  const half = Math.floor(logSize / 2);
  list.push(
    ['log inclusion proof, latest checkpoint', (i) => ({ method: 'GET', path: `/v1/log/inclusion/${sample[(i * 7919) % sample.length]!.proofId}` })],
    ['log inclusion proof, oldest tenth of the proofs', (i) => ({ method: 'GET', path: `/v1/log/inclusion/${oldest[(i * 7919) % oldest.length]!.proofId}` })],
    [
      `log inclusion proof at tree size ${half.toLocaleString('en')}`,
      (i) => ({ method: 'GET', path: `/v1/log/inclusion/${firstPart[(i * 7919) % firstPart.length]!.proofId}?tree_size=${half}` }),
    ],
  );
  return list;
}

/**
 * PostgreSQL's WAL position and counters (the whole server's) and its checkpoints so far; null
 * on SQLite. `bytes` is the WAL position, exact; records and full-page images come from
 * pg_stat_wal, which a busy backend reports about once a second and an idle one up to 10 s
 * late (PostgreSQL 15), so a short slice's last images may count in the next slice.
 */
async function walCounters(t: Target): Promise<{ records: number; fpi: number; bytes: number; checkpoints: number; vacuuming: string } | null> {
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
 * One slice of submissions at the maximum rate, fresh proofs for the big wallet, printed as a
 * line. On PostgreSQL the line also gives the WAL the slice wrote a proof (the server's
 * counters, so whatever else wrote meanwhile counts too), the checkpoints that began during
 * it and any vacuum under way: a B-tree page's first change after a checkpoint writes the
 * whole page to the WAL (a full-page image).
 */
async function rateSlice(
  label: string,
  server: ChildServer,
  db: Target,
  seconds: number,
  bodiesPerSecond: number,
  connections: number,
): Promise<{ requestsPerSec: number; p99Ms: number; proofs: number }> {
  const bodies = Array.from({ length: seconds * bodiesPerSecond }, () => JSON.stringify({ envelope: fleetProof('scale') }));
  const before = await walCounters(db);
  const [cpu0, machine0] = [server.cpuSeconds(), machineTimes()];
  const figures = await load({ url: server.url, path: '/v1/proofs', headers: authHeaders(BIG), bodies, connections, durationS: seconds });
  const [cpu1, machine1] = [server.cpuSeconds(), machineTimes()];
  if (figures.non2xx > 0 || figures.errors > 0) throw new Error(`${label}: ${figures.non2xx} non-2xx and ${figures.errors} errors`);
  const after = await walCounters(db);
  const proofs = Math.max(1, Math.round(figures.requestsPerSec * seconds));
  // The server's CPU a request (all its threads) and how busy the machine was: a server that
  // leaves the machine idle is waiting, not working, and more clients would raise its rate.
  const cpu =
    cpu0 !== null && cpu1 !== null && machine0 && machine1
      ? `; server ${Math.round(((cpu1 - cpu0) / proofs) * 1e6)} µs CPU a request, machine ${Math.round(((machine1.busy - machine0.busy) / (machine1.total - machine0.total)) * 100)}% busy`
      : '';
  const wal =
    before && after
      ? `; WAL a proof ${Math.round((after.bytes - before.bytes) / proofs).toLocaleString('en')} bytes, ${((after.records - before.records) / proofs).toFixed(1)} records, ` +
        `${((after.fpi - before.fpi) / proofs).toFixed(2)} full-page images; checkpoints begun ${after.checkpoints - before.checkpoints}` +
        (before.vacuuming || after.vacuuming ? `; vacuum running: ${before.vacuuming || '-'} → ${after.vacuuming || '-'}` : '')
      : '';
  console.log(`  ${label}: ${Math.round(figures.requestsPerSec)}/s, p99 ${figures.p99Ms} ms${cpu}${wal}`);
  return { requestsPerSec: figures.requestsPerSec, p99Ms: figures.p99Ms, proofs };
}

interface Rates {
  readonly empty: number;
  readonly loaded: number;
  readonly ratio: number;
  readonly emptyP99: number;
  readonly loadedP99: number;
}

/**
 * Submission rate over HTTP, the empty database and the loaded one in turns, in short rounds,
 * at each of RATE_CONNECTIONS: by count, and each server at its best count.
 */
async function submissionRates(empty: ChildServer, loaded: ChildServer, db: Target): Promise<{ byCount: Map<number, Rates>; best: Rates }> {
  const byCount = new Map<number, Rates>();
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  for (const connections of RATE_CONNECTIONS) {
    const rates = { empty: [] as number[], loaded: [] as number[], emptyP99: [] as number[], loadedP99: [] as number[] };
    for (let round = 0; round < RATE_ROUNDS; round++) {
      const order: Array<['empty' | 'loaded', ChildServer]> =
        round % 2 === 0
          ? [
              ['empty', empty],
              ['loaded', loaded],
            ]
          : [
              ['loaded', loaded],
              ['empty', empty],
            ];
      for (const [name, server] of order) {
        const figures = await rateSlice(`${connections} connections, round ${round + 1}, ${name}`, server, db, RATE_SLICE_S, 6_000, connections);
        rates[name].push(figures.requestsPerSec);
        rates[`${name}P99`].push(figures.p99Ms);
      }
    }
    const e = mean(rates.empty);
    const l = mean(rates.loaded);
    byCount.set(connections, {
      empty: Math.round(e),
      loaded: Math.round(l),
      ratio: Math.round((l / e) * 100) / 100,
      emptyP99: Math.max(...rates.emptyP99),
      loadedP99: Math.max(...rates.loadedP99),
    });
  }
  const bestOf = (name: 'empty' | 'loaded') => [...byCount.values()].reduce((a, b) => (b[name] > a[name] ? b : a));
  const [e, l] = [bestOf('empty'), bestOf('loaded')];
  return {
    byCount,
    best: { empty: e.empty, loaded: l.loaded, ratio: Math.round((l.loaded / e.empty) * 100) / 100, emptyP99: e.emptyP99, loadedP99: l.loadedP99 },
  };
}

/**
 * SCALE_SUSTAINED_S: each server alone at its maximum rate for that long, the loaded one
 * first, each from a checkpoint of its own (PostgreSQL), in slices of 30 s. The slices' WAL
 * shows the full-page images of the first changes to each B-tree page after the checkpoint
 * die away as the pages are written again: the rate of a whole checkpoint cycle, which the
 * short rounds of submissionRates (at whatever point of the cycle they fall) do not give.
 */
async function sustainedRates(
  empty: ChildServer,
  loaded: ChildServer,
  emptyDb: Target,
  loadedDb: Target,
): Promise<{ empty: number; loaded: number; ratio: number }> {
  const totals = { empty: 0, loaded: 0 };
  for (const [name, server, db] of [
    ['loaded', loaded, loadedDb],
    ['empty', empty, emptyDb],
  ] as const) {
    if (db.dialect === 'postgres') await db.db.knex.raw('checkpoint');
    let proofs = 0;
    for (let elapsed = 0; elapsed < SUSTAINED_S; elapsed += SUSTAINED_SLICE_S) {
      proofs += (await rateSlice(`${name}, ${elapsed}–${elapsed + SUSTAINED_SLICE_S} s`, server, db, SUSTAINED_SLICE_S, 2_500, RATE_CONNECTIONS[0]!)).proofs;
    }
    totals[name] = proofs / SUSTAINED_S;
  }
  return { empty: Math.round(totals.empty), loaded: Math.round(totals.loaded), ratio: Math.round((totals.loaded / totals.empty) * 100) / 100 };
}

/**
 * Integrates the leaves the writers sequenced into the log's tiles, through the log's own use
 * case (what the service's upkeep does, 65,536 leaves a step), so that inclusion proofs exist
 * at every size; the service then only signs a checkpoint. Answers the time it took.
 */
async function integrateLog(t: Target): Promise<{ leaves: number; steps: number; seconds: number }> {
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
const UPDATED_TABLES = ['wallet_stats', 'wallet_task_counts', 'wallet_robot_counts', 'wallet_activity_daily', 'wallet_proof_hours', 'devices'];

/**
 * On a PostgreSQL server with autovacuum off, a vacuum of the tables the load updates in place,
 * for the loader to run as it goes, as autovacuum would on a server left at its defaults:
 * otherwise every count updated leaves a dead row version and index entry behind, and those
 * tables grow with the proofs instead of with the counts (229 bytes a proof at a million).
 */
async function vacuumsUpdatedTables(t: Target): Promise<(() => Promise<void>) | undefined> {
  if (t.dialect !== 'postgres') return undefined;
  const { rows } = (await t.db.knex.raw('show autovacuum')) as { rows: Array<{ autovacuum: string }> };
  if (rows[0]?.autovacuum !== 'off') return undefined;
  return async () => {
    await t.db.knex.raw(`vacuum ${UPDATED_TABLES.map(() => '??').join(', ')}`, UPDATED_TABLES);
  };
}

/** VACUUM ANALYZE of the schema's own tables on PostgreSQL (a bare VACUUM would go through every schema of the database); ANALYZE on SQLite. */
async function analyze(t: Target): Promise<void> {
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
async function sizes(t: Target): Promise<{ total: number; parts: Array<[string, number]> }> {
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

/** The tree size of the server's latest checkpoint, once it covers at least `size` leaves (its upkeep signs one within a second of starting). */
async function publishedSize(server: ChildServer, size: number): Promise<number> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const res = await fetch(`${server.url}/v1/log/checkpoint`);
    const text = await res.text();
    const treeSize = res.status === 200 ? Number(text.split('\n')[1]) : 0;
    if (treeSize >= size) return treeSize;
    if (Date.now() > deadline) throw new Error(`no checkpoint of ${size} leaves or more within 120 s (last: ${res.status}, ${treeSize})`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function startTimed(t: Target): Promise<{ server: ChildServer; startMs: number }> {
  const start = performance.now();
  const server = await startChildServer('./servers/scale-server.ts', { DATABASE_URL: t.url, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MIN: '1000000' });
  return { server, startMs: Math.round(performance.now() - start) };
}

async function bench(dialects: ReadonlyArray<'sqlite' | 'postgres'>): Promise<void> {
  const loader = await ScaleLoader.start();
  try {
    // One database at a time, dropped once measured: two at 10 million would not fit the disk.
    for (const dialect of dialects) await benchOne(dialect, loader);
  } finally {
    await loader.close();
  }
}

async function benchOne(dialect: 'sqlite' | 'postgres', loader: ScaleLoader): Promise<void> {
  // SCALE_RESUME: the big database (file or schema) of a load that was interrupted, loaded on from where it stopped.
  const resumed = process.env.SCALE_RESUME === undefined ? undefined : await attach(dialect, process.env.SCALE_RESUME);
  const run = { dialect, empty: await prepare(dialect, 'empty'), big: resumed ?? (await prepare(dialect, 'big')), migrated: false };
  try {
    console.log(`${dialect}: migrations on an empty database (ms): ${JSON.stringify(await migrateTimed(run.empty.db, migrations))}`);
    const sample: ProofRecord[] = [];
    let loaded = 0;
    if (resumed) {
      // The loader writes the proofs in order, a batch a statement, so the count is where it stopped.
      loaded = await proofCount(resumed.db);
      sample.push(...(await sampleOf(resumed.db)));
      console.log(`resuming the load of ${process.env.SCALE_RESUME} at ${loaded.toLocaleString('en')} proofs`);
    } else await migrateTimed(run.big.db, beforeLoad);
    const total = Math.max(...SIZES);
    for (const size of SIZES) {
      const vacuuming = await vacuumsUpdatedTables(run.big);
      const { seconds, cpuSeconds, writeSeconds } = await loader.load(run.big.writer, loaded, size, total, sample, vacuuming);
      const log = await integrateLog(run.big);
      const bytes = run.big.file !== undefined ? statSync(run.big.file).size : (await sizes(run.big)).total;
      console.log(
        `\n# ${dialect}, ${size.toLocaleString('en')} proofs\n\nloaded ${(size - loaded).toLocaleString('en')} proofs through the ${dialect} batch writer in ${seconds} s ` +
          `(${Math.round((size - loaded) / Math.max(1, seconds)).toLocaleString('en')}/s, made on ${loader.threads} threads; ${cpuSeconds} CPU s in this process, ${writeSeconds} s waiting for the writer); ` +
          `${Math.round(bytes / size).toLocaleString('en')} bytes per proof on disk${run.migrated ? ' (and the proofs the rate measurement sent)' : DEFER.length > 0 ? ` before ${DEFER.join(', ')}` : ''}` +
          `${vacuuming !== undefined ? '; autovacuum is off on this server, so the load vacuumed the tables it updates every 100,000 proofs' : ''}.\n` +
          `The transparency log: ${log.leaves.toLocaleString('en')} leaves integrated into its tiles in ${log.seconds} s (${log.steps} steps of the log's own IntegrateLeaves).`,
      );
      loaded = size;
      if (!KEEP) await measureAt(run, size, sample, new Set(beforeLoad.map((m) => m.name)));
    }
    if (KEEP) {
      const where = (t: Target) => t.file ?? t.schema!;
      const env =
        dialect === 'sqlite'
          ? `SCALE_SQLITE_BIG=${where(run.big)} SCALE_SQLITE_EMPTY=${where(run.empty)}`
          : `SCALE_PG_BIG=${where(run.big)} SCALE_PG_EMPTY=${where(run.empty)}`;
      console.log(`\nkept; measure with:\nSCALE_EXISTING=1 SCALE_DATABASES=${dialect} ${env} npm run bench:scale`);
      await Promise.all([run.empty.db.close(), run.big.db.close()]);
    }
  } finally {
    if (!KEEP) {
      await run.empty.drop();
      await run.big.drop();
    }
  }
}

async function measureAt(
  run: { dialect: 'sqlite' | 'postgres'; empty: Target; big: Target; migrated: boolean },
  size: number,
  sample: readonly ProofRecord[],
  applied: ReadonlySet<string>,
): Promise<void> {
  const { dialect, big, empty } = run;
  console.log(`\n## ${dialect}, ${size.toLocaleString('en')} proofs\n`);
  if (!run.migrated) {
    console.log(`migrations over ${size.toLocaleString('en')} proofs (ms): ${JSON.stringify(await migrateTimed(big.db, migrations, applied))}`);
    run.migrated = true;
  }
  // At the largest size only (or on a kept database, when asked).
  if (REMIGRATE.length > 0 && (process.env.SCALE_EXISTING === '1' || size === Math.max(...SIZES))) {
    console.log(`rolled back and applied again over ${size.toLocaleString('en')} proofs (ms): ${JSON.stringify(await remigrateTimed(big.db, REMIGRATE))}`);
  }
  // SCALE_SKIP_SIZES=sqlite,…: sizes (and ANALYZE) already taken by an earlier attempt at these databases.
  if (!(process.env.SCALE_SKIP_SIZES ?? '').split(',').includes(dialect)) {
    await analyze(big);
    const bytes = await sizes(big);
    console.log(`bytes on disk: ${bytes.total.toLocaleString('en')}, ${Math.round(bytes.total / size).toLocaleString('en')} per proof\n`);
    console.log('| table or index | bytes per proof | share |\n| --- | ---: | ---: |');
    for (const [name, b] of bytes.parts.filter(([, b]) => b / bytes.total >= 0.005))
      console.log(`| ${name} | ${Math.round(b / size)} | ${Math.round((b / bytes.total) * 100)}% |`);
  }
  // The empty database of an earlier run may lack the migrations added since.
  await migrateTimed(empty.db, migrations, await appliedNames(empty.db));
  const [{ n: leafRows }] = (await big.db.knex('log_leaves').count({ n: '*' })) as [{ n: number | string }];
  const leaves = Number(leafRows);
  const e = await startTimed(empty);
  const l = await startTimed(big);
  try {
    console.log(`\nstart-up (spawn to listening): empty ${e.startMs} ms, ${size.toLocaleString('en')} proofs ${l.startMs} ms`);
    // The routes first: the rate's proofs become the big wallet's newest, none with the scale
    // data's words or topics, and a newest-first search would walk past them first.
    const published = await publishedSize(l.server, leaves);
    console.log(
      `\n| route (big wallet, about ${Math.round(0.6 * size).toLocaleString('en')} proofs; log of ${published.toLocaleString('en')} leaves) | p50 ms | p99 ms |\n| --- | ---: | ---: |`,
    );
    if (!RATES_ONLY) await measureRoutes(l.server, routes(sample, published));
    if (GAP > 0 && !RATES_ONLY) {
      const t0 = performance.now();
      await writeGap(big.writer, GAP);
      console.log(
        `\n${GAP.toLocaleString('en')} newest proofs for the big wallet, without the data's words or topics, written in ${Math.round(performance.now() - t0)} ms`,
      );
      console.log(`\n| search past ${GAP.toLocaleString('en')} newest proofs without its word or topic | p50 ms | p99 ms |\n| --- | ---: | ---: |`);
      await measureRoutes(
        l.server,
        routes(sample, published).filter(([label]) => /^search (text|task \+ text|topic|offset 0, (rare )?text)/.test(label)),
      );
    }
    if (ROUTES === undefined && SUSTAINED_S > 0) {
      const rate = await sustainedRates(e.server, l.server, empty, big);
      console.log(
        `\nsubmissions over HTTP for ${SUSTAINED_S} s each from a checkpoint (${RATE_CONNECTIONS[0]} connections): empty ${rate.empty}/s, loaded ${rate.loaded}/s: ratio ${rate.ratio}`,
      );
    } else if (ROUTES === undefined) {
      const { byCount, best } = await submissionRates(e.server, l.server, big);
      for (const [connections, rate] of byCount) {
        console.log(
          `\nsubmissions over HTTP (${connections} connections, ${RATE_ROUNDS} rounds of ${RATE_SLICE_S} s each, in turns): empty ${rate.empty}/s (p99 ≤ ${rate.emptyP99} ms), loaded ${rate.loaded}/s (p99 ≤ ${rate.loadedP99} ms): ratio ${rate.ratio}`,
        );
      }
      if (byCount.size > 1)
        console.log(`submissions over HTTP, each server at its best count: empty ${best.empty}/s, loaded ${best.loaded}/s: ratio ${best.ratio}`);
    }
  } finally {
    await e.server.stop();
    await l.server.stop();
  }
}

/** Each route SCALE_ROUTES lets through, measured on the big wallet, as a row of the table. */
async function measureRoutes(server: ChildServer, list: ReturnType<typeof routes>): Promise<void> {
  for (const [label, request] of list.filter(([label]) => ROUTES === undefined || ROUTES.test(label))) {
    const figures = await measure(server, BIG, request);
    console.log(`| ${label} | ${figures.p50} | ${figures.p99} |`);
  }
}

/** `n` of the bench fleet's proofs for the big wallet, through the store's batch writer. */
async function writeGap(writer: ProofWriter, n: number): Promise<void> {
  for (let done = 0; done < n; done += 400) {
    const records = Array.from({ length: Math.min(400, n - done) }, () => scaleRecord({ wallet: BIG, envelope: fleetProof('gap') }));
    await writer.write(records.map((r) => ({ row: toRow(r), topics: r.topics })));
  }
}

/** A database an earlier run loaded and kept (SCALE_KEEP=1), with whatever migrations its code applied. */
async function attach(dialect: 'sqlite' | 'postgres', where: string): Promise<Target> {
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

async function proofCount(db: Database): Promise<number> {
  const [{ n }] = (await db.knex('proofs').count({ n: '*' })) as [{ n: number | string }];
  return Number(n);
}

/** The latency routes' sample of a loaded database: proofs of the big wallet, spread over the load. */
async function sampleOf(db: Database): Promise<ProofRecord[]> {
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
async function appliedNames(db: Database): Promise<Set<string>> {
  return new Set(((await db.knex('knex_migrations').select('name')) as Array<{ name: string }>).map((r) => r.name));
}

async function measureExisting(): Promise<void> {
  for (const dialect of DIALECTS) {
    const env = dialect === 'sqlite' ? ['SCALE_SQLITE_BIG', 'SCALE_SQLITE_EMPTY'] : ['SCALE_PG_BIG', 'SCALE_PG_EMPTY'];
    const big = await attach(dialect, process.env[env[0]!]!);
    const empty = await attach(dialect, process.env[env[1]!]!);
    try {
      const size = await proofCount(big.db);
      const sample = await sampleOf(big.db);
      // Whatever migrations the loading code lacked are applied and timed here.
      const applied = await appliedNames(big.db);
      const log = await integrateLog(big);
      console.log(`the transparency log: ${log.leaves.toLocaleString('en')} leaves integrated into its tiles in ${log.seconds} s (${log.steps} steps)`);
      await measureAt({ dialect, big, empty, migrated: migrations.every((m) => applied.has(m.name)) }, size, sample, applied);
    } finally {
      await big.drop();
      await empty.drop();
    }
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && process.env.SCALE_EXISTING === '1') {
  await measureExisting();
  process.exit(0);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(`# bench:scale, ${new Date().toISOString()}: sizes ${SIZES.join(', ')}, ${REQUESTS} sequential requests per route after ${WARMUP} warm-up ones`);
  await bench(DIALECTS);
  // Knex pools and the verify protocol's workers would keep the process alive.
  process.exit(0);
}
