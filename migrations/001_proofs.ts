import type { Knex } from 'knex';

/**
 * Proofs and their topics. Shared by SQLite and PostgreSQL; the only dialect difference is
 * the collation of `proof_id`.
 *
 * Every list is ordered by (created_at_ms, proof_id) within one wallet, and every filter of a
 * search is an equality on one column, so each filterable column gets an index
 * (wallet, <column>, created_at_ms, proof_id): the filter, the order and the keyset cursor
 * are then all served by one index range scan, in either direction, with no sort.
 */
export async function up(knex: Knex): Promise<void> {
  const postgres = knex.client.dialect === 'postgresql';
  await knex.schema.createTable('proofs', (t) => {
    t.bigIncrements('id');
    t.text('wallet').notNullable();
    // Lower-case hex, so byte order is the order lists use. PostgreSQL would otherwise compare
    // with the database's locale collation and disagree with SQLite (and with the cursor).
    if (postgres) t.specificType('proof_id', 'varchar(64) collate "C"').notNullable();
    else t.string('proof_id', 64).notNullable();
    t.text('task_id').notNullable();
    t.text('robot_id').nullable();
    t.text('run_id').nullable();
    t.text('signer_public_key_b64').notNullable();
    t.text('created_at').notNullable();
    t.bigInteger('created_at_ms').notNullable();
    t.bigInteger('received_at_ms').notNullable();
    t.integer('event_count').notNullable();
    t.text('topics').notNullable();
    t.text('search_text').notNullable();
    // Text, not jsonb: the envelope is kept exactly as it was serialized (key order, number
    // spelling), which jsonb would normalize.
    t.text('envelope').notNullable();
    t.unique(['wallet', 'proof_id'], { indexName: 'proofs_wallet_proof_id_key' });
    t.index(['wallet', 'created_at_ms', 'proof_id'], 'proofs_wallet_created');
    t.index(['wallet', 'task_id', 'created_at_ms', 'proof_id'], 'proofs_wallet_task_created');
    t.index(['wallet', 'robot_id', 'created_at_ms', 'proof_id'], 'proofs_wallet_robot_created');
    t.index(['wallet', 'run_id', 'created_at_ms', 'proof_id'], 'proofs_wallet_run_created');
    t.index(['wallet', 'signer_public_key_b64', 'created_at_ms', 'proof_id'], 'proofs_wallet_signer_created');
  });
  await knex.schema.createTable('proof_topics', (t) => {
    t.bigInteger('proof_pk').notNullable().references('id').inTable('proofs').onDelete('CASCADE');
    t.text('wallet').notNullable();
    t.text('topic').notNullable();
    // The key serves the EXISTS probe from a proof; the index serves "which proofs have topic X".
    t.primary(['proof_pk', 'topic']);
    t.index(['wallet', 'topic', 'proof_pk'], 'proof_topics_wallet_topic');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('proof_topics');
  await knex.schema.dropTable('proofs');
}
