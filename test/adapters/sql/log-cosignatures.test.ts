import test from 'ava';
import { MemoryLogCosignatures } from '../../../src/adapters/memory/memory-log-cosignatures.js';
import { KnexLogCosignatures } from '../../../src/adapters/sql/knex-log-cosignatures.js';
import { logCosignaturesContract } from '../../contracts/log-cosignatures.contract.js';
import { postgresFixture, sqliteFixture } from '../../support/databases.js';

const sqlite = sqliteFixture(test);
const postgres = postgresFixture(test, 'log_cosignatures');

logCosignaturesContract('memory', async () => new MemoryLogCosignatures());
logCosignaturesContract('sqlite', async () => new KnexLogCosignatures(await sqlite.fresh()));
logCosignaturesContract('postgres', async () => new KnexLogCosignatures(await postgres.fresh()), test.serial);
