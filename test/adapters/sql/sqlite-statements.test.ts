import test from 'ava';
import type sqlite3 from 'sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, exec, SqliteStatements } from '../../../src/adapters/sql/sqlite-statements.js';

const count = (db: sqlite3.Database) =>
  new Promise<number>((resolve, reject) => db.get<{ n: number }>('select count(*) as n from t', (err, row) => (err ? reject(err) : resolve(row!.n))));

test('a kept statement that failed for a busy lock is reset: the next write commits and lets the lock go', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-statements-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'db.sqlite');
  writeFileSync(file, '');
  const [writer, other, reader] = [await connect(file), await connect(file), await connect(file)];
  t.teardown(() => Promise.all([writer, other, reader].map((db) => new Promise((resolve) => db.close(resolve)))));
  await exec(writer, 'PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 20; create table t (x integer)');
  await exec(other, 'PRAGMA busy_timeout = 2000');
  const statements = new SqliteStatements(true);
  t.teardown(() => statements.close());
  const insert = 'insert into t (x) values (?) returning x';

  // Another connection holds the write lock for longer than the writer waits.
  await exec(other, 'begin immediate; insert into t (x) values (0)');
  const busy = await t.throwsAsync(statements.all(writer, insert, [1]));
  t.is((busy as Error & { code?: string }).code, 'SQLITE_BUSY');
  await exec(other, 'commit');

  // Another kept statement (a batch of another size has its own): the failed one is not run again.
  t.deepEqual(await statements.all(writer, 'insert into t (x) values (?), (?) returning x', [2, 22]), [{ x: 2 }, { x: 22 }]);
  t.is(await count(reader), 3, 'the write after the failure committed');
  // And the writer holds no lock: another connection writes at once.
  await exec(other, 'insert into t (x) values (3)');
  t.is(await count(reader), 4);
});
