import type { ExecutionContext } from 'ava';
import { NodeSha256 } from '../../../src/adapters/crypto/node-sha256.js';
import { COPIED_TABLES } from '../../../src/adapters/sql/copy-database.js';
import { KnexProofStore, type Database } from '../../../src/adapters/sql/index.js';
import { KnexLogTileStore } from '../../../src/adapters/sql/knex-log-tile-store.js';
import { KnexSequencedLeaves } from '../../../src/adapters/sql/knex-sequenced-leaves.js';
import { IntegrateLeaves } from '../../../src/application/log/integrate-leaves.js';
import type { ProofRecord } from '../../../src/domain/proof/proof-record.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../../support/mothers.js';

// The database the copy tests fill, and what they compare: the rows of every table, and the service a copy gives.
export const at = (minute: number) => new Date(Date.parse('2026-11-20T00:00:00Z') + minute * 60_000).toISOString();
export const MS = Date.parse('2026-11-20T00:00:00Z');

/**
 * A registry's database with rows in every table: proofs through the store (so the writer
 * fills the topic, device, statistics and log tables as it does in service, one proof id in
 * two wallets), the log integrated into tiles, and a row or two of every other table, with
 * the values that differ between the two databases: booleans, floats, blobs, NULLs, text with
 * quotes and non-ASCII characters.
 */
export async function seed(db: Database): Promise<ProofRecord[]> {
  const store = new KnexProofStore(db);
  const proofs: ProofRecord[] = [];
  for (let i = 0; i < 9; i++) {
    const spec = {
      taskId: `task-${i % 3}`,
      robotId: `robot-${i % 2}`,
      runId: `run-${i % 4}`,
      topics: [i % 2 ? 'nav/pose' : 'arm/joint'],
      createdAt: at(i),
      meta: { site: i === 4 ? 'quasar-lyon' : 'paris "nord" — été' },
      seed: i % 5,
    };
    const r = aProofRecord(i % 3 ? WALLET_A : WALLET_B, spec);
    await store.add(r);
    proofs.push(r);
  }
  // The same proof in the other wallet: a second row, the same leaf.
  const again = aProofRecord(WALLET_A, {
    taskId: 'task-0',
    robotId: 'robot-0',
    runId: 'run-0',
    topics: ['arm/joint'],
    createdAt: at(0),
    meta: { site: 'paris "nord" — été' },
    seed: 0,
  });
  await store.add(again);
  proofs.push(again);
  await new IntegrateLeaves(new KnexLogTileStore(db), new KnexSequencedLeaves(db), new NodeSha256()).execute();
  const k = db.knex;
  await k('log_checkpoints').insert({
    tree_size: 9,
    root_hash: Buffer.from('00ff10'.repeat(10) + 'ab', 'hex'),
    note: 'registry.example/log\n9\nq83+AA==\n\n— registry.example abc=\n',
    published_at_ms: MS + 1,
  });
  await k('log_cosignatures').insert({ tree_size: 9, witness: 'witness.example', line: '— witness.example AAAA\n', cosigned_at_ms: MS + 2 });
  await k('log_witnesses').insert({ witness: 'witness.example', last_cosigned_size: 9, last_cosigned_at_ms: MS + 2, last_error: null, last_error_at_ms: null });
  await k('api_keys').insert([
    {
      key_id: 'k1',
      wallet: WALLET_A,
      name: "fleet 'north'",
      prefix: 'pr_live_ab',
      key_hash: 'a'.repeat(64),
      created_at_ms: MS,
      last_used_at_ms: null,
      request_count: 3,
      error_count: 1,
    },
    {
      key_id: 'k2',
      wallet: WALLET_B,
      name: 'ci',
      prefix: 'pr_live_cd',
      key_hash: 'b'.repeat(64),
      created_at_ms: MS + 5,
      last_used_at_ms: MS + 9,
      request_count: 0,
      error_count: 0,
      scopes: 'proofs:write health:write',
      robot_ids: '["r-1","r-2"]',
      expires_at_ms: MS + 86_400_000,
      disabled_at_ms: MS + 7,
    },
  ]);
  await k('api_key_usage_daily').insert({ key_id: 'k1', day_ms: MS, request_count: 3, error_count: 1 });
  await k('api_key_endpoint_usage_daily').insert({ key_id: 'k1', day_ms: MS, endpoint: 'POST /v1/proofs', request_count: 3, error_count: 1 });
  await k('sign_in_nonces').insert({
    nonce: 'n'.repeat(32),
    wallet: WALLET_A,
    message: 'Sign in to Proof Registry\nNonce: nnn',
    issued_at_ms: MS,
    expires_at_ms: MS + 300_000,
    consumed_at_ms: null,
  });
  await k('revoked_tokens').insert({ jti: 'j'.repeat(32), expires_at_ms: MS + 3_600_000 });
  await k('ledger_balances').insert({ wallet: WALLET_A, mint: 'So11111111111111111111111111111111111111112', amount: '50000.000001', updated_at_ms: MS });
  await k('device_groups').insert({ wallet: WALLET_A, group_id: 'g1', name: 'Hall B', description: null, created_at_ms: MS, color: '#ff8800' });
  await k('devices').where({ wallet: WALLET_A, device_id: 'robot-1' }).update({ group_id: 'g1', name: 'Arm «1»', hidden_at_ms: null, sort_order: 2 });
  await k('device_health').insert([
    {
      wallet: WALLET_A,
      device_id: 'robot-1',
      received_at_ms: MS,
      status: 'ok',
      cpu_percent: 85,
      memory_percent: 0.1,
      battery_percent: 99.5,
      temperature_c: -3.25,
      uptime_s: 3600,
      message: null,
      metrics: '{"fan":1}',
      battery_charging: true,
      network_connected: false,
      status_derived: false,
      disk_percent: null,
    },
    {
      wallet: WALLET_A,
      device_id: 'robot-1',
      received_at_ms: MS + 1,
      status: 'warning',
      cpu_percent: null,
      battery_charging: null,
      network_connected: true,
      status_derived: true,
      custom_metrics: '{"x":1e-7}',
    },
  ]);
  await k('proof_rejections_hourly').insert({ wallet: WALLET_B, hour_ms: MS, rejected_count: 2 });
  await k('wallet_activity_daily').insert({ wallet: WALLET_B, day_ms: MS, proof_count: 4, verification_count: 7 });
  // Events came with the proofs; a webhook with a delivery tried twice, a cursor and a lease.
  await k('webhook_endpoints').insert({
    endpoint_id: 'whk_1',
    wallet: WALLET_A,
    url: 'https://hooks.example/in?x=«1»',
    description: 'ops',
    event_types: '["proof.accepted"]',
    enabled: true,
    disabled_reason: null,
    secret: 'whsec_c2VjcmV0',
    previous_secret: null,
    previous_secret_until_ms: null,
    created_at_ms: MS,
    updated_at_ms: MS,
    failing_since_ms: MS + 1,
    last_success_at_ms: null,
  });
  const [delivery] = (await k('webhook_deliveries')
    .insert({
      endpoint_id: 'whk_1',
      event_id: 1,
      event_type: 'proof.accepted',
      state: 'pending',
      attempts: 2,
      next_attempt_at_ms: MS + 30_000,
      locked_until_ms: null,
      manual: false,
      last_status_code: 500,
      last_error: 'answered 500',
      last_attempt_at_ms: MS + 2,
      created_at_ms: MS,
    })
    .returning('id')) as Array<{ id: number | string }>;
  await k('webhook_attempts').insert(
    [1, 2].map((attempt) => ({
      delivery_id: Number(delivery!.id),
      attempt,
      at_ms: MS + attempt,
      status_code: 500,
      latency_ms: 12,
      error: 'answered 500',
      response_excerpt: '{"no":"ü"}',
      trigger: 'scheduled',
    })),
  );
  await k('event_cursors').insert({ name: 'webhooks', event_id: 3 });
  await k('leases').insert({ name: 'events', holder: 'host:/data', until_ms: MS + 9000 });
  return proofs;
}

