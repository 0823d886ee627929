import test from 'ava';
import { migrations } from '../../../migrations/index.js';
import { KnexKeyStore } from '../../../src/adapters/sql/knex-key-store.js';
import type { Database } from '../../../src/adapters/sql/index.js';
import { holdsScope, SCOPES } from '../../../src/domain/identity/key-grant.js';
import { emptyPostgresDatabase, emptySqliteDatabase, migrateTo, migrationsBefore } from '../../support/migrations.js';
import { WALLET_A } from '../../support/mothers.js';

// Keys made before scopes existed must keep working as they did: every scope, any robot,
// no expiry, enabled.
for (const [label, open] of [
  ['sqlite', emptySqliteDatabase],
  ['postgres', (t: Parameters<typeof emptySqliteDatabase>[0]) => emptyPostgresDatabase(t, 'key_grants_migration')],
] as const) {
  test(`${label}: 017_key_grants keeps every key made before it, with every scope and no binding, expiry or disabling`, async (t) => {
    const db: Database = await open(t);
    await migrateTo(db, migrationsBefore('017_key_grants'));
    await db.knex('api_keys').insert({
      key_id: 'key_old',
      wallet: WALLET_A,
      name: 'old robot',
      prefix: 'pr_live_old',
      key_hash: 'c'.repeat(64),
      created_at_ms: 1_700_000_000_000,
      last_used_at_ms: 1_700_000_100_000,
      request_count: 42,
      error_count: 2,
    });
    await migrateTo(db, migrations);
    const key = await new KnexKeyStore(db).findByHash('c'.repeat(64));
    t.like(key, { keyId: 'key_old', name: 'old robot', requestCount: 42, errorCount: 2, scopes: null, robotIds: null, expiresAtMs: null, disabledAtMs: null });
    for (const scope of SCOPES) t.true(holdsScope(key!, scope), scope);
  });
}
