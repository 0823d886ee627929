import test from 'ava';
import { KnexProofSeries } from '../../../src/adapters/sql/knex-proof-series.js';
import { KnexProofStore } from '../../../src/adapters/sql/knex-proof-store.js';
import { KnexKeyUsageHistory, KnexProofRejectionLog } from '../../../src/adapters/sql/knex-usage-counters.js';
import { usageSeriesContract } from '../../contracts/usage-series.contract.js';
import { sqliteFixture } from '../../support/databases.js';

const sqlite = sqliteFixture(test);
usageSeriesContract('sqlite', async () => {
  const db = await sqlite.fresh();
  return { history: new KnexKeyUsageHistory(db), rejections: new KnexProofRejectionLog(db), series: new KnexProofSeries(db), proofs: new KnexProofStore(db) };
});
