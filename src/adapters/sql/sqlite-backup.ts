import type { Database } from './database.js';

/**
 * Copies a live SQLite registry into `file` with `VACUUM INTO`: one read transaction, so the
 * copy is the database as of one commit, with every proof committed (acknowledged) before it
 * began, while the service goes on writing beside it (WAL: readers never block the writer).
 * The copy is a complete database file of its own, with no -wal file to keep beside it.
 * SQLite refuses a `file` that already exists and is not empty, so no backup is overwritten.
 */
export async function backupSqlite(db: Database, file: string): Promise<void> {
  if (db.dialect !== 'sqlite') throw new Error('backupSqlite needs an SQLite database; back PostgreSQL up with pg_dump');
  await db.knex.raw('vacuum into ?', [file]);
}
