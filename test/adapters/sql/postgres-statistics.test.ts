import test from 'ava';
import { KnexKeyStore } from '../../../src/adapters/sql/knex-key-store.js';
import { KnexKeyUsageHistory } from '../../../src/adapters/sql/knex-key-usage-history.js';
import { KnexProofBreakdown } from '../../../src/adapters/sql/knex-proof-breakdown.js';
import { KnexProofRejectionLog } from '../../../src/adapters/sql/knex-proof-rejection-log.js';
import { KnexProofSeries } from '../../../src/adapters/sql/knex-proof-series.js';
import { KnexProofStore } from '../../../src/adapters/sql/knex-proof-store.js';
import { statisticsContract } from '../../contracts/statistics.contract.js';
import { postgresFixture } from '../../support/databases.js';

// One schema for this file, emptied before each test: serial. No skip when PostgreSQL is down.
const pg = postgresFixture(test, 'statistics');
statisticsContract(
  'postgres',
  async () => {
    const db = await pg.fresh();
    return {
      proofs: new KnexProofStore(db),
      series: new KnexProofSeries(db),
      breakdown: new KnexProofBreakdown(db),
      rejections: new KnexProofRejectionLog(db),
      keys: new KnexKeyStore(db),
      usage: new KnexKeyUsageHistory(db),
    };
  },
  test.serial,
);
