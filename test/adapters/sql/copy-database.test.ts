import test from 'ava';
import { COPIED_TABLES, copyDatabase, DatabaseCopyError } from '../../../src/adapters/sql/copy-database.js';
import { type Database } from '../../../src/adapters/sql/index.js';
import { withPostgresSchema, withSqliteFile } from '../../support/databases.js';
import { contents, MS, seed, servesAsBefore } from './copy-database-fixture.js';

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
