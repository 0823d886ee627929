import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { startChildServer, type ChildServer } from './child-server.js';
import { fleetProofBodies } from './fleet-proofs.js';
import { load, type LoadFigures } from './http-load.js';
import { createApiKey, fundWallet } from './provision.js';

export interface TwoInstanceFigures {
  /** Each instance's figures, measured at the same time. */
  readonly instances: readonly LoadFigures[];
  /** Both instances' rates added. */
  readonly aggregatePerSec: number;
  readonly redis: string | null;
  /** Proofs answered 200 (stored, or already stored), by proof id. */
  readonly acknowledged: number;
  /** Rows of the wallet in `proofs` after the run. */
  readonly stored: number;
  /** Acknowledged proofs not in `proofs`; proof ids stored more than once. Both must be 0. */
  readonly missing: number;
  readonly duplicates: number;
}

/**
 * Two registry instances on one PostgreSQL database (and one Redis, when TEST_REDIS_URL or
 * redis://127.0.0.1:6379 is given), as a deployment behind a load balancer runs them: one
 * wallet, one API key made on the first and used on both, each instance at its maximum rate at
 * once, distinct proofs. After the run the database is read: every proof an instance
 * acknowledged must be stored, and no proof id twice.
 */
export async function benchTwoInstances(
  databaseUrl: string,
  bodies: readonly [string[], string[]],
  connections: number,
  durationS: number,
): Promise<TwoInstanceFigures> {
  const redis = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const { wallet, secretKey } = fundWallet(databaseUrl);
  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis,
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret!',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MIN: '1000000',
    WALLET_RATE_LIMIT_PER_MIN: '1000000',
  };
  const servers: ChildServer[] = [];
  try {
    servers.push(await startChildServer('./servers/registry-server.ts', env));
    servers.push(await startChildServer('./servers/registry-server.ts', env));
    const { key } = await createApiKey(servers[0]!.url, wallet, secretKey);
    const headers = { authorization: `Bearer ${key}`, 'x-wallet-address': wallet };
    const acknowledged = new Set<string>();
    const onResponse = (status: number, body: string) => {
      if (status === 200) acknowledged.add((JSON.parse(body) as { proof_id: string }).proof_id);
    };
    const instances = await Promise.all(
      servers.map((server, i) => load({ url: server.url, path: '/v1/proofs', headers, bodies: bodies[i]!, connections, durationS, onResponse })),
    );
    // Answers still on their way when autocannon stopped are not counted as acknowledged; wait for them to be stored.
    await Promise.all(servers.map((server) => server.stop()));
    servers.length = 0;
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const rows = (
        await client.query<{ proof_id: string; n: string }>('select proof_id, count(*) as n from proofs where wallet = $1 group by proof_id', [wallet])
      ).rows;
      const stored = new Set(rows.map((r) => r.proof_id));
      return {
        instances,
        aggregatePerSec: instances.reduce((sum, f) => sum + f.requestsPerSec, 0),
        redis,
        acknowledged: acknowledged.size,
        stored: rows.reduce((sum, r) => sum + Number(r.n), 0),
        missing: [...acknowledged].filter((id) => !stored.has(id)).length,
        duplicates: rows.filter((r) => Number(r.n) > 1).length,
      };
    } finally {
      await client.end();
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

/** `npx tsx bench/two-instances.ts`: this part of `npm run bench` alone, in a database of its own. */
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const durationS = Number(process.env.BENCH_DURATION_S ?? 10);
  const connections = Number((process.env.BENCH_CONNECTIONS ?? '32').split(',')[0]);
  const admin = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = 'proof_registry_bench_two';
  const statements = async (...sql: string[]) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    for (const s of sql) await client.query(s);
    await client.end();
  };
  await statements(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`, `CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  try {
    const bodies = [fleetProofBodies(durationS * 5_000, 'two-a'), fleetProofBodies(durationS * 5_000, 'two-b')] as const;
    const two = await benchTwoInstances(url.toString(), [bodies[0], bodies[1]], connections, durationS);
    console.log(
      JSON.stringify(
        { ...two, instances: two.instances.map((f) => ({ requestsPerSec: f.requestsPerSec, p99Ms: f.p99Ms, non2xx: f.non2xx, errors: f.errors })) },
        null,
        1,
      ),
    );
  } finally {
    await statements(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}
