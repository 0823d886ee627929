import * as E from 'fp-ts/lib/Either.js';
import type { Clock } from '../ports/clock.js';
import type { RevokedTokens } from '../ports/revoked-tokens.js';

export type NotASession = { readonly _tag: 'NotASession' };

/**
 * Ends the dashboard session of the token presented: its `jti` is revoked until the token
 * expires, on every instance. API keys are not sessions (a key is deleted, not signed out).
 */
export class SignOut {
  constructor(
    private readonly revoked: RevokedTokens,
    private readonly clock: Clock,
  ) {}

  async execute(input: { token: { jti: string; expiresAtMs: number } | null }): Promise<E.Either<NotASession, void>> {
    if (input.token === null) return E.left({ _tag: 'NotASession' });
    await this.revoked.revoke(input.token.jti, input.token.expiresAtMs);
    // Rows of tokens that have expired anyway are dropped as sign-outs come in.
    await this.revoked.deleteExpired(this.clock.nowMs());
    return E.right(undefined);
  }
}
