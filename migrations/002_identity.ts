import type { Knex } from 'knex';

/**
 * Identity: API keys (stored as SHA-256 only, with their usage counters), sign-in challenges
 * (single-use nonces), and the local ledger of access-token balances used when no Solana RPC
 * is configured. Shared by SQLite and PostgreSQL.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_keys', (t) => {
    t.string('key_id', 64).primary();
    t.text('wallet').notNullable();
    t.text('name').notNullable();
    t.string('prefix', 32).notNullable();
    // Lower-case hex SHA-256 of the key; the key itself is never stored.
    t.string('key_hash', 64).notNullable().unique({ indexName: 'api_keys_key_hash_key' });
    t.bigInteger('created_at_ms').notNullable();
    t.bigInteger('last_used_at_ms').nullable();
    t.bigInteger('request_count').notNullable().defaultTo(0);
    t.bigInteger('error_count').notNullable().defaultTo(0);
    t.index(['wallet', 'created_at_ms'], 'api_keys_wallet_created');
  });
  await knex.schema.createTable('sign_in_nonces', (t) => {
    t.string('nonce', 64).primary();
    t.text('wallet').notNullable();
    // The exact challenge text issued; verification compares the signed text with it.
    t.text('message').notNullable();
    t.bigInteger('issued_at_ms').notNullable();
    t.bigInteger('expires_at_ms').notNullable();
    t.bigInteger('consumed_at_ms').nullable();
    t.index(['expires_at_ms'], 'sign_in_nonces_expires');
  });
  await knex.schema.createTable('ledger_balances', (t) => {
    t.text('wallet').notNullable();
    t.text('mint').notNullable();
    // A decimal string (e.g. "50000", "12.5"): exact, with no float rounding on either dialect.
    t.text('amount').notNullable();
    t.bigInteger('updated_at_ms').notNullable();
    t.primary(['mint', 'wallet']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('ledger_balances');
  await knex.schema.dropTable('sign_in_nonces');
  await knex.schema.dropTable('api_keys');
}
