import type { Knex } from 'knex';

/**
 * The transparency log's storage (CONTRACT.md, "Transparency log").
 *
 * - `log_leaves`: one row per distinct proof_id, numbered 0, 1, 2, … with no gap in order of
 *   first acceptance. The proof writers add a proof's leaf in the statement (SQLite) or the
 *   transaction (PostgreSQL) that stores it, so an acknowledged proof always has its index.
 *   The leaf data is the proof_id itself, hex-decoded (it is the payload_hash).
 * - `log_tiles`: the Merkle tree as C2SP tiles of height 8, each row the tile's hashes end to
 *   end; a row only grows.
 * - `log_state`: one row (id 1) holding the integrated tree size the tiles describe, and the
 *   lease that lets one instance at a time integrate and sign.
 * - `log_checkpoints`: every checkpoint signed, by size; the latest is the largest.
 *
 * Proofs stored before this migration get their leaves here, in the order they were stored.
 */
export async function up(knex: Knex): Promise<void> {
  const postgres = knex.client.dialect === 'postgresql';
  if (postgres) {
    await knex.raw(`create table log_leaves (leaf_index bigint primary key, proof_id varchar(64) collate "C" not null unique)`);
  } else {
    // INTEGER PRIMARY KEY is the rowid: the next index (max + 1) is a single b-tree step.
    await knex.raw(`create table log_leaves (leaf_index integer primary key, proof_id varchar(64) not null unique)`);
  }
  await knex.raw(
    `insert into log_leaves (leaf_index, proof_id)
     select row_number() over (order by min(id)) - 1, proof_id from proofs group by proof_id`,
  );
  await knex.schema.createTable('log_tiles', (t) => {
    t.integer('level').notNullable();
    t.bigInteger('tile_index').notNullable();
    t.binary('hashes').notNullable();
    t.primary(['level', 'tile_index']);
  });
  await knex.schema.createTable('log_state', (t) => {
    t.integer('id').primary();
    t.bigInteger('integrated_size').notNullable().defaultTo(0);
    t.text('lease_holder').nullable();
    t.bigInteger('lease_until_ms').nullable();
  });
  await knex.schema.createTable('log_checkpoints', (t) => {
    t.bigInteger('tree_size').primary();
    t.binary('root_hash').notNullable();
    t.text('note').notNullable();
    t.bigInteger('published_at_ms').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('log_checkpoints');
  await knex.schema.dropTable('log_state');
  await knex.schema.dropTable('log_tiles');
  await knex.schema.dropTable('log_leaves');
}
