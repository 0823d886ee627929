import type { Knex } from 'knex';

/**
 * Devices, their groups and health history. Shared by SQLite and PostgreSQL.
 *
 * A device row carries its running figures (proof_count, last_seen_ms, last health), kept in
 * the same transaction as the proof or report that changes them; the fleet overview then
 * reads devices only, never proofs, and costs the same with 2,000 or 2,000,000 proofs.
 *
 * Ids and group names are ordered bytewise on both databases (PostgreSQL: COLLATE "C"), so
 * keyset pages agree across dialects and with the cursors.
 */
export async function up(knex: Knex): Promise<void> {
  const postgres = knex.client.dialect === 'postgresql';
  const bytewise = (t: Knex.CreateTableBuilder, column: string) => (postgres ? t.specificType(column, 'text collate "C"') : t.text(column));

  await knex.schema.createTable('device_groups', (t) => {
    t.text('wallet').notNullable();
    t.text('group_id').notNullable();
    bytewise(t, 'name').notNullable();
    t.text('description').nullable();
    t.bigInteger('created_at_ms').notNullable();
    t.primary(['wallet', 'group_id']);
    // Unique per wallet (a retried create cannot make twins) and the order of the group list.
    t.unique(['wallet', 'name'], { indexName: 'device_groups_wallet_name_key' });
  });

  await knex.schema.createTable('devices', (t) => {
    t.text('wallet').notNullable();
    bytewise(t, 'device_id').notNullable();
    t.text('name').nullable();
    t.text('group_id').nullable();
    t.bigInteger('first_seen_ms').notNullable();
    t.bigInteger('last_seen_ms').notNullable();
    t.bigInteger('last_proof_at_ms').nullable();
    t.bigInteger('proof_count').notNullable().defaultTo(0);
    t.text('last_health').nullable();
    t.text('last_health_status').nullable();
    t.bigInteger('last_health_at_ms').nullable();
    // The key serves lookups and the device list (by id, per wallet).
    t.primary(['wallet', 'device_id']);
    // The group must be the same wallet's: the database itself refuses to put one wallet's
    // device in another wallet's group. No ON DELETE action: deleting a group unassigns its
    // devices explicitly first (SET NULL would also null the wallet column).
    t.foreign(['wallet', 'group_id'], 'devices_group_fk').references(['wallet', 'group_id']).inTable('device_groups');
    t.index(['wallet', 'group_id', 'device_id'], 'devices_wallet_group');
  });

  await knex.schema.createTable('device_health', (t) => {
    t.bigIncrements('id');
    t.text('wallet').notNullable();
    bytewise(t, 'device_id').notNullable();
    t.bigInteger('received_at_ms').notNullable();
    t.text('status').notNullable();
    t.double('cpu_percent').nullable();
    t.double('memory_percent').nullable();
    t.double('battery_percent').nullable();
    t.double('temperature_c').nullable();
    t.double('uptime_s').nullable();
    t.text('message').nullable();
    t.text('metrics').nullable();
    t.foreign(['wallet', 'device_id'], 'device_health_device_fk').references(['wallet', 'device_id']).inTable('devices').onDelete('CASCADE');
    // History newest first, and the pruning of a device's oldest reports.
    t.index(['wallet', 'device_id', 'id'], 'device_health_wallet_device');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('device_health');
  await knex.schema.dropTable('devices');
  await knex.schema.dropTable('device_groups');
}
