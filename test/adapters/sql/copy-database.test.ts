import test, { type ExecutionContext } from 'ava';
import { NodeSha256 } from '../../../src/adapters/crypto/node-sha256.js';
import { COPIED_TABLES, copyDatabase, DatabaseCopyError } from '../../../src/adapters/sql/copy-database.js';
import { readAhead } from '../../../src/adapters/sql/copy-pages.js';
import { TableDigest } from '../../../src/adapters/sql/table-digest.js';
import { KnexProofStore, type Database } from '../../../src/adapters/sql/index.js';
import { KnexLogTileStore } from '../../../src/adapters/sql/knex-log-tile-store.js';
import { KnexSequencedLeaves } from '../../../src/adapters/sql/knex-sequenced-leaves.js';
import { IntegrateLeaves } from '../../../src/application/log/integrate-leaves.js';
import type { ProofRecord } from '../../../src/domain/proof/proof-record.js';
import { withPostgresSchema, withSqliteFile } from '../../support/databases.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../../support/mothers.js';

const at = (minute: number) => new Date(Date.parse('2026-11-20T00:00:00Z') + minute * 60_000).toISOString();
const MS = Date.parse('2026-11-20T00:00:00Z');

/**
 * A registry's database with rows in every table: proofs through the store (so the writer
 * fills the topic, device, statistics and log tables as it does in service, one proof id in
 * two wallets), the log integrated into tiles, and a row or two of every other table, with
 * the values that differ between the two databases: booleans, floats, blobs, NULLs, text with
 * quotes and non-ASCII characters.
 */
