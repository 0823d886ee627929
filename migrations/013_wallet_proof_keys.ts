import type { Knex } from 'knex';

/**
 * SQLite: an index of `proofs` on `wallet_id` alone (each entry is the wallet's key and the
 * proof's rowid, a dozen bytes). It answers "is this proof the wallet's?" for each proof the
 * trigram index names without reading the proof's row (about a page of its own), which is
 * what the `total` of a text search asks up to 10,001 times (docs/storage.md, "Search plans").
 * PostgreSQL has nothing to add: its trigram hits are tested against the row anyway.
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.dialect === 'postgresql') return;
  await knex.raw('create index proofs_wallet_key on proofs (wallet_id)');
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.dialect === 'postgresql') return;
  await knex.raw('drop index proofs_wallet_key');
}
