import type { Knex } from 'knex';

/**
 * Each row of `proof_topics` carries its proof's `created_at_ms`, and the table's one index is
 * (wallet_id, topic, created_at_ms, proof_pk): a wallet's proofs of one topic in the list's
 * time order (docs/storage.md, "Search plans").
 *
 * A search by a rare topic used to read every proof the topic index named and sort them
 * before it could return the newest 50: at ten million proofs, 6,000 proofs of a topic in 0.1%
 * of the big wallet took 50–80 ms at p99 on both databases. With the time in the index, the
 * search reads the topic's proofs in the page's order, a few dozen at a time, and stops at the
 * page (KnexProofSearch.topicPage). The test of one proof for a topic (a search that walks
 * the list) is still one lookup: the proof gives all four columns.
 *
 * - SQLite: the table is rebuilt WITHOUT ROWID with that key as its primary key: one b-tree
 *   instead of three (the rowid table, its (proof_pk, topic) key and the index). The rows are
 *   read in rowid order, each proof looked up by its key (in the order the proofs were
 *   written), then sorted once by SQLite's sorter and written in key order.
 * - PostgreSQL: the table is copied into one with the new column (writes to the table wait,
 *   reads go on), then the key is built over the sorted copy and the reference to `proofs`
 *   checked in one pass.
 *
 * The key still refuses a topic twice for one proof: the proof fixes wallet_id and
 * created_at_ms. Instances of an earlier version cannot write after this migration (their
 * topic rows lack the column and are refused, with the proof they came with): stop them first
 * (docs/storage.md, "Migrations").
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.dialect === 'postgresql') {
    await knex.raw('lock table proof_topics in exclusive mode');
    await knex.raw(`create table proof_topics_next (
      proof_pk bigint not null, wallet_id bigint not null, created_at_ms bigint not null, topic text not null
    )`);
    await knex.raw(`insert into proof_topics_next (proof_pk, wallet_id, created_at_ms, topic)
      select t.proof_pk, t.wallet_id, p.created_at_ms, t.topic from proof_topics t join proofs p on p.id = t.proof_pk
      order by t.wallet_id, t.topic, p.created_at_ms, t.proof_pk`);
    await knex.raw('drop table proof_topics');
    await knex.raw('alter table proof_topics_next rename to proof_topics');
    await knex.raw('alter table proof_topics add constraint proof_topics_wallet_topic primary key (wallet_id, topic, created_at_ms, proof_pk)');
    await knex.raw(
      'alter table proof_topics add constraint proof_topics_proof_pk_fkey foreign key (proof_pk) references proofs (id) on delete cascade not valid',
    );
    await knex.raw('alter table proof_topics validate constraint proof_topics_proof_pk_fkey');
    return;
  }
  await knex.raw(`create table proof_topics_next (
    wallet_id integer not null, topic text not null, created_at_ms integer not null,
    proof_pk integer not null references proofs (id) on delete cascade,
    primary key (wallet_id, topic, created_at_ms, proof_pk)
  ) without rowid`);
  await knex.raw(`insert into proof_topics_next (wallet_id, topic, created_at_ms, proof_pk)
    select t.wallet_id, t.topic, p.created_at_ms, t.proof_pk from proof_topics t not indexed cross join proofs p on p.id = t.proof_pk
    order by 1, 2, 3, 4`);
  await swapIn(knex);
}

/**
 * SQLite: the copy takes the table's name. Legacy mode renames without reparsing the schema's
 * triggers: a writer's connection holds a TEMP trigger that writes to main.proof_topics
 * (sqlite-proof-sql.ts), which names no table between the drop and the rename.
 */
async function swapIn(knex: Knex): Promise<void> {
  await knex.raw('drop table proof_topics');
  await knex.raw('pragma legacy_alter_table = on');
  try {
    await knex.raw('alter table proof_topics_next rename to proof_topics');
  } finally {
    await knex.raw('pragma legacy_alter_table = off');
  }
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.dialect === 'postgresql') {
    await knex.raw('alter table proof_topics drop constraint proof_topics_wallet_topic');
    await knex.raw('alter table proof_topics add constraint proof_topics_wallet_topic primary key (wallet_id, topic, proof_pk)');
    await knex.raw('alter table proof_topics drop column created_at_ms');
    return;
  }
  await knex.raw(`create table proof_topics_next (
    proof_pk bigint not null references proofs (id) on delete cascade, wallet_id bigint not null, topic text not null,
    primary key (proof_pk, topic)
  )`);
  await knex.raw('insert into proof_topics_next (proof_pk, wallet_id, topic) select proof_pk, wallet_id, topic from proof_topics order by proof_pk, topic');
  await swapIn(knex);
  await knex.raw('create index proof_topics_wallet_topic on proof_topics (wallet_id, topic, proof_pk)');
}