async function seed(db: Database): Promise<ProofRecord[]> {
  const store = new KnexProofStore(db);
  const proofs: ProofRecord[] = [];
  for (let i = 0; i < 9; i++) {
    const spec = {
      taskId: `task-${i % 3}`,
      robotId: `robot-${i % 2}`,
      runId: `run-${i % 4}`,
      topics: [i % 2 ? 'nav/pose' : 'arm/joint'],
      createdAt: at(i),
      meta: { site: i === 4 ? 'quasar-lyon' : 'paris "nord" — été' },
      seed: i % 5,
    };
    const r = aProofRecord(i % 3 ? WALLET_A : WALLET_B, spec);
    await store.add(r);
    proofs.push(r);
  }
  // The same proof in the other wallet: a second row, the same leaf.
  const again = aProofRecord(WALLET_A, {
    taskId: 'task-0',
    robotId: 'robot-0',
    runId: 'run-0',
    topics: ['arm/joint'],
    createdAt: at(0),
    meta: { site: 'paris "nord" — été' },
    seed: 0,
  });
  await store.add(again);
  proofs.push(again);
  await new IntegrateLeaves(new KnexLogTileStore(db), new KnexSequencedLeaves(db), new NodeSha256()).execute();
  const k = db.knex;
  await k('log_checkpoints').insert({
    tree_size: 9,
    root_hash: Buffer.from('00ff10'.repeat(10) + 'ab', 'hex'),
    note: 'registry.example/log\n9\nq83+AA==\n\n— registry.example abc=\n',
    published_at_ms: MS + 1,
  });
  await k('log_cosignatures').insert({ tree_size: 9, witness: 'witness.example', line: '— witness.example AAAA\n', cosigned_at_ms: MS + 2 });
  await k('log_witnesses').insert({ witness: 'witness.example', last_cosigned_size: 9, last_cosigned_at_ms: MS + 2, last_error: null, last_error_at_ms: null });
  await k('api_keys').insert([
    {
      key_id: 'k1',
      wallet: WALLET_A,
      name: "fleet 'north'",
      prefix: 'pr_live_ab',
      key_hash: 'a'.repeat(64),
      created_at_ms: MS,
      last_used_at_ms: null,
      request_count: 3,
      error_count: 1,
    },
    {
      key_id: 'k2',
      wallet: WALLET_B,
      name: 'ci',
      prefix: 'pr_live_cd',
      key_hash: 'b'.repeat(64),
      created_at_ms: MS + 5,
      last_used_at_ms: MS + 9,
      request_count: 0,
      error_count: 0,
      scopes: 'proofs:write health:write',
      robot_ids: '["r-1","r-2"]',
      expires_at_ms: MS + 86_400_000,
      disabled_at_ms: MS + 7,
    },
  ]);
  await k('api_key_usage_daily').insert({ key_id: 'k1', day_ms: MS, request_count: 3, error_count: 1 });
  await k('api_key_endpoint_usage_daily').insert({ key_id: 'k1', day_ms: MS, endpoint: 'POST /v1/proofs', request_count: 3, error_count: 1 });
  await k('sign_in_nonces').insert({
    nonce: 'n'.repeat(32),
    wallet: WALLET_A,
    message: 'Sign in to Proof Registry\nNonce: nnn',
    issued_at_ms: MS,
    expires_at_ms: MS + 300_000,
    consumed_at_ms: null,
  });
  await k('revoked_tokens').insert({ jti: 'j'.repeat(32), expires_at_ms: MS + 3_600_000 });
  await k('ledger_balances').insert({ wallet: WALLET_A, mint: 'So11111111111111111111111111111111111111112', amount: '50000.000001', updated_at_ms: MS });
  await k('device_groups').insert({ wallet: WALLET_A, group_id: 'g1', name: 'Hall B', description: null, created_at_ms: MS, color: '#ff8800' });
  await k('devices').where({ wallet: WALLET_A, device_id: 'robot-1' }).update({ group_id: 'g1', name: 'Arm «1»', hidden_at_ms: null, sort_order: 2 });
  await k('device_health').insert([
    {
      wallet: WALLET_A,
      device_id: 'robot-1',
      received_at_ms: MS,
      status: 'ok',
      cpu_percent: 85,
      memory_percent: 0.1,
      battery_percent: 99.5,
      temperature_c: -3.25,
      uptime_s: 3600,
      message: null,
      metrics: '{"fan":1}',
      battery_charging: true,
      network_connected: false,
      status_derived: false,
      disk_percent: null,
    },
    {
      wallet: WALLET_A,
      device_id: 'robot-1',
      received_at_ms: MS + 1,
      status: 'warning',
      cpu_percent: null,
      battery_charging: null,
      network_connected: true,
      status_derived: true,
      custom_metrics: '{"x":1e-7}',
    },
  ]);
  await k('proof_rejections_hourly').insert({ wallet: WALLET_B, hour_ms: MS, rejected_count: 2 });
  await k('wallet_activity_daily').insert({ wallet: WALLET_B, day_ms: MS, proof_count: 4, verification_count: 7 });
  // Events came with the proofs; a webhook with a delivery tried twice, a cursor and a lease.
  await k('webhook_endpoints').insert({
    endpoint_id: 'whk_1',
    wallet: WALLET_A,
    url: 'https://hooks.example/in?x=«1»',
    description: 'ops',
    event_types: '["proof.accepted"]',
    enabled: true,
    disabled_reason: null,
    secret: 'whsec_c2VjcmV0',
    previous_secret: null,
    previous_secret_until_ms: null,
    created_at_ms: MS,
    updated_at_ms: MS,
    failing_since_ms: MS + 1,
    last_success_at_ms: null,
  });
  const [delivery] = (await k('webhook_deliveries')
    .insert({
      endpoint_id: 'whk_1',
      event_id: 1,
      event_type: 'proof.accepted',
      state: 'pending',
      attempts: 2,
      next_attempt_at_ms: MS + 30_000,
      locked_until_ms: null,
      manual: false,
      last_status_code: 500,
      last_error: 'answered 500',
      last_attempt_at_ms: MS + 2,
      created_at_ms: MS,
    })
    .returning('id')) as Array<{ id: number | string }>;
  await k('webhook_attempts').insert(
    [1, 2].map((attempt) => ({
      delivery_id: Number(delivery!.id),
      attempt,
      at_ms: MS + attempt,
      status_code: 500,
      latency_ms: 12,
      error: 'answered 500',
      response_excerpt: '{"no":"ü"}',
      trigger: 'scheduled',
    })),
  );
  await k('event_cursors').insert({ name: 'webhooks', event_id: 3 });
  await k('leases').insert({ name: 'events', holder: 'host:/data', until_ms: MS + 9000 });
  return proofs;
}

