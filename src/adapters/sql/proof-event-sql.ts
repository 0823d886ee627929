import { statusAfterContactSql } from './device-proof-counts.js';

/**
 * The events a proof write announces, in the statement (SQLite) or transaction (PostgreSQL)
 * that stores the proof: `proof.accepted` for each proof newly stored for its wallet, and
 * `device.status_changed` when that proof changes its device's status (a device back from
 * silence, or seen for the first time). Their data is the JSON that is sent (docs/events.md),
 * built here by the database, which has every value at hand; the times are written exactly
 * as toRfc3339 writes them, from whole milliseconds.
 */

/** RFC 3339 UTC with milliseconds of a millisecond count, on each database. */
export const rfc3339Sql = (ms: string, dialect: 'sqlite' | 'postgres'): string =>
  dialect === 'sqlite'
    ? `strftime('%Y-%m-%dT%H:%M:%S', ${ms} / 1000, 'unixepoch') || printf('.%03dZ', ${ms} % 1000)`
    : `to_char(to_timestamp(${ms} / 1000) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') || '.' || lpad((${ms} % 1000)::text, 3, '0') || 'Z'`;

/** The members of `proof.accepted`, over a row `p` of proofs and its leaf index (an SQL expression). */
const acceptedMembers = (p: string, logIndex: string, dialect: 'sqlite' | 'postgres'): string =>
  `'proof_id', ${p}.proof_id, 'log_index', ${logIndex}, 'task_id', ${p}.task_id, 'robot_id', ${p}.robot_id, 'run_id', ${p}.run_id,
   'created_at', ${p}.created_at, 'received_at', ${rfc3339Sql(`${p}.received_at_ms`, dialect)}, 'signer_public_key_b64', ${p}.signer_public_key_b64`;

const EVENT_INSERT = 'insert into main.events (wallet, type, at_ms, log_index, target, data)';

/**
 * SQLite trigger statement: the inserted row's `proof.accepted`. In the log's trigger it runs
 * after the leaf is given, so `logIndex` reads it; without sequencing it is null.
 */
export const sqliteAcceptedEvent = (logIndex: string): string =>
  `${EVENT_INSERT} values (new.wallet, 'proof.accepted', new.received_at_ms, ${logIndex}, null, json_object(${acceptedMembers('new', logIndex, 'sqlite')}))`;

/**
 * SQLite: the `device.status_changed` a proof causes, for the device `device` of wallet
 * `wallet` seen at `atMs` (SQL expressions: the trigger's `new` columns, or bound values).
 * It runs before the device's upsert, so `d` is the device as it was: absent (a new device,
 * announced from null) or with the status last announced. `qualifies` is the device-id rule.
 */
export const sqliteStatusEvent = (wallet: string, device: string, atMs: string, qualifies: string): string =>
  `${EVENT_INSERT}
    select ${wallet}, 'device.status_changed', ${atMs}, null, null,
      json_object('device_id', ${device}, 'from', d.announced_status, 'to', ${statusAfterContactSql('d.last_health_status')},
                  'why', 'proof', 'last_seen_at', ${rfc3339Sql(atMs, 'sqlite')})
    from (select 1) left join main.devices d on d.wallet = ${wallet} and d.device_id = ${device}
    where ${qualifies} and ${statusAfterContactSql('d.last_health_status')} is not d.announced_status`;

/**
 * PostgreSQL: the batch statement's event CTEs. `inserted` holds the proofs stored, `input`
 * the batch with its positions, `leaf` the SQL of an inserted row's leaf index (null without
 * sequencing). Events are written in batch order; the statement runs under the events lock
 * (event-rows.ts), taken with the log's.
 */
export const postgresEventCtes = (leaf: (row: string) => string): string => `accepted_events as (
  insert into events (wallet, type, at_ms, log_index, target, data)
  select i.wallet, 'proof.accepted', i.received_at_ms, ${leaf('i')}, null, json_build_object(${acceptedMembers('i', leaf('i'), 'postgres')})::text
  from inserted i join input on input.wallet = i.wallet and input.proof_id = i.proof_id
  order by input.position
), device_changes as (
  select input.wallet, input.device_id, min(inserted.received_at_ms) as at_ms
  from inserted join input on input.wallet = inserted.wallet and input.proof_id = inserted.proof_id
  where input.device_id is not null
  group by input.wallet, input.device_id
), status_events as (
  insert into events (wallet, type, at_ms, log_index, target, data)
  select c.wallet, 'device.status_changed', c.at_ms, null, null,
    json_build_object('device_id', c.device_id, 'from', d.announced_status, 'to', ${statusAfterContactSql('d.last_health_status')},
                      'why', 'proof', 'last_seen_at', ${rfc3339Sql('c.at_ms', 'postgres')})::text
  from device_changes c left join devices d on d.wallet = c.wallet and d.device_id = c.device_id
  where ${statusAfterContactSql('d.last_health_status')} is distinct from d.announced_status
  order by c.wallet collate "C", c.device_id collate "C"
)`;
