import type { Knex } from 'knex';

/**
 * Least-privilege API keys (docs/identity.md, "Scopes").
 *
 * - `api_keys.scopes`: the key's scopes, space-separated, or null for every scope. Keys made
 *   before scopes existed keep null: everything that worked with them still does.
 * - `api_keys.robot_ids`: a JSON array of the robots the key acts for, or null for any.
 * - `api_keys.expires_at_ms`, `disabled_at_ms`: when the key stops working, and when its
 *   owner disabled it (null while enabled).
 * - `api_key_endpoint_usage_daily`: requests and errors of each key per route template and UTC
 *   day, beside the per-day totals of `api_key_usage_daily`; written in batches like them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.text('scopes').nullable();
    t.text('robot_ids').nullable();
    t.bigInteger('expires_at_ms').nullable();
    t.bigInteger('disabled_at_ms').nullable();
  });
  await knex.schema.createTable('api_key_endpoint_usage_daily', (t) => {
    t.string('key_id', 64).notNullable();
    t.bigInteger('day_ms').notNullable();
    // The method and route template, e.g. `POST /v1/proofs`.
    t.text('endpoint').notNullable();
    t.bigInteger('request_count').notNullable().defaultTo(0);
    t.bigInteger('error_count').notNullable().defaultTo(0);
    t.primary(['key_id', 'day_ms', 'endpoint']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('api_key_endpoint_usage_daily');
  await knex.schema.alterTable('api_keys', (t) => {
    t.dropColumn('disabled_at_ms');
    t.dropColumn('expires_at_ms');
    t.dropColumn('robot_ids');
    t.dropColumn('scopes');
  });
}
