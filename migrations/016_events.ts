import type { Knex } from 'knex';

/**
 * Events (docs/events.md): what happened to a wallet's proofs, devices and keys, kept for
 * EVENT_RETENTION_DAYS, and the webhooks that deliver them.
 *
 * - `events`: the outbox. A row is written in the transaction of the change it announces, so
 *   a stored proof always has its `proof.accepted` and a rolled-back one never does. `id` is
 *   the event's position: every transaction that writes events holds one lock while it does
 *   (SQLite's write lock; on PostgreSQL an advisory lock, see sql/event-rows.ts), so ids are
 *   given in commit order, and a reader that saw id n has seen every event before it: a
 *   stream resumes after its last id and misses nothing. AUTOINCREMENT on SQLite: an id is
 *   never given twice, even after retention empties the table.
 * - `webhook_endpoints`: a wallet's receivers, their filters and secrets (a second secret
 *   stays valid for a while after a rotation).
 * - `webhook_deliveries`: one row per event and endpoint, its state and next attempt;
 *   `webhook_attempts` the log of each try.
 * - `event_cursors`: how far a job has read the events (the webhook fan-out, the log's
 *   `proof.logged` announcements).
 * - `leases`: which instance runs a job that must run on one at a time (the fan-out, the
 *   offline sweep, retention).
 * - `devices.announced_status`: the status last announced for a device, so a change is
 *   announced once, by whichever writer or sweep makes it. Devices known before this
 *   migration start with none: the sweep adopts their status without announcing it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('events', (t) => {
    t.bigIncrements('id');
    t.text('wallet').notNullable();
    t.text('type').notNullable();
    t.bigInteger('at_ms').notNullable();
    // proof.accepted: the proof's leaf, so the log's announcer finds what a checkpoint covers.
    t.bigInteger('log_index').nullable();
    // An event for one endpoint only (webhook.test): never in the feed nor the streams.
    t.text('target').nullable();
    t.text('data').notNullable();
    t.index(['wallet', 'id'], 'events_wallet_id');
  });
  await knex.schema.createTable('webhook_endpoints', (t) => {
    t.text('endpoint_id').primary();
    t.text('wallet').notNullable();
    t.text('url').notNullable();
    t.text('description').nullable();
    // A JSON array of event types, or null for every type.
    t.text('event_types').nullable();
    t.boolean('enabled').notNullable();
    t.text('disabled_reason').nullable();
    t.text('secret').notNullable();
    t.text('previous_secret').nullable();
    t.bigInteger('previous_secret_until_ms').nullable();
    t.bigInteger('created_at_ms').notNullable();
    t.bigInteger('updated_at_ms').notNullable();
    t.bigInteger('failing_since_ms').nullable();
    t.bigInteger('last_success_at_ms').nullable();
    t.index(['wallet', 'created_at_ms'], 'webhook_endpoints_wallet');
  });
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.bigIncrements('id');
    t.text('endpoint_id').notNullable().references('endpoint_id').inTable('webhook_endpoints').onDelete('CASCADE');
    // No foreign key: events go by retention, a delivery's record with its endpoint or by age.
    t.bigInteger('event_id').notNullable();
    t.text('event_type').notNullable();
    // pending (an attempt is due at next_attempt_at_ms), succeeded, failed (no attempt left).
    t.text('state').notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.bigInteger('next_attempt_at_ms').nullable();
    // Claimed by an instance until then: after a crash, another takes it when this passes.
    t.bigInteger('locked_until_ms').nullable();
    // The next attempt was asked for by the owner (a redelivery), not by the schedule.
    t.boolean('manual').notNullable().defaultTo(false);
    t.integer('last_status_code').nullable();
    t.text('last_error').nullable();
    t.bigInteger('last_attempt_at_ms').nullable();
    t.bigInteger('created_at_ms').notNullable();
    t.unique(['endpoint_id', 'event_id'], { indexName: 'webhook_deliveries_endpoint_event' });
    t.index(['endpoint_id', 'id'], 'webhook_deliveries_endpoint');
  });
  // What is due, oldest first, and each endpoint's line; only pending rows are in them.
  await knex.raw(`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at_ms) where state = 'pending'`);
  await knex.raw(`create index webhook_deliveries_line on webhook_deliveries (endpoint_id, next_attempt_at_ms, id) where state = 'pending'`);
  await knex.raw(`create index webhook_deliveries_created on webhook_deliveries (created_at_ms)`);
  await knex.schema.createTable('webhook_attempts', (t) => {
    t.bigInteger('delivery_id').notNullable().references('id').inTable('webhook_deliveries').onDelete('CASCADE');
    t.integer('attempt').notNullable();
    t.bigInteger('at_ms').notNullable();
    t.integer('status_code').nullable();
    t.integer('latency_ms').notNullable();
    t.text('error').nullable();
    t.text('response_excerpt').nullable();
    // scheduled, or manual (a redelivery asked for by the owner).
    t.text('trigger').notNullable();
    t.primary(['delivery_id', 'attempt']);
  });
  await knex.schema.createTable('event_cursors', (t) => {
    t.text('name').primary();
    t.bigInteger('event_id').notNullable();
  });
  await knex.schema.createTable('leases', (t) => {
    t.text('name').primary();
    t.text('holder').nullable();
    t.bigInteger('until_ms').nullable();
  });
  await knex.schema.alterTable('devices', (t) => {
    t.text('announced_status').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('devices', (t) => {
    t.dropColumn('announced_status');
  });
  await knex.schema.dropTable('leases');
  await knex.schema.dropTable('event_cursors');
  await knex.schema.dropTable('webhook_attempts');
  await knex.schema.dropTable('webhook_deliveries');
  await knex.schema.dropTable('webhook_endpoints');
  await knex.schema.dropTable('events');
}
