import type { Knex } from 'knex';

/**
 * Proof counts by the hour of their created_at, kept by the proof writers in the statement
 * that stores each proof (src/adapters/sql/wallet-stats-sql.ts), so that the series and the
 * windows of the wallet statistics (last 24 hours, last 7 days) read a few rows per hour or
 * day instead of counting the wallet's proofs:
 * - wallet_proof_hours: proofs per wallet and UTC hour of created_at;
 * - wallet_robot_hours, wallet_robot_days: which robots have a proof in each hour and day (a
 *   row per robot present), for the distinct devices of a bucket, which do not add up.
 * An hour starts at created_at_ms floored to a multiple of 3,600,000, negative dates
 * included (`%` truncates on both databases, so the floor adds the divisor before a second `%`).
 *
 * Existing proofs are counted in ranges of BACKFILL_IDS ids, each one statement per table, so
 * no statement holds more than that many proofs whatever the table's size.
 */
const BACKFILL_IDS = 50_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Start of the UTC hour or day holding `ms` (an SQL expression), negative dates included. */
const floorSql = (ms: string, unit: number) => `${ms} - ((${ms} % ${unit}) + ${unit}) % ${unit}`;

export async function up(knex: Knex): Promise<void> {
  const postgres = knex.client.dialect === 'postgresql';
  if (postgres) {
    await knex.raw(
      'create table wallet_proof_hours (wallet text not null, hour_ms bigint not null, proof_count bigint not null default 0, primary key (wallet, hour_ms))',
    );
    await knex.raw(
      'create table wallet_robot_hours (wallet text not null, hour_ms bigint not null, robot_id text collate "C" not null, primary key (wallet, hour_ms, robot_id))',
    );
    await knex.raw(
      'create table wallet_robot_days (wallet text not null, day_ms bigint not null, robot_id text collate "C" not null, primary key (wallet, day_ms, robot_id))',
    );
  } else {
    // WITHOUT ROWID: each row is its primary key's entry, stored once.
    await knex.raw(
      'create table wallet_proof_hours (wallet text not null, hour_ms bigint not null, proof_count bigint not null default 0, primary key (wallet, hour_ms)) without rowid',
    );
    await knex.raw(
      'create table wallet_robot_hours (wallet text not null, hour_ms bigint not null, robot_id text not null, primary key (wallet, hour_ms, robot_id)) without rowid',
    );
    await knex.raw(
      'create table wallet_robot_days (wallet text not null, day_ms bigint not null, robot_id text not null, primary key (wallet, day_ms, robot_id)) without rowid',
    );
  }
  const [{ last }] = (await knex('proofs').max({ last: 'id' })) as [{ last: number | string | null }];
  const lastId = Number(last ?? 0);
  const hour = floorSql('created_at_ms', HOUR_MS);
  const day = floorSql('created_at_ms', DAY_MS);
  for (let from = 0; from < lastId; from += BACKFILL_IDS) {
    const range = [from, from + BACKFILL_IDS];
    await knex.raw(
      `insert into wallet_proof_hours (wallet, hour_ms, proof_count)
       select wallet, ${hour}, count(*) from proofs where id > ? and id <= ? group by 1, 2
       on conflict (wallet, hour_ms) do update set proof_count = wallet_proof_hours.proof_count + excluded.proof_count`,
      range,
    );
    await knex.raw(
      `insert into wallet_robot_hours (wallet, hour_ms, robot_id)
       select distinct wallet, ${hour}, robot_id from proofs where id > ? and id <= ? and robot_id is not null
       on conflict do nothing`,
      range,
    );
    await knex.raw(
      `insert into wallet_robot_days (wallet, day_ms, robot_id)
       select distinct wallet, ${day}, robot_id from proofs where id > ? and id <= ? and robot_id is not null
       on conflict do nothing`,
      range,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('wallet_robot_days');
  await knex.schema.dropTable('wallet_robot_hours');
  await knex.schema.dropTable('wallet_proof_hours');
}
