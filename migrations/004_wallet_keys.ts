import type { Knex } from 'knex';

/**
 * Each wallet gets a small integer key, and the indexes of `proofs` and `proof_topics` lead
 * with it instead of the 44-character address.
 *
 * Every index of those two tables starts with the wallet, so the address was a large part of
 * each entry: a (wallet, robot_id, created_at_ms, proof_id) entry of a bench proof averaged 131
 * bytes in SQLite, 87 with the key; a topic row 60 bytes, 16 with it. Smaller entries mean
 * fewer index pages to split and to write: with bench/sqlite-writes.ts at 10 proofs a commit,
 * 9.8 WAL pages a proof before, 8.5 after.
 * The address stays in each proof's row (it is what reads return); the lists, the filters
 * and the cursor order are those of 001_proofs, with `wallet_id` where `wallet` was.
 *
 * The two tables are rebuilt rather than altered: SQLite cannot add a NOT NULL column without
 * a default. Rows keep their ids, so `proof_topics` and the rest still point at the same proofs.
 */
export async function up(knex: Knex): Promise<void> {
  const postgres = knex.client.dialect === 'postgresql';

  await knex.schema.createTable('wallets', (t) => {
    t.bigIncrements('id');
    t.text('address').notNullable();
    t.unique(['address'], { indexName: 'wallets_address_key' });
  });
  // Keys in the order the wallets first stored a proof.
  await knex.raw('insert into wallets (address) select wallet from proofs group by wallet order by min(id)');

  await knex.schema.createTable('proofs_next', (t) => {
    t.bigIncrements('id');
    t.bigInteger('wallet_id').notNullable().references('id').inTable('wallets');
    t.text('wallet').notNullable();
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
    t.text('envelope').notNullable();
  });
  const columns = [
    'id',
    'wallet',
    'proof_id',
    'task_id',
    'robot_id',
    'run_id',
    'signer_public_key_b64',
    'created_at',
    'created_at_ms',
    'received_at_ms',
    'event_count',
    'topics',
    'search_text',
    'envelope',
  ];
  await knex.raw(
    `insert into proofs_next (wallet_id, ${columns.join(', ')})
     select w.id, ${columns.map((c) => `p.${c}`).join(', ')} from proofs p join wallets w on w.address = p.wallet order by p.id`,
  );

  await knex.schema.createTable('proof_topics_next', (t) => {
    t.bigInteger('proof_pk').notNullable().references('id').inTable('proofs_next').onDelete('CASCADE');
    t.bigInteger('wallet_id').notNullable();
    t.text('topic').notNullable();
    t.primary(['proof_pk', 'topic']);
  });
  await knex.raw(
    `insert into proof_topics_next (proof_pk, wallet_id, topic)
     select t.proof_pk, p.wallet_id, t.topic from proof_topics t join proofs_next p on p.id = t.proof_pk`,
  );

  await knex.schema.dropTable('proof_topics');
  await knex.schema.dropTable('proofs');
  // SQLite rewrites proof_topics_next's reference to the new name; PostgreSQL refers by oid.
  await knex.schema.renameTable('proofs_next', 'proofs');
  await knex.schema.renameTable('proof_topics_next', 'proof_topics');
  if (postgres) {
    await knex.raw('alter index proofs_next_pkey rename to proofs_pkey');
    await knex.raw('alter index proof_topics_next_pkey rename to proof_topics_pkey');
    await knex.raw('alter sequence proofs_next_id_seq rename to proofs_id_seq');
    await knex.raw('alter table proofs rename constraint proofs_next_wallet_id_foreign to proofs_wallet_id_foreign');
    await knex.raw('alter table proof_topics rename constraint proof_topics_next_proof_pk_foreign to proof_topics_proof_pk_foreign');
    // Ids were copied, not drawn: the next one follows the largest.
    await knex.raw(`select setval('proofs_id_seq', coalesce((select max(id) from proofs), 0) + 1, false)`);
  }

  await knex.schema.alterTable('proofs', (t) => {
    t.unique(['wallet_id', 'proof_id'], { indexName: 'proofs_wallet_proof_id_key' });
    t.index(['wallet_id', 'created_at_ms', 'proof_id'], 'proofs_wallet_created');
    t.index(['wallet_id', 'task_id', 'created_at_ms', 'proof_id'], 'proofs_wallet_task_created');
    t.index(['wallet_id', 'robot_id', 'created_at_ms', 'proof_id'], 'proofs_wallet_robot_created');
    t.index(['wallet_id', 'run_id', 'created_at_ms', 'proof_id'], 'proofs_wallet_run_created');
    t.index(['wallet_id', 'signer_public_key_b64', 'created_at_ms', 'proof_id'], 'proofs_wallet_signer_created');
  });
  await knex.schema.alterTable('proof_topics', (t) => {
    t.index(['wallet_id', 'topic', 'proof_pk'], 'proof_topics_wallet_topic');
  });
}

export async function down(): Promise<void> {
  throw new Error('004_wallet_keys is not reversible: restore a backup taken before it');
}
