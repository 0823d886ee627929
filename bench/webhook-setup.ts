import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/adapters/sql/index.js';
import { verifySignature } from '../src/adapters/webhooks/standard-webhook-signer.js';
import { settle, startChildServer, type ChildServer } from './child-server.js';
import { load } from './http-load.js';
import { pacedLoad } from './paced-load.js';
import { createApiKey, dropPostgresDatabase, freshPostgresDatabase, fundWallet, postJson } from './provision.js';
import { ReceiverArrivals } from './webhook-deliveries.js';

export type BenchDatabase = 'sqlite' | 'postgres';

/** A registry of the webhook benches, signed in as its one wallet. */
export interface BenchRegistry {
  readonly server: ChildServer;
  readonly databaseUrl: string;
  /** The API key's headers, for submissions. */
  readonly headers: Record<string, string>;
  /** The dashboard sign-in, for what only it may do (webhooks). */
  readonly auth: { readonly token: string; readonly wallet: string };
  /** Stops the server and deletes its database. */
  close(): Promise<void>;
}

/**
 * A registry as `npm start` runs it, on a database of its own (a fresh SQLite file, or a fresh
 * PostgreSQL database named after `name`), with the rate limits out of the way and webhooks
 * allowed to reach this machine's receiver.
 */
export async function startBenchRegistry(database: BenchDatabase, name: string, env: Record<string, string> = {}): Promise<BenchRegistry> {
  const dir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  const pgName = `proof_registry_bench_${name}`;
  const databaseUrl = database === 'sqlite' ? `sqlite:${join(dir, 'registry.sqlite')}` : await freshPostgresDatabase(pgName);
  const cleanup = async () => {
    rmSync(dir, { recursive: true, force: true });
    if (database === 'postgres') await dropPostgresDatabase(pgName);
  };
  try {
    const { wallet, secretKey } = fundWallet(databaseUrl);
    const server = await startChildServer('./servers/registry-server.ts', {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dir,
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret!',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MIN: '1000000',
      WALLET_RATE_LIMIT_PER_MIN: '1000000',
      WEBHOOK_ALLOW_PRIVATE: '1',
      // The bench's requests all come from one address, a fleet's from many: when answers stall,
      // the paced load holds more sockets than the per-address cap, which would reset them.
      MAX_CONNECTIONS_PER_IP: '0',
      ...env,
    });
    try {
      const { key, accessToken } = await createApiKey(server.url, wallet, secretKey);
      return {
        server,
        databaseUrl,
        headers: { authorization: `Bearer ${key}`, 'x-wallet-address': wallet },
        auth: { token: accessToken, wallet },
        close: async () => {
          await server.stop();
          await cleanup();
        },
      };
    } catch (err) {
      await server.stop();
      throw err;
    }
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/** How many of `proofIds` are in the database's `proofs`: read once the registry has stopped, what it committed. */
export async function storedProofs(databaseUrl: string, proofIds: readonly string[]): Promise<number> {
  const db = await openDatabase(databaseUrl);
  try {
    let stored = 0;
    for (let i = 0; i < proofIds.length; i += 500) {
      const [row] = (await db
        .knex('proofs')
        .whereIn('proof_id', proofIds.slice(i, i + 500))
        .count({ n: '*' })) as Array<{ n: number | string }>;
      stored += Number(row?.n ?? 0);
    }
    return stored;
  } finally {
    await db.close();
  }
}

/** The receiver in a process of its own, and its arrivals. */
export async function startReceiver(): Promise<{ server: ChildServer; arrivals: ReceiverArrivals }> {
  const server = await startChildServer('./servers/webhook-receiver.ts');
  return { server, arrivals: new ReceiverArrivals(server.url) };
}

/** An endpoint of the bench wallet's, and the secret its deliveries are signed with. */
export interface Subscription {
  readonly endpointId: string;
  readonly secret: string;
}

/** Subscribes the registry's wallet to `proof.accepted` at the receiver, as a user would. */
export async function subscribe(registry: BenchRegistry, receiverUrl: string): Promise<Subscription> {
  const created = await postJson(registry.server.url, '/v1/webhooks', { url: `${receiverUrl}/hook`, event_types: ['proof.accepted'] }, registry.auth);
  return { endpointId: String(created['endpoint_id']), secret: String(created['secret']) };
}

/**
 * Deletes the endpoint with its deliveries, as a user would. The delete waits for SQLite's
 * one writer like any write, so a 503 (busy) is asked again, for at most `maxMs`.
 */
export async function unsubscribe(registry: BenchRegistry, endpointId: string, maxMs = 120_000): Promise<void> {
  const deadline = Date.now() + maxMs;
  for (;;) {
    const res = await fetch(`${registry.server.url}/v1/webhooks/${endpointId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${registry.auth.token}`, 'x-wallet-address': registry.auth.wallet },
    });
    await res.arrayBuffer();
    if (res.status === 204) return;
    if (res.status !== 503 || Date.now() >= deadline) throw new Error(`DELETE /v1/webhooks/${endpointId}: ${res.status}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Checks that the first delivery the receiver got is signed with `secret`, as a receiver would; throws if not. */
export async function checkSignature(receiverUrl: string, secret: string): Promise<void> {
  const sample = (await (await fetch(`${receiverUrl}/sample`)).json()) as { headers: Record<string, string>; body: string } | null;
  if (sample === null) throw new Error('the receiver got no delivery to check');
  const check = verifySignature({
    secret,
    id: sample.headers['webhook-id'] ?? '',
    timestamp: sample.headers['webhook-timestamp'] ?? '',
    signature: sample.headers['webhook-signature'] ?? '',
    body: sample.body,
    nowS: Math.floor(Date.now() / 1000),
    // The sample may be from the warm-up, minutes before the check.
    toleranceS: 3_600,
  });
  if (!check.ok) throw new Error(`a delivery's signature does not verify: ${check.reason}`);
}

/** The proofs a server acknowledged (answered 200), gathered as the answers arrive, and what else it answered. */
export class Acknowledgements {
  private current: string[] = [];
  refused = 0;

  readonly onResponse = (status: number, body: string): void => {
    if (status === 200) this.current.push((JSON.parse(body) as { proof_id: string }).proof_id);
    else this.refused++;
  };

  /** The proofs acknowledged since the last call. */
  take(): string[] {
    const taken = this.current;
    this.current = [];
    return taken;
  }
}

export interface WarmUp {
  readonly connections: number;
  readonly warmUpS: number;
  /** Closed-loop bodies, sent before any endpoint exists. */
  readonly closed: readonly string[];
  /** Bodies sent at DELIVERY_WARM_UP_RATE once subscribed (none for a registry left unsubscribed). */
  readonly paced: readonly string[];
  readonly drainMaxS: number;
}

/** A pace the deliveries keep up with, so that the warm-up leaves no backlog behind. */
export const DELIVERY_WARM_UP_RATE = 100;

/**
 * Warms a registry up: its submissions at full speed before any endpoint exists (a closed
 * loop's backlog of deliveries would take long to drain), then, with `receiver` given,
 * subscribed, deliveries at a pace they keep up with. Once all of those have arrived, the
 * first one's signature is checked.
 */
export async function warmUp(registry: BenchRegistry, w: WarmUp, receiver?: { server: ChildServer; arrivals: ReceiverArrivals }): Promise<Subscription | null> {
  const target = { url: registry.server.url, path: '/v1/proofs', headers: registry.headers, connections: w.connections };
  await load({ ...target, bodies: w.closed, durationS: w.warmUpS });
  if (!receiver) return null;
  const subscription = await subscribe(registry, receiver.server.url);
  const acks = new Acknowledgements();
  await pacedLoad({ ...target, bodies: w.paced, durationS: w.paced.length / DELIVERY_WARM_UP_RATE, rate: DELIVERY_WARM_UP_RATE, onResponse: acks.onResponse });
  if (!(await receiver.arrivals.waitFor(acks.take(), w.drainMaxS * 1000)))
    throw new Error(`the warm-up's deliveries did not all arrive within ${w.drainMaxS} s`);
  await checkSignature(receiver.server.url, subscription.secret);
  return subscription;
}

/** Waits for a quiet machine, as before every measurement; what did not get quiet is added to `warnings`. */
export async function quietMachine(before: string, warnings: string[]): Promise<void> {
  if (!(await settle())) {
    const warning = `the machine was still busy before ${before}`;
    console.warn(`warning: ${warning}`);
    warnings.push(warning);
  }
}
