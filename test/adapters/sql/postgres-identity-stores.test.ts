import test from 'ava';
import { KnexKeyStore } from '../../../src/adapters/sql/knex-key-store.js';
import { KnexLedgerBalance } from '../../../src/adapters/sql/knex-ledger-balance.js';
import { KnexNonceStore } from '../../../src/adapters/sql/knex-nonce-store.js';
import { KnexEventLog } from '../../../src/adapters/sql/knex-event-log.js';
import { keyEventsContract, keyStoreContract } from '../../contracts/key-store.contract.js';
import { localLedgerContract } from '../../contracts/local-ledger.contract.js';
import { nonceStoreContract } from '../../contracts/nonce-store.contract.js';
import { postgresFixture } from '../../support/databases.js';

// One schema for this file, emptied before each test, so the tests run serially. No skip when
// PostgreSQL is down: the fixture's `before` hook fails, and with it every test here.
const pg = postgresFixture(test, 'identity');
keyStoreContract('postgres', async () => new KnexKeyStore(await pg.fresh()), test.serial);
keyEventsContract(
  'postgres',
  async () => {
    const db = await pg.fresh();
    return { keys: new KnexKeyStore(db), events: new KnexEventLog(db) };
  },
  test.serial,
);
nonceStoreContract('postgres', async () => new KnexNonceStore(await pg.fresh()), test.serial);
localLedgerContract('postgres', async () => new KnexLedgerBalance(await pg.fresh()), test.serial);
