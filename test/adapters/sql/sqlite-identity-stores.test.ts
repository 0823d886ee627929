import test from 'ava';
import { KnexKeyStore } from '../../../src/adapters/sql/knex-key-store.js';
import { KnexLedgerBalance } from '../../../src/adapters/sql/knex-ledger-balance.js';
import { KnexNonceStore } from '../../../src/adapters/sql/knex-nonce-store.js';
import { KnexEventLog } from '../../../src/adapters/sql/knex-event-log.js';
import { keyEventsContract, keyStoreContract } from '../../contracts/key-store.contract.js';
import { localLedgerContract } from '../../contracts/local-ledger.contract.js';
import { nonceStoreContract } from '../../contracts/nonce-store.contract.js';
import { tokenBalanceContract } from '../../contracts/token-balance.contract.js';
import { sqliteFixture } from '../../support/databases.js';
import { amount } from '../../support/identity.js';

// A fresh migrated SQLite file per test: the production path, and the tests stay independent.
const sqlite = sqliteFixture(test);
keyStoreContract('sqlite', async () => new KnexKeyStore(await sqlite.fresh()));
keyEventsContract('sqlite', async () => {
  const db = await sqlite.fresh();
  return { keys: new KnexKeyStore(db), events: new KnexEventLog(db) };
});
nonceStoreContract('sqlite', async () => new KnexNonceStore(await sqlite.fresh()));
localLedgerContract('sqlite', async () => new KnexLedgerBalance(await sqlite.fresh()));
tokenBalanceContract('sqlite ledger', async (holdings) => {
  const db = await sqlite.fresh();
  const balance = new KnexLedgerBalance(db);
  for (const h of holdings) await balance.set(h.owner, h.mint, amount(h.amount), 0);
  return { balance, down: () => void db.knex.schema.dropTable('ledger_balances').then(() => undefined) };
});
