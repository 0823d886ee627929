import type { Knex } from 'knex';

/**
 * Search orders and text search indexes.
 *
 * Orders. Lists may be ordered by task id or robot id as well as by time and proof id, and
 * every order compares ids by their bytes on both databases, as SQLite does by default. On
 * PostgreSQL, `task_id` and `robot_id` get the "C" collation (the server's default, often a
 * locale's, orders text another way), which rebuilds their indexes without rewriting the
 * table; equality is the same in every deterministic collation. Proofs without a robot id
 * come first in ascending order, as in SQLite, so PostgreSQL's robot index is declared
 * `nulls first` and serves that order in both directions.
 *
 * Text. `text` stays a substring of `search_text` (docs/storage.md, "Text search"); a trigram
 * index finds the proofs that may hold a needle of three characters or more, and the
 * substring test itself decides. SQLite: an FTS5 table with the trigram tokenizer over
 * `proofs.search_text` (external content: the text is not stored twice), kept by triggers,
 * built here from the rows already stored. PostgreSQL: a GIN index with pg_trgm's operator
 * class. pg_trgm ships with PostgreSQL and is a trusted extension: the database's owner may
 * create it; when the role cannot, the migration stops and says what to run.
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.dialect === 'postgresql') {
    await knex.raw('drop index proofs_wallet_robot_created');
    await knex.raw('alter table proofs alter column task_id type text collate "C", alter column robot_id type text collate "C"');
    await knex.raw('create index proofs_wallet_robot_created on proofs (wallet_id, robot_id nulls first, created_at_ms, proof_id)');
    const schema = await trigramSchema(knex);
    await knex.raw(`create index proofs_search_text_trgm on proofs using gin (search_text "${schema}".gin_trgm_ops)`);
  } else {
    await knex.raw("create virtual table proofs_fts using fts5(search_text, content='proofs', content_rowid='id', tokenize='trigram case_sensitive 1')");
    await knex.raw("insert into proofs_fts (proofs_fts) values ('rebuild')");
    // Proofs are never changed; a deleted one (only tests delete) leaves the index too.
    await knex.raw(
      'create trigger proofs_fts_insert after insert on proofs begin insert into proofs_fts (rowid, search_text) values (new.id, new.search_text); end',
    );
    await knex.raw(
      "create trigger proofs_fts_delete after delete on proofs begin insert into proofs_fts (proofs_fts, rowid, search_text) values ('delete', old.id, old.search_text); end",
    );
  }
}

/**
 * The schema pg_trgm is installed in, installing it in `public` when it is not yet. An
 * extension belongs to the database, not to a schema of ours: registries that each use a
 * schema of their own on one database share it, and dropping one's schema leaves it.
 */
async function trigramSchema(knex: Knex): Promise<string> {
  const installed = async () =>
    ((await knex.raw("select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'")) as { rows: Array<{ schema: string }> })
      .rows[0]?.schema;
  const found = await installed();
  if (found !== undefined) return found.replace(/^"|"$/g, '');
  // Migrators of several schemas may get here at once: one creates it, the others then see it.
  await knex.raw("select pg_advisory_xact_lock(hashtext('proof-registry: create extension pg_trgm'))");
  try {
    await knex.transaction(async (trx) => {
      await trx.raw('create extension if not exists pg_trgm schema public');
    });
  } catch (error) {
    throw new Error(
      `010_search needs the pg_trgm extension (it ships with PostgreSQL) and this role could not create it (${(error as Error).message}). ` +
        'Run "create extension pg_trgm schema public" as the database owner or a superuser, then migrate again.',
    );
  }
  const created = await installed();
  if (created === undefined) throw new Error('010_search: pg_trgm is not installed after create extension');
  return created.replace(/^"|"$/g, '');
}

export async function down(): Promise<void> {
  throw new Error('010_search is not reversible: restore a backup taken before it');
}
