import type { Knex } from 'knex';
import { deviceCounts, deviceUpsertSql, deviceUpsertValues, type InsertedProof } from '../../src/adapters/sql/device-proof-counts.js';
import { insertEvents, lockEvents } from '../../src/adapters/sql/event-rows.js';
import type { NewEvent } from '../../src/domain/events/event.js';
import { statusOf, type HealthMark } from '../../src/domain/fleet/device-status.js';
import { toRfc3339 } from '../../src/domain/protocol/datetime.js';
import type { NewProofRow, ProofRow } from '../../src/adapters/sql/proof-rows.js';
import {
  firstOfEachProof,
  leafIndexOf,
  outcomesInOrder,
  proofKey,
  type PendingRow,
  type ProofWriter,
  type RowOutcome,
} from '../../src/adapters/sql/proof-writer.js';
import { knexWalletLookup, WalletKeys } from '../../src/adapters/sql/wallet-keys.js';

/**
 * The proof write as a plain Knex transaction, one statement per table: what the registry
 * did before each database got SQL of its own (sqlite-proof-writer.ts, postgres-proof-writer.ts).
 * Kept as the tests' oracle: those writers must store exactly what this stores.
 */
const TOPIC_ROWS_PER_INSERT = 500;

export class KnexProofWriter implements ProofWriter {
  private readonly walletKeys: WalletKeys;

  /** `layout: 'before-015'`: topic rows without created_at_ms, as the schema had them before 015_topic_times, and no events (016). */
  constructor(
    private readonly knex: Knex,
    private readonly layout: 'latest' | 'before-015' = 'latest',
  ) {
    this.walletKeys = new WalletKeys(knexWalletLookup(knex));
  }

  async write(batch: readonly PendingRow[]): Promise<RowOutcome[]> {
    // Before the transaction: a key remembered from a transaction that then rolled back would not exist.
    const keys = await this.walletKeys.of(batch.map((p) => p.row.wallet));
    return this.knex.transaction((trx) => insertBatch(trx, batch, keys, this.layout));
  }
}

/** Inserts what is new, reads what already existed; outcomes come back in `batch` order. */
async function insertBatch(
  trx: Knex.Transaction,
  batch: readonly PendingRow[],
  walletKeys: ReadonlyMap<string, number>,
  layout: 'latest' | 'before-015',
): Promise<RowOutcome[]> {
  const unique = firstOfEachProof(batch);
  const inserted: Array<{ id: number | string; wallet: string; proof_id: string }> = await trx('proofs')
    .insert(unique.map((p) => ({ ...p.row, wallet_id: WalletKeys.get(walletKeys, p.row.wallet) })))
    .onConflict(['wallet_id', 'proof_id'])
    .ignore()
    .returning(['id', 'wallet', 'proof_id']);
  const newIds = new Map(inserted.map((r) => [proofKey(r), r.id]));

  const topicRows = unique.flatMap((p) => {
    const id = newIds.get(proofKey(p.row));
    const walletId = WalletKeys.get(walletKeys, p.row.wallet);
    if (id === undefined) return [];
    return p.topics.map((topic) =>
      layout === 'latest' ? { proof_pk: id, wallet_id: walletId, created_at_ms: p.row.created_at_ms, topic } : { proof_pk: id, wallet_id: walletId, topic },
    );
  });
  for (let i = 0; i < topicRows.length; i += TOPIC_ROWS_PER_INSERT) {
    await trx('proof_topics').insert(topicRows.slice(i, i + TOPIC_ROWS_PER_INSERT));
  }
  const announcing = layout === 'latest';
  if (announcing) await lockEvents(trx);
  // Devices move with the proofs actually inserted, in this same transaction (never for a
  // duplicate), each status change announced first.
  const fresh = unique.filter((p) => newIds.has(proofKey(p.row))).map((p) => p.row);
  if (announcing) await announceStatusChanges(trx, fresh);
  await countDeviceProofs(trx, fresh, announcing);

  // Under PostgreSQL a conflicting insert waited for the other transaction to commit; this
  // statement gets a fresh snapshot (READ COMMITTED) and so sees the row that won.
  const newKeys = new Set(newIds.keys());
  const leaves = await sequence(trx, unique, newKeys);
  if (announcing)
    await insertEvents(
      trx,
      fresh.map((row) => acceptedEvent(row, leaves.get(row.proof_id) ?? null)),
    );
  return outcomesInOrder(batch, newKeys, await storedCopies(trx, unique, newKeys, walletKeys), leaves);
}

