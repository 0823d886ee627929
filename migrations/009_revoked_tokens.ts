import type { Knex } from 'knex';

/**
 * Dashboard tokens signed out before they expire, by their `jti`. Every instance on the
 * database reads the same list, so a sign-out on one is honoured by all. A row is needed only
 * until the token would have expired anyway (`expires_at_ms`); older rows are deleted.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('revoked_tokens', (t) => {
    t.string('jti', 64).primary();
    t.bigInteger('expires_at_ms').notNullable().index();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('revoked_tokens');
}
