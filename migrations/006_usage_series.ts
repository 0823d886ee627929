import type { Knex } from 'knex';

/**
 * Counters behind the dashboard's charts: requests and errors of each API key per UTC day,
 * and proof submissions refused (verification failed) per wallet and UTC hour. Both are
 * written in batches by in-memory counters (one upsert per key or wallet per flush), never on
 * a request's path; proofs per hour or day come from `proofs` itself.
 *
 * Rows of a deleted key stay but can no longer be read: the usage route answers only for keys
 * the wallet still has, and key ids are never reused.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_key_usage_daily', (t) => {
    t.string('key_id', 64).notNullable();
    // Start of the UTC day, in ms.
    t.bigInteger('day_ms').notNullable();
    t.bigInteger('request_count').notNullable().defaultTo(0);
    t.bigInteger('error_count').notNullable().defaultTo(0);
    t.primary(['key_id', 'day_ms']);
  });
  await knex.schema.createTable('proof_rejections_hourly', (t) => {
    t.text('wallet').notNullable();
    // Start of the UTC hour, in ms.
    t.bigInteger('hour_ms').notNullable();
    t.bigInteger('rejected_count').notNullable().defaultTo(0);
    t.primary(['wallet', 'hour_ms']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('proof_rejections_hourly');
  await knex.schema.dropTable('api_key_usage_daily');
}