/** `proof.accepted` as docs/events.md describes it. */
const acceptedEvent = (row: NewProofRow, logIndex: number | null): NewEvent => ({
  wallet: row.wallet,
  type: 'proof.accepted',
  atMs: Number(row.received_at_ms),
  logIndex,
  data: {
    proof_id: row.proof_id,
    log_index: logIndex,
    task_id: row.task_id,
    robot_id: row.robot_id,
    run_id: row.run_id,
    created_at: row.created_at,
    received_at: toRfc3339(Number(row.received_at_ms)),
    signer_public_key_b64: row.signer_public_key_b64,
  },
});

/** A device's status right after a proof is `statusOf('recent', its last health)`; announced when it differs from the last announced. */
async function announceStatusChanges(trx: Knex.Transaction, proofs: readonly InsertedProof[]): Promise<void> {
  for (const d of deviceCounts(proofs)) {
    const stored: { announced_status: string | null; last_health_status: string | null } | undefined = await trx('devices')
      .select('announced_status', 'last_health_status')
      .where({ wallet: d.wallet, device_id: d.deviceId })
      .first();
    const to = statusOf('recent', (stored?.last_health_status ?? 'none') as HealthMark);
    const from = stored?.announced_status ?? null;
    if (from === to) continue;
    await insertEvents(trx, [
      {
        wallet: d.wallet,
        type: 'device.status_changed',
        atMs: d.first,
        data: { device_id: d.deviceId, from, to, why: 'proof', last_seen_at: toRfc3339(d.first) },
      },
    ]);
  }
}

/**
 * The transparency log's sequencing, one leaf at a time: each proof_id stored here that has
 * no leaf gets max + 1, in the order the proofs were inserted; then every proof_id's index.
 */
async function sequence(trx: Knex.Transaction, unique: readonly PendingRow[], inserted: ReadonlySet<string>): Promise<Map<string, number>> {
  for (const p of unique) {
    if (!inserted.has(proofKey(p.row))) continue;
    if (await trx('log_leaves').where('proof_id', p.row.proof_id).first()) continue;
    const [{ next }] = (await trx('log_leaves').select(trx.raw('coalesce(max(leaf_index) + 1, 0) as next'))) as [{ next: number | string }];
    await trx('log_leaves').insert({ leaf_index: leafIndexOf(next), proof_id: p.row.proof_id });
  }
  const rows: Array<{ proof_id: string; leaf_index: number | string }> = await trx('log_leaves').whereIn('proof_id', [
    ...new Set(unique.map((p) => p.row.proof_id)),
  ]);
  return new Map(rows.map((r) => [r.proof_id, leafIndexOf(r.leaf_index)]));
}

/** The stored rows of the proofs in `unique` that were not inserted (`inserted` holds proofKeys). */
async function storedCopies(
  q: Knex | Knex.Transaction,
  unique: readonly PendingRow[],
  inserted: ReadonlySet<string>,
  walletKeys: ReadonlyMap<string, number>,
): Promise<NewProofRow[]> {
  const missing = unique.filter((p) => !inserted.has(proofKey(p.row))).map((p) => [WalletKeys.get(walletKeys, p.row.wallet), p.row.proof_id]);
  if (missing.length === 0) return [];
  const rows: ProofRow[] = await q<ProofRow>('proofs').whereIn(['wallet_id', 'proof_id'], missing);
  return rows.map(({ id: _id, wallet_id: _walletId, ...row }) => row);
}

const ROWS_PER_UPSERT = 200;

/**
 * Creates or updates the devices of proofs just inserted, in the caller's transaction: a
 * device then never lacks its proofs nor counts one that was not stored (a duplicate is not
 * passed here). The counts are added in the database (`proof_count + n`) under the row lock,
 * so concurrent transactions never lose an increment.
 */
async function countDeviceProofs(trx: Knex.Transaction, proofs: readonly InsertedProof[], announcing: boolean): Promise<void> {
  const devices = deviceCounts(proofs);
  const [greatest, least] = trx.client.dialect === 'postgresql' ? ['greatest', 'least'] : ['max', 'min'];
  for (let i = 0; i < devices.length; i += ROWS_PER_UPSERT) {
    const chunk = devices.slice(i, i + ROWS_PER_UPSERT);
    await trx.raw(
      announcing ? deviceUpsertSql(chunk.length, least, greatest) : withoutAnnouncedStatus(deviceUpsertSql(chunk.length, least, greatest)),
      deviceUpsertValues(chunk),
    );
  }
}

/** The device upsert as it was before devices had an announced status (016_events). */
function withoutAnnouncedStatus(sql: string): string {
  const old = sql
    .replace(', announced_status)', ')')
    .replaceAll(", 'online')", ')')
    .replace(/\n\s*announced_status = [^\n]*,/, '');
  if (old.includes('announced_status')) throw new Error('the device upsert changed: teach withoutAnnouncedStatus its new form');
  return old;
}
