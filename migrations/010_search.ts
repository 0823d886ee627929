import type { Knex } from 'knex';

/**
 * Search orders and indexes.
 *
 * Lists may be ordered by task id or robot id as well as by time and proof id, and every order
 * compares ids by their bytes on both databases, as SQLite does by default. On PostgreSQL,
 * `task_id` and `robot_id` get the "C" collation (the server's default, often a locale's, orders
 * text another way), which rebuilds their indexes without rewriting the table; equality is
 * the same in every deterministic collation. Proofs without a robot id come first in ascending
 * order, as in SQLite, so PostgreSQL's robot index is declared `nulls first` and serves that
 * order in both directions.
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.dialect === 'postgresql') {
    await knex.raw('drop index proofs_wallet_robot_created');
    await knex.raw('alter table proofs alter column task_id type text collate "C", alter column robot_id type text collate "C"');
    await knex.raw('create index proofs_wallet_robot_created on proofs (wallet_id, robot_id nulls first, created_at_ms, proof_id)');
  }
}

export async function down(): Promise<void> {
  throw new Error('010_search is not reversible: restore a backup taken before it');
}
