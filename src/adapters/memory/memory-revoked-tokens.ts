import type { RevokedTokens } from '../../application/ports/revoked-tokens.js';

/** RevokedTokens in memory, for tests: one process only. */
export class MemoryRevokedTokens implements RevokedTokens {
  private readonly revoked = new Map<string, number>();

  async revoke(jti: string, expiresAtMs: number): Promise<void> {
    if (!this.revoked.has(jti)) this.revoked.set(jti, expiresAtMs);
  }

  async isRevoked(jti: string): Promise<boolean> {
    return this.revoked.has(jti);
  }

  async deleteExpired(beforeMs: number): Promise<number> {
    let n = 0;
    for (const [jti, expiresAtMs] of this.revoked) {
      if (expiresAtMs < beforeMs) {
        this.revoked.delete(jti);
        n++;
      }
    }
    return n;
  }
}
