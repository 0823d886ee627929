import { execFileSync } from 'node:child_process';
import bs58 from 'bs58';
import pg from 'pg';
import nacl from 'tweetnacl';

export interface Credential {
  readonly wallet: string;
  readonly key: string;
}

/** A wallet with 50,000 tokens on the local ledger, set through the CLI as an operator would. */
export function fundWallet(databaseUrl: string): { wallet: string; secretKey: Uint8Array } {
  const pair = nacl.sign.keyPair();
  const wallet = bs58.encode(pair.publicKey);
  execFileSync(process.execPath, ['bin/proof-registry.js', 'ledger', 'set', wallet, '50000'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PROOF_REGISTRY_FROM_SOURCE: '1' },
    stdio: 'ignore',
  });
  return { wallet, secretKey: pair.secretKey };
}

/** POSTs JSON as a user would (with the wallet's token when given) and answers the JSON, or throws with the problem's detail. */
export async function postJson(baseUrl: string, path: string, body: unknown, auth?: { token: string; wallet: string }): Promise<Record<string, unknown>> {
  const res = await fetch(baseUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${auth.token}`, 'x-wallet-address': auth.wallet } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${path}: ${res.status} ${String(json['detail'])}`);
  return json;
}

/**
 * Signs in over HTTP (connect → sign → verify) and creates an API key, as a user would. The
 * sign-in's token (a dashboard JWT) comes back too, for what only it may do (webhooks).
 */
export async function createApiKey(baseUrl: string, wallet: string, secretKey: Uint8Array): Promise<Credential & { readonly accessToken: string }> {
  const { challenge } = await postJson(baseUrl, '/v1/auth/wallet/connect', { wallet_address: wallet });
  const signature = Buffer.from(nacl.sign.detached(new TextEncoder().encode(String(challenge)), secretKey)).toString('base64');
  const { access_token } = await postJson(baseUrl, '/v1/auth/wallet/verify', { wallet_address: wallet, signature, challenge });
  const { key } = await postJson(baseUrl, '/v1/keys', { name: 'bench' }, { token: String(access_token), wallet });
  return { wallet, key: String(key), accessToken: String(access_token) };
}

/** The PostgreSQL the benches create their databases on. */
export const PG_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Runs statements, one after another, on the admin database (outside any transaction, as DROP DATABASE needs). */
export async function adminQueries(...statements: string[]): Promise<void> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    for (const statement of statements) await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** A new, empty database on the bench's PostgreSQL (dropped first if a run left it); its URL. */
export async function freshPostgresDatabase(name: string): Promise<string> {
  await adminQueries(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`, `CREATE DATABASE ${name}`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops a bench database, so that PostgreSQL's autovacuum of it does not run beside the next measurements. */
export const dropPostgresDatabase = (name: string) => adminQueries(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`, 'CHECKPOINT');
