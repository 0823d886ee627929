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

/** Signs in over HTTP (connect → sign → verify) and creates an API key, as a user would. */
export async function createApiKey(baseUrl: string, wallet: string, secretKey: Uint8Array): Promise<Credential> {
  const post = async (path: string, body: unknown, token?: string) => {
    const res = await fetch(baseUrl + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}`, 'x-wallet-address': wallet } : {}) },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, string>;
    if (!res.ok) throw new Error(`${path}: ${res.status} ${json['detail']}`);
    return json;
  };
  const { challenge } = await post('/v1/auth/wallet/connect', { wallet_address: wallet });
  const signature = Buffer.from(nacl.sign.detached(new TextEncoder().encode(challenge!), secretKey)).toString('base64');
  const { access_token } = await post('/v1/auth/wallet/verify', { wallet_address: wallet, signature, challenge });
  const { key } = await post('/v1/keys', { name: 'bench' }, access_token);
  return { wallet, key: key! };
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
