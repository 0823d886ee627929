import { DEVICE_ID_MAX, isDeviceId } from '../../domain/fleet/device.js';
import { DEVICE_UPSERT_COLUMNS, deviceUpsertConflict } from './device-proof-counts.js';
import { sqliteAcceptedEvent, sqliteStatusEvent } from './proof-event-sql.js';
import { NEW_ROW_COLUMNS } from './proof-rows.js';
import { WALLET_STATS_TRIGGER_STATEMENTS } from './wallet-stats-sql.js';

/** The SQL of the proof write on SQLite (sqlite-proof-writer.ts runs it). */

/** Rows per statement: 14 values a proof keeps every statement well under SQLite's 32,766 variables. */
export const ROWS_PER_STATEMENT = 500;

/** The columns of an insert: a new row's, and its wallet's key. */
export const INSERT_COLUMNS = [...NEW_ROW_COLUMNS, 'wallet_id'] as const;

/** One INSERT … ON CONFLICT DO NOTHING of `rows` proofs, returning the rows it inserted. */
export const insertProofsSql = (rows: number): string =>
  `insert into proofs (${INSERT_COLUMNS.join(', ')}) values ${placeholders(rows, INSERT_COLUMNS.length)}
       on conflict (wallet_id, proof_id) do nothing returning id, wallet, proof_id`;

/** The stored copies of `rows` proofs, by (wallet_id, proof_id). */
export const storedProofsSql = (rows: number): string =>
  `select ${NEW_ROW_COLUMNS.join(', ')} from proofs where (wallet_id, proof_id) in (values ${placeholders(rows, 2)})`;

/** The leaf indexes of `count` proof_ids. */
export const leafIndexesSql = (count: number): string => `select proof_id, leaf_index from log_leaves where proof_id in (${list(count)})`;

/** Adds `count` wallets, those not known yet; then reads their keys. */
export const insertWalletsSql = (count: number): string => `insert into wallets (address) values ${placeholders(count, 1)} on conflict (address) do nothing`;
export const walletKeysSql = (count: number): string => `select id, address from wallets where address in (${list(count)})`;

/**
 * Runs inside each INSERT of the writer's connection, once per proof it inserts (never for one
 * the conflict clause skipped): the proof's distinct topics go into proof_topics, its
 * device's figures move as `deviceCounts` + `deviceUpsertSql` would move them (its status
 * change announced first, while the row still holds the status last announced), and so do its
 * wallet's statistics (wallet-stats-sql.ts). TEMP: it lives
 * on this connection only, so the schema, the other connections and PostgreSQL do not change.
 *
 * A device id is 1 to DEVICE_ID_MAX characters without U+0000 (isDeviceId). The trigger takes
 * the ids of 1 to DEVICE_ID_MAX UTF-8 bytes with no zero byte, which all qualify (a character
 * takes at least one byte), and
 * the writer counts the longer ones itself (countedHere), so the rule stays in one place.
 */
const TRIGGER_DEVICE_RULE = `length(cast(new.robot_id as blob)) between 1 and ${DEVICE_ID_MAX} and instr(cast(new.robot_id as blob), x'00') = 0`;

export const AFTER_INSERT_TRIGGER = `create temp trigger if not exists proofs_topics_and_devices after insert on main.proofs begin
  insert into main.proof_topics (proof_pk, wallet_id, created_at_ms, topic) select distinct new.id, new.wallet_id, new.created_at_ms, value from json_each(new.topics);
  ${sqliteStatusEvent('new.wallet', 'new.robot_id', 'new.received_at_ms', TRIGGER_DEVICE_RULE)};
  insert into main.devices (${DEVICE_UPSERT_COLUMNS})
    select new.wallet, new.robot_id, new.received_at_ms, new.received_at_ms, new.received_at_ms, 1, 'online'
    where ${TRIGGER_DEVICE_RULE}
    ${deviceUpsertConflict('min', 'max')};
  ${WALLET_STATS_TRIGGER_STATEMENTS}
end`;

/**
 * The transparency log's sequencing, inside the same INSERT (and so the same transaction) as
 * the proof: a proof_id the log has not seen gets the next leaf index, max + 1 (one step down
 * the rowid b-tree); then the proof's `proof.accepted`, which carries that index. SQLite runs one write transaction at a time, across every connection and
 * process, so no two inserts can take the same index, and none leaves a gap. A proof_id
 * already in the log, stored again by any wallet, adds no leaf.
 */
export const LOG_LEAF_TRIGGER = `drop trigger if exists temp.proofs_unsequenced_events;
create temp trigger if not exists proofs_log_leaves after insert on main.proofs begin
  insert into main.log_leaves (leaf_index, proof_id)
    select coalesce((select max(leaf_index) from main.log_leaves), -1) + 1, new.proof_id
    where not exists (select 1 from main.log_leaves where proof_id = new.proof_id);
  ${sqliteAcceptedEvent('(select leaf_index from main.log_leaves where proof_id = new.proof_id)')};
end`;
/** Without sequencing (to measure what it costs): no leaf, and `proof.accepted` with no log index. */
export const UNSEQUENCED_TRIGGER = `drop trigger if exists temp.proofs_log_leaves;
create temp trigger if not exists proofs_unsequenced_events after insert on main.proofs begin
  ${sqliteAcceptedEvent('null')};
end`;

/** The `device.status_changed` of a device the writer counts itself (countedHere), before its upsert. */
export const STATUS_EVENT_SQL = sqliteStatusEvent('?1', '?2', '?3', '1');

/** A device id the trigger leaves to the writer: more than DEVICE_ID_MAX bytes, yet a device id. */
export function countedHere(robotId: string | null): boolean {
  return robotId !== null && Buffer.byteLength(robotId, 'utf8') > DEVICE_ID_MAX && isDeviceId(robotId);
}

const list = (count: number): string => Array.from({ length: count }, () => '?').join(', ');

function placeholders(rows: number, columns: number): string {
  const row = `(${Array.from({ length: columns }, () => '?').join(', ')})`;
  return Array.from({ length: rows }, () => row).join(', ');
}

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
