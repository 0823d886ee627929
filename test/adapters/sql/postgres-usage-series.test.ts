import test from 'ava';
import { KnexProofSeries } from '../../../src/adapters/sql/knex-proof-series.js';
import { KnexProofStore } from '../../../src/adapters/sql/knex-proof-store.js';
import { KnexKeyUsageHistory } from '../../../src/adapters/sql/knex-key-usage-history.js';
import { KnexProofRejectionLog } from '../../../src/adapters/sql/knex-proof-rejection-log.js';
import { usageSeriesContract } from '../../contracts/usage-series.contract.js';
import { postgresFixture } from '../../support/databases.js';

// One schema for this file, emptied before each test: serial. No skip when PostgreSQL is down.
const pg = postgresFixture(test, 'usage_series');
usageSeriesContract(
  'postgres',
  async () => {
    const db = await pg.fresh();
    return { history: new KnexKeyUsageHistory(db), rejections: new KnexProofRejectionLog(db), series: new KnexProofSeries(db), proofs: new KnexProofStore(db) };
  },
  test.serial,
);
