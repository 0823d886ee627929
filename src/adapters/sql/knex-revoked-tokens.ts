import type { RevokedTokens } from '../../application/ports/revoked-tokens.js';
import type { Database } from './database.js';

/** RevokedTokens on SQLite or PostgreSQL: one row per signed-out token, looked up by primary key. */
export class KnexRevokedTokens implements RevokedTokens {
  constructor(private readonly db: Pick<Database, 'knex'>) {}

  async revoke(jti: string, expiresAtMs: number): Promise<void> {
    await this.db.knex('revoked_tokens').insert({ jti, expires_at_ms: expiresAtMs }).onConflict('jti').ignore();
  }

  async isRevoked(jti: string): Promise<boolean> {
    return (await this.db.knex('revoked_tokens').where({ jti }).first('jti')) !== undefined;
  }

  async deleteExpired(beforeMs: number): Promise<number> {
    return this.db.knex('revoked_tokens').where('expires_at_ms', '<', beforeMs).delete();
  }
}
