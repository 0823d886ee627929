import type { Knex } from 'knex';
import { scoreProof } from '../src/domain/scoring/score-proof.js';

/**
 * What the ACTO SDK exposes, natively: the SDK's health metric set, device edits (hide, order,
 * description, type), a group's colour, and wallet statistics kept as aggregates.
 *
 * Health: one column per new reading, so each is kept and returned as sent.
 *
 * Devices: `hidden_at_ms` (null: shown) and `sort_order` (the overview's order, then the id;
 * UNORDERED, the largest int4, for devices never placed, so they come last), with an index
 * that serves the ordered list and its keyset cursor.
 *
 * Statistics: per wallet, figures maintained as things happen, in the same statement as the
 * proof that moves them (the proof writers) or as each verification call is answered, so a
 * statistics request reads a few rows and never the wallet's proofs:
 * - wallet_stats: proofs submitted, the sum of their scores (each proof scored once, as it
 *   was received, kept in proofs.score), verification calls that passed and failed, first and
 *   last activity;
 * - wallet_task_counts, wallet_robot_counts: proofs by task and by robot, indexed by count
 *   for the top entries;
 * - wallet_activity_daily: proofs and verification calls per UTC day, for the timeline.
 *
 * Existing proofs are scored and counted here, in batches of BACKFILL_BATCH by id, so memory
 * stays bounded whatever the table's size; the counts themselves are one GROUP BY each.
 */
export const UNORDERED = 2_147_483_647;
const BACKFILL_BATCH = 200;
const DAY_MS = 86_400_000;

export async function up(knex: Knex): Promise<void> {
  const postgres = knex.client.dialect === 'postgresql';
  const bytewise = (t: Knex.CreateTableBuilder, column: string) => (postgres ? t.specificType(column, 'text collate "C"') : t.text(column));

  await knex.schema.alterTable('device_health', (t) => {
    t.double('cpu_temperature').nullable();
    t.double('memory_used_mb').nullable();
    t.double('memory_total_mb').nullable();
    t.boolean('battery_charging').nullable();
    t.double('disk_percent').nullable();
    t.boolean('network_connected').nullable();
    t.text('network_type').nullable();
    t.text('custom_metrics').nullable();
    t.boolean('status_derived').notNullable().defaultTo(false);
  });

  await knex.schema.alterTable('devices', (t) => {
    t.bigInteger('hidden_at_ms').nullable();
    t.integer('sort_order').notNullable().defaultTo(UNORDERED);
    t.text('description').nullable();
    t.text('device_type').nullable();
    t.index(['wallet', 'sort_order', 'device_id'], 'devices_wallet_order');
  });

  await knex.schema.alterTable('device_groups', (t) => {
    t.text('color').nullable();
  });

  await knex.schema.alterTable('proofs', (t) => {
    // The proof's score under the default policy at the instant it was received; null only
    // while a migration has not scored it.
    t.double('score').nullable();
  });

  await knex.schema.createTable('wallet_stats', (t) => {
    t.text('wallet').primary();
    t.bigInteger('proofs_submitted').notNullable().defaultTo(0);
    t.bigInteger('scored_proofs').notNullable().defaultTo(0);
    t.double('score_sum').notNullable().defaultTo(0);
    t.double('score_min').nullable();
    t.double('score_max').nullable();
    t.bigInteger('verifications_ok').notNullable().defaultTo(0);
    t.bigInteger('verifications_failed').notNullable().defaultTo(0);
    t.bigInteger('first_activity_ms').nullable();
    t.bigInteger('last_activity_ms').nullable();
  });
  for (const [table, column] of [
    ['wallet_task_counts', 'task_id'],
    ['wallet_robot_counts', 'robot_id'],
  ] as const) {
    await knex.schema.createTable(table, (t) => {
      t.text('wallet').notNullable();
      bytewise(t, column).notNullable();
      t.bigInteger('proof_count').notNullable().defaultTo(0);
      t.primary(['wallet', column]);
      t.index(['wallet', 'proof_count', column], `${table}_top`);
    });
  }
  await knex.schema.createTable('wallet_activity_daily', (t) => {
    t.text('wallet').notNullable();
    t.bigInteger('day_ms').notNullable();
    t.bigInteger('proof_count').notNullable().defaultTo(0);
    t.bigInteger('verification_count').notNullable().defaultTo(0);
    t.primary(['wallet', 'day_ms']);
  });

  await backfill(knex);
}

async function backfill(knex: Knex): Promise<void> {
  let after = 0;
  for (;;) {
    const rows: Array<{ id: number | string; envelope: string; received_at_ms: number | string }> = await knex('proofs')
      .select('id', 'envelope', 'received_at_ms')
      .where('id', '>', after)
      .orderBy('id')
      .limit(BACKFILL_BATCH);
    if (rows.length === 0) break;
    for (const row of rows) {
      const score = scoreProof(JSON.parse(row.envelope), Number(row.received_at_ms)).score;
      await knex('proofs').where('id', row.id).update({ score });
    }
    after = Number(rows[rows.length - 1]!.id);
  }
  await knex.raw(
    `insert into wallet_stats (wallet, proofs_submitted, scored_proofs, score_sum, score_min, score_max, first_activity_ms, last_activity_ms)
     select wallet, count(*), count(score), coalesce(sum(score), 0), min(score), max(score), min(received_at_ms), max(received_at_ms) from proofs group by wallet`,
  );
  await knex.raw(`insert into wallet_task_counts (wallet, task_id, proof_count) select wallet, task_id, count(*) from proofs group by wallet, task_id`);
  await knex.raw(
    `insert into wallet_robot_counts (wallet, robot_id, proof_count) select wallet, robot_id, count(*) from proofs where robot_id is not null group by wallet, robot_id`,
  );
  await knex.raw(
    `insert into wallet_activity_daily (wallet, day_ms, proof_count) select wallet, received_at_ms - (received_at_ms % ${DAY_MS}), count(*) from proofs group by 1, 2`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('wallet_activity_daily');
  await knex.schema.dropTable('wallet_robot_counts');
  await knex.schema.dropTable('wallet_task_counts');
  await knex.schema.dropTable('wallet_stats');
  await knex.schema.alterTable('proofs', (t) => t.dropColumn('score'));
  await knex.schema.alterTable('device_groups', (t) => t.dropColumn('color'));
  await knex.schema.alterTable('devices', (t) => {
    t.dropIndex(['wallet', 'sort_order', 'device_id'], 'devices_wallet_order');
    for (const c of ['hidden_at_ms', 'sort_order', 'description', 'device_type']) t.dropColumn(c);
  });
  await knex.schema.alterTable('device_health', (t) => {
    for (const c of [
      'cpu_temperature',
      'memory_used_mb',
      'memory_total_mb',
      'battery_charging',
      'disk_percent',
      'network_connected',
      'network_type',
      'custom_metrics',
      'status_derived',
    ])
      t.dropColumn(c);
  });
}
