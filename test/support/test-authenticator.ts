import * as E from 'fp-ts/lib/Either.js';
import { FULL_GRANT } from '../../src/domain/identity/key-grant.js';
import type { Authenticator, AuthFailure, AuthRequest, Principal } from '../../src/application/ports/authenticator.js';

/**
 * Test double of the Authenticator port: `Authorization: Bearer test:<wallet>` identifies a
 * wallet. It applies the same header rules as the real one, so routes see the same failures.
 */
export class TestAuthenticator implements Authenticator {
  async authenticate(request: AuthRequest): Promise<E.Either<AuthFailure, Principal>> {
    const m = /^Bearer test:(\S+)$/.exec(request.authorization ?? '');
    if (!request.authorization) return E.left({ _tag: 'MissingCredential' });
    if (!m) return E.left({ _tag: 'InvalidApiKey' });
    if (!request.walletHeader) return E.left({ _tag: 'MissingWalletHeader' });
    if (request.walletHeader !== m[1]) return E.left({ _tag: 'WalletMismatch' });
    return E.right({ wallet: m[1]!, kind: 'api_key', keyId: `test-${m[1]}`, grant: FULL_GRANT });
  }
}

export const authHeaders = (wallet: string): Record<string, string> => ({
  authorization: `Bearer test:${wallet}`,
  'x-wallet-address': wallet,
});