/** Every row of every table, each value in one form (booleans 0/1, integers as numbers, blobs as hex), rows sorted. */
export async function contents(db: Database): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of COPIED_TABLES) {
    const rows = (await db.knex(table).select('*')) as Array<Record<string, unknown>>;
    out[table] = rows
      .map((row) =>
        JSON.stringify(
          Object.keys(row)
            .sort()
            .map((c) => {
              const v = row[c];
              if (Buffer.isBuffer(v)) return `hex:${v.toString('hex')}`;
              if (typeof v === 'boolean') return v ? 1 : 0;
              if (typeof v === 'string' && /^-?\d+$/.test(v) && !['key_id', 'amount', 'nonce', 'jti'].includes(c)) return Number(v);
              return v;
            }),
        ),
      )
      .sort();
  }
  return out;
}

/** The copy serves as the original did: the stored text, text search through the target's own index, and a next proof that takes the next id and leaf. */
export async function servesAsBefore(t: ExecutionContext, copy: Database, proofs: readonly ProofRecord[], source: Database): Promise<void> {
  const [original, copied] = [new KnexProofStore(source), new KnexProofStore(copy)];
  for (const p of proofs) {
    const [a, b] = [await original.get(p.wallet, p.proofId, { withText: true }), await copied.get(p.wallet, p.proofId, { withText: true })];
    t.truthy(b, p.proofId);
    t.is(b!.envelopeJson, a!.envelopeJson);
    t.is(b!.logIndex, a!.logIndex);
  }
  const found = await copied.search(WALLET_A, { text: 'quasar', order: 'desc', limit: 10 });
  t.deepEqual(
    found.items.map((p) => p.proofId),
    proofs.filter((p) => p.wallet === WALLET_A && p.searchText.includes('quasar')).map((p) => p.proofId),
  );
  const leaves = Number(((await copy.knex('log_leaves').count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n);
  const next = aProofRecord(WALLET_B, { taskId: 'after-the-move', createdAt: at(60), seed: 7 });
  const added = await copied.add(next);
  t.true(added.stored);
  t.is(added.record.logIndex, leaves, 'the next proof takes the next leaf');
  const ids = (await copy.knex('proofs').orderBy('id').pluck('id')).map(Number);
  t.is(ids.length, proofs.length + 1);
  t.true(ids[ids.length - 1]! > ids[ids.length - 2]!, 'the next proof takes an id past the copied ones');
}
