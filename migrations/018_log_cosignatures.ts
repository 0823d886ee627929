import type { Knex } from 'knex';

/**
 * The log's witnesses (docs/log.md, "Witnesses").
 *
 * - `log_cosignatures`: the cosignature line each witness returned for a checkpoint size (the
 *   latest one kept), appended to that checkpoint's note when it is served.
 * - `log_witnesses`: per witness, the size it last cosigned and when, and its last error (null
 *   once a request succeeds again).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('log_cosignatures', (t) => {
    t.bigInteger('tree_size').notNullable();
    t.string('witness', 200).notNullable();
    t.text('line').notNullable();
    t.bigInteger('cosigned_at_ms').notNullable();
    t.primary(['tree_size', 'witness']);
  });
  await knex.schema.createTable('log_witnesses', (t) => {
    t.string('witness', 200).notNullable().primary();
    t.bigInteger('last_cosigned_size').nullable();
    t.bigInteger('last_cosigned_at_ms').nullable();
    t.text('last_error').nullable();
    t.bigInteger('last_error_at_ms').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('log_witnesses');
  await knex.schema.dropTable('log_cosignatures');
}