/** Every row of every table, each value in one form (booleans 0/1, integers as numbers, blobs as hex), rows sorted. */
async function contents(db: Database): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of COPIED_TABLES) {
    const rows = (await db.knex(table).select('*')) as Array<Record<string, unknown>>;
    out[table] = rows
      .map((row) =>
        JSON.stringify(
          Object.keys(row)
            .sort()
            .map((c) => {
              const v = row[c];
              if (Buffer.isBuffer(v)) return `hex:${v.toString('hex')}`;
              if (typeof v === 'boolean') return v ? 1 : 0;
              if (typeof v === 'string' && /^-?\d+$/.test(v) && !['key_id', 'amount', 'nonce', 'jti'].includes(c)) return Number(v);
              return v;
            }),
        ),
      )
      .sort();
  }
  return out;
}

/** The copy serves as the original did: the stored text, text search through the target's own index, and a next proof that takes the next id and leaf. */
async function servesAsBefore(t: ExecutionContext, copy: Database, proofs: readonly ProofRecord[], source: Database): Promise<void> {
  const [original, copied] = [new KnexProofStore(source), new KnexProofStore(copy)];
  for (const p of proofs) {
    const [a, b] = [await original.get(p.wallet, p.proofId, { withText: true }), await copied.get(p.wallet, p.proofId, { withText: true })];
    t.truthy(b, p.proofId);
    t.is(b!.envelopeJson, a!.envelopeJson);
    t.is(b!.logIndex, a!.logIndex);
  }
  const found = await copied.search(WALLET_A, { text: 'quasar', order: 'desc', limit: 10 });
  t.deepEqual(
    found.items.map((p) => p.proofId),
    proofs.filter((p) => p.wallet === WALLET_A && p.searchText.includes('quasar')).map((p) => p.proofId),
  );
  const leaves = Number(((await copy.knex('log_leaves').count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n);
  const next = aProofRecord(WALLET_B, { taskId: 'after-the-move', createdAt: at(60), seed: 7 });
  const added = await copied.add(next);
  t.true(added.stored);
  t.is(added.record.logIndex, leaves, 'the next proof takes the next leaf');
  const ids = (await copy.knex('proofs').orderBy('id').pluck('id')).map(Number);
  t.is(ids.length, proofs.length + 1);
  t.true(ids[ids.length - 1]! > ids[ids.length - 2]!, 'the next proof takes an id past the copied ones');
}

for (const [from, to] of [
  ['sqlite', 'postgres'],
  ['postgres', 'sqlite'],
] as const) {
  test.serial(`${from} into ${to}: every table, row for row, and the copy serves as the original did`, async (t) => {
    const withDb = (dialect: 'sqlite' | 'postgres', fn: (db: Database) => Promise<void>) =>
      dialect === 'sqlite' ? withSqliteFile((db) => fn(db)) : withPostgresSchema(`copy_${dialect}`, fn);
    await withDb(from, async (source) => {
      const proofs = await seed(source);
      const before = await contents(source);
      for (const table of COPIED_TABLES) t.true(before[table]!.length > 0, `the seed leaves ${table} empty, so its copy is not tested`);
      await withDb(to, async (target) => {
        const seen: string[] = [];
        // Pages of 3 rows: keys continue from page to page, composite keys included.
        const report = await copyDatabase(source, target, { pageRows: 3, onProgress: (p) => seen.push(p.table) });
        t.deepEqual(
          report.tables,
          COPIED_TABLES.map((table) => ({ table, rows: before[table]!.length })),
        );
        t.deepEqual(new Set(seen), new Set(COPIED_TABLES));
        t.deepEqual(await contents(target), before);
        t.deepEqual(await contents(source), before, 'the source is unchanged');
        await servesAsBefore(t, target, proofs, source);
      });
    });
  });
}

test.serial('a copy whose rows come back different from the source fails, naming the table', async (t) => {
  await withSqliteFile(async (source) => {
    await seed(source);
    await withSqliteFile(async (target) => {
      // On the target's connection only: each proof stored there gets a changed envelope,
      // as a faulty disk or driver might. The read-back has to catch it.
      await target.knex.raw(
        "create temp trigger alter_envelope after insert on main.proofs begin update main.proofs set envelope = envelope || ' ' where id = new.id; end",
      );
      const error = await t.throwsAsync(copyDatabase(source, target), { instanceOf: DatabaseCopyError });
      t.regex(error!.message, /^proofs: the copy read back differs from the source/);
    });
  });
});

test.serial('a page the PostgreSQL target refuses fails the copy with its reason, once the pages written beside it have ended', async (t) => {
  await withSqliteFile(async (source) => {
    await seed(source);
    await withPostgresSchema('copy_refused', async (target) => {
      // Pages of 2 rows go in two at a time; the one holding a task-2 proof is refused.
      await target.knex.raw(`create function refuse_task_2() returns trigger language plpgsql as $$
        begin if new.task_id = 'task-2' then raise exception 'refused for the test'; end if; return new; end $$`);
      await target.knex.raw('create trigger refuse_task_2 before insert on proofs for each row execute function refuse_task_2()');
      const error = await t.throwsAsync(copyDatabase(source, target, { pageRows: 2 }), { instanceOf: DatabaseCopyError });
      // The table and the database's reason, not the statement with the page's rows in it.
      t.is(error!.message, 'proofs: the target refused rows: refused for the test; the target is incomplete: drop it, create it again and copy again');
      // Nothing after the refused table was written, and the target's connections all came back.
      t.is(Number(((await target.knex('proof_topics').count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n), 0);
      const stored = Number(((await target.knex('proofs').count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n);
      t.true(stored < 10, `the refused pages are not stored (${stored} of 10 rows)`);
    });
  });
});

test.serial('pages of thousands of rows go into an SQLite target, whose inserts take at most 500 rows', async (t) => {
  await withPostgresSchema('copy_wide', async (source) => {
    await seed(source);
    // More rows than one SQLite compound SELECT takes (Knex writes a multi-row insert so).
    const tokens = Array.from({ length: 1_234 }, (_, i) => ({ jti: `jti-${String(i).padStart(5, '0')}`, expires_at_ms: MS + i }));
    for (let i = 0; i < tokens.length; i += 500) await source.knex('revoked_tokens').insert(tokens.slice(i, i + 500));
    const before = await contents(source);
    await withSqliteFile(async (target) => {
      const report = await copyDatabase(source, target);
      t.is(report.tables.find((r) => r.table === 'revoked_tokens')!.rows, 1_235);
      t.deepEqual(await contents(target), before);
    });
  });
});

test('readAhead asks for the next item before handing on the current one', async (t) => {
  const events: string[] = [];
  async function* source(): AsyncGenerator<number> {
    try {
      for (let i = 0; i < 3; i++) {
        events.push(`read ${i}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        yield i;
      }
    } finally {
      events.push('closed');
    }
  }
  const seen: number[] = [];
  for await (const item of readAhead(source())) {
    events.push(`use ${item}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
    seen.push(item);
  }
  t.deepEqual(seen, [0, 1, 2]);
  // The source's end is read ahead too: it closes before the last item is used.
  t.deepEqual(events, ['read 0', 'read 1', 'use 0', 'read 2', 'use 1', 'closed', 'use 2']);
});

test('readAhead lets the read in flight end before closing the source when the consumer stops, and reports a failed read in turn', async (t) => {
  const events: string[] = [];
  async function* source(failAt: number): AsyncGenerator<number> {
    try {
      for (let i = 0; i < 5; i++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (i === failAt) throw new Error(`read ${i} failed`);
        events.push(`read ${i}`);
        yield i;
      }
    } finally {
      events.push('closed');
    }
  }
  for await (const item of readAhead(source(-1))) {
    events.push(`use ${item}`);
    break;
  }
  t.deepEqual(events, ['read 0', 'use 0', 'read 1', 'closed']);

  events.length = 0;
  const used: number[] = [];
  const error = await t.throwsAsync(async () => {
    for await (const item of readAhead(source(2))) used.push(item);
  });
  t.is(error!.message, 'read 2 failed');
  t.deepEqual(used, [0, 1], 'every item read before the failure is handed on first');
});

test('the table digest ignores the order of rows and the types the two databases differ in, and nothing else', (t) => {
  const columns = ['a', 'b', 'c'];
  const digest = (rows: Array<Record<string, unknown>>) => {
    const d = new TableDigest();
    for (const row of rows) d.add(columns, row);
    return d;
  };
  const rows = Array.from({ length: 500 }, (_, i) => ({ a: i, b: `text ${i % 7}`, c: i % 3 ? null : Buffer.from([i % 256, 1]) }));
  t.true(digest(rows).equals(digest([...rows].reverse())), 'order-free');
  // How SQLite and PostgreSQL return one value: 0/1 and booleans, numbers and bigint text.
  t.true(digest([{ a: 1, b: 12, c: null }]).equals(digest([{ a: true, b: '12', c: undefined }])));
  t.true(digest([{ a: 12n, b: 0, c: 'x' }]).equals(digest([{ a: '12', b: false, c: 'x' }])));
  const differs = (x: Record<string, unknown>, y: Record<string, unknown>, why: string) => t.false(digest([x]).equals(digest([y])), why);
  differs({ a: 'a', b: 'vb', c: null }, { a: 'av', b: 'b', c: null }, 'values do not run together');
  differs({ a: '', b: null, c: null }, { a: null, b: '', c: null }, 'empty text is not NULL');
  differs({ a: Buffer.from('ff', 'hex'), b: null, c: null }, { a: 'ff', b: null, c: null }, 'a blob is not its hex text');
  differs({ a: 0.1, b: null, c: null }, { a: 0.1000001, b: null, c: null }, 'numbers compare exactly');
  t.false(digest(rows).equals(digest(rows.slice(1))), 'a row missing');
  t.false(digest(rows).equals(digest([...rows, rows[0]!])), 'a row twice');
});

test.serial('a target holding rows, a source not migrated to this version, and the same database are refused, and nothing changes', async (t) => {
  await withSqliteFile(async (source) => {
    await seed(source);
    await withSqliteFile(async (target) => {
      await target.knex('revoked_tokens').insert({ jti: 'x', expires_at_ms: 1 });
      const error = await t.throwsAsync(copyDatabase(source, target), { instanceOf: DatabaseCopyError });
      t.is(error!.message, 'the target already holds rows in revoked_tokens: copy into a newly created, empty database');
      t.is(Number(((await target.knex('proofs').count({ n: '*' })) as Array<{ n: number }>)[0]!.n), 0);

      await target.knex('revoked_tokens').delete();
      const last = (await source.knex('knex_migrations').orderBy('id', 'desc').first('name')) as { name: string };
      await source.knex('knex_migrations').where({ name: last.name }).delete();
      const stale = await t.throwsAsync(copyDatabase(source, target), { instanceOf: DatabaseCopyError });
      t.is(stale!.message, `the source is not migrated to this version (${last.name} not applied): run proof-registry migrate on it first`);
      t.is(Number(((await target.knex('proofs').count({ n: '*' })) as Array<{ n: number }>)[0]!.n), 0);
    });
    const same = await t.throwsAsync(copyDatabase(source, source), { instanceOf: DatabaseCopyError });
    t.is(same!.message, 'the source and the target are the same database');
  });
});

test('the copied tables are every table the migrations make', async (t) => {
  await withSqliteFile(async (db) => {
    const tables = ((await db.knex.raw("select name from sqlite_master where type = 'table'")) as Array<{ name: string }>)
      .map((r) => r.name)
      .filter((name) => !/^(sqlite_|knex_|proofs_fts)/.test(name));
    t.deepEqual([...tables].sort(), [...COPIED_TABLES].sort());
  });
});
