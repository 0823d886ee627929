import test from 'ava';
import { KnexKeyStore } from '../../../src/adapters/sql/knex-key-store.js';
import { KnexKeyUsageHistory } from '../../../src/adapters/sql/knex-key-usage-history.js';
import { KnexProofBreakdown } from '../../../src/adapters/sql/knex-proof-breakdown.js';
import { KnexProofRejectionLog } from '../../../src/adapters/sql/knex-proof-rejection-log.js';
import { KnexProofSeries } from '../../../src/adapters/sql/knex-proof-series.js';
import { KnexProofStore } from '../../../src/adapters/sql/knex-proof-store.js';
import { statisticsContract } from '../../contracts/statistics.contract.js';
import { sqliteFixture } from '../../support/databases.js';

const sqlite = sqliteFixture(test);
statisticsContract('sqlite', async () => {
  const db = await sqlite.fresh();
  return {
    proofs: new KnexProofStore(db),
    series: new KnexProofSeries(db),
    breakdown: new KnexProofBreakdown(db),
    rejections: new KnexProofRejectionLog(db),
    keys: new KnexKeyStore(db),
    usage: new KnexKeyUsageHistory(db),
  };
});
