import type { Knex } from 'knex';
import type { NonceStore, SignInChallenge, StoredChallenge } from '../../application/ports/nonce-store.js';
import type { Database } from './database.js';

interface NonceRow {
  readonly nonce: string;
  readonly wallet: string;
  readonly message: string;
  readonly issued_at_ms: number | string;
  readonly expires_at_ms: number | string;
  readonly consumed_at_ms: number | string | null;
}

/** NonceStore on SQLite or PostgreSQL; `consume` is one conditional UPDATE, atomic on both. */
export class KnexNonceStore implements NonceStore {
  private readonly knex: Knex;

  constructor(db: Pick<Database, 'knex'>) {
    this.knex = db.knex;
  }

  async save(c: SignInChallenge): Promise<void> {
    await this.knex('sign_in_nonces').insert({
      nonce: c.nonce,
      wallet: c.wallet,
      message: c.message,
      issued_at_ms: c.issuedAtMs,
      expires_at_ms: c.expiresAtMs,
      consumed_at_ms: null,
    });
  }

  async find(nonce: string): Promise<StoredChallenge | null> {
    const r = await this.knex<NonceRow>('sign_in_nonces').where({ nonce }).first();
    if (!r) return null;
    return {
      nonce: r.nonce,
      wallet: r.wallet,
      message: r.message,
      issuedAtMs: Number(r.issued_at_ms),
      expiresAtMs: Number(r.expires_at_ms),
      consumedAtMs: r.consumed_at_ms === null ? null : Number(r.consumed_at_ms),
    };
  }

  async consume(nonce: string, nowMs: number): Promise<boolean> {
    // The WHERE clause is the whole check: of concurrent updates, the database lets exactly one
    // see consumed_at_ms still null (PostgreSQL re-checks it after the row lock; SQLite has a
    // single writer), so one verification wins and every other gets 0 rows.
    const updated = await this.knex('sign_in_nonces')
      .where({ nonce })
      .whereNull('consumed_at_ms')
      .where('expires_at_ms', '>', nowMs)
      .update({ consumed_at_ms: nowMs });
    return updated === 1;
  }

  async deleteExpired(beforeMs: number): Promise<number> {
    return this.knex('sign_in_nonces').where('expires_at_ms', '<', beforeMs).delete();
  }
}
