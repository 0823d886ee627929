import test from 'ava';
import type { RevokedTokens } from '../../src/application/ports/revoked-tokens.js';
import type { DeclareTest } from '../support/databases.js';

/** The RevokedTokens contract; `make` returns an empty store. */
export function revokedTokensContract(name: string, make: () => Promise<RevokedTokens>, testFn: DeclareTest = test): void {
  testFn(`${name}: a revoked token is revoked; others are not; revoking twice changes nothing`, async (t) => {
    const store = await make();
    t.false(await store.isRevoked('jti-1'));
    await store.revoke('jti-1', 2_000);
    await store.revoke('jti-1', 2_000);
    t.true(await store.isRevoked('jti-1'));
    t.false(await store.isRevoked('jti-2'));
  });

  testFn(`${name}: revocations of tokens expired before a time are forgotten, the rest kept`, async (t) => {
    const store = await make();
    await store.revoke('old', 1_000);
    await store.revoke('live', 5_000);
    t.is(await store.deleteExpired(2_000), 1);
    t.false(await store.isRevoked('old'));
    t.true(await store.isRevoked('live'));
  });
}
