import test from 'ava';
import { KnexProofSeries } from '../../../src/adapters/sql/knex-proof-series.js';
import { KnexProofStore } from '../../../src/adapters/sql/knex-proof-store.js';
import { KnexKeyUsageHistory } from '../../../src/adapters/sql/knex-key-usage-history.js';
import { KnexProofRejectionLog } from '../../../src/adapters/sql/knex-proof-rejection-log.js';
import { usageSeriesContract } from '../../contracts/usage-series.contract.js';
import { sqliteFixture } from '../../support/databases.js';

const sqlite = sqliteFixture(test);
usageSeriesContract('sqlite', async () => {
  const db = await sqlite.fresh();
  return { history: new KnexKeyUsageHistory(db), rejections: new KnexProofRejectionLog(db), series: new KnexProofSeries(db), proofs: new KnexProofStore(db) };
});
