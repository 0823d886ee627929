import type { Knex } from 'knex';

/**
 * Smaller PostgreSQL indexes on `proofs`, `proof_topics` and `log_leaves` (docs/storage.md, "Size on disk").
 * SQLite is unchanged.
 *
 * The five list indexes of `proofs` end with `created_at_ms`: `proof_id`, the tie-break of
 * the list order, is no longer part of them. It was 66 of about 110 bytes of each entry, and
 * PostgreSQL keeps these indexes about half full (each wallet appends at its own end of the
 * index, and a page split there leaves the left half as it is for good), so at 200,000 scale
 * proofs it made about 500 of their 920 bytes a proof. Lists still come in (created_at_ms,
 * proof_id) order with no full sort: the planner reads the index in created_at_ms order and
 * sorts only the proofs that share one millisecond (an incremental sort), and a cursor's
 * (created_at_ms, proof_id) comparison bounds the index range by created_at_ms.
 *
 * `proof_topics` keeps one index, (wallet_id, topic, proof_pk), now its primary key; the
 * (proof_pk, topic) key it had is dropped. Every read of topics names the wallet (the search
 * probes `wallet_id = proofs.wallet_id`), so the remaining index serves them all and still
 * refuses a topic twice for one proof. Without an index on proof_pk alone, deleting a proof
 * (nothing in the service does; tests do) reads the table to cascade.
 *
 * `log_leaves` keeps each proof_id once through an exclusion constraint on a hash index,
 * `exclude using hash (proof_id with =)`, instead of a unique b-tree: PostgreSQL refuses a
 * second leaf of one proof_id all the same (two writers at once included), and the lookups by
 * proof_id (a proof's leaf index, the writers' "already in the log" test) are equalities the
 * hash index serves. An entry holds the id's 4-byte hash instead of its 64 characters: 34
 * bytes a leaf instead of 125 at 200,000.
 *
 * Existing rows are not touched: the new indexes are built beside the old ones (lists and
 * searches go on meanwhile, writes wait; the log's constraint locks log_leaves while it is
 * built), then the old ones are dropped, in one transaction. At 200,000
 * proofs the builds took about 8 s on a busy 2-core machine; at 10 million, a few minutes.
 */
const LIST_INDEXES: ReadonlyArray<readonly [string, string]> = [
  ['proofs_wallet_created', 'wallet_id, created_at_ms'],
  ['proofs_wallet_task_created', 'wallet_id, task_id, created_at_ms'],
  ['proofs_wallet_robot_created', 'wallet_id, robot_id nulls first, created_at_ms'],
  ['proofs_wallet_run_created', 'wallet_id, run_id, created_at_ms'],
  ['proofs_wallet_signer_created', 'wallet_id, signer_public_key_b64, created_at_ms'],
];

export async function up(knex: Knex): Promise<void> {
  if (knex.client.dialect !== 'postgresql') return;
  for (const [name, columns] of LIST_INDEXES) await knex.raw(`create index ${name}_014 on proofs (${columns})`);
  await knex.raw('create unique index proof_topics_wallet_topic_014 on proof_topics (wallet_id, topic, proof_pk)');
  await knex.raw('alter table log_leaves add constraint log_leaves_proof_id_excl exclude using hash (proof_id with =)');
  for (const [name] of LIST_INDEXES) {
    await knex.raw(`drop index ${name}`);
    await knex.raw(`alter index ${name}_014 rename to ${name}`);
  }
  await knex.raw('alter table proof_topics drop constraint proof_topics_pkey');
  await knex.raw('drop index proof_topics_wallet_topic');
  await knex.raw('alter index proof_topics_wallet_topic_014 rename to proof_topics_wallet_topic');
  await knex.raw('alter table proof_topics add constraint proof_topics_wallet_topic primary key using index proof_topics_wallet_topic');
  await knex.raw('alter table log_leaves drop constraint log_leaves_proof_id_key');
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.dialect !== 'postgresql') return;
  for (const [name, columns] of LIST_INDEXES) {
    await knex.raw(`drop index ${name}`);
    await knex.raw(`create index ${name} on proofs (${columns}, proof_id)`);
  }
  await knex.raw('alter table proof_topics drop constraint proof_topics_wallet_topic');
  await knex.raw('alter table proof_topics add constraint proof_topics_pkey primary key (proof_pk, topic)');
  await knex.raw('create index proof_topics_wallet_topic on proof_topics (wallet_id, topic, proof_pk)');
  await knex.raw('alter table log_leaves add constraint log_leaves_proof_id_key unique (proof_id)');
  await knex.raw('alter table log_leaves drop constraint log_leaves_proof_id_excl');
}
