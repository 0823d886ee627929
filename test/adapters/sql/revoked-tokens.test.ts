import test from 'ava';
import { MemoryRevokedTokens } from '../../../src/adapters/memory/memory-revoked-tokens.js';
import { KnexRevokedTokens } from '../../../src/adapters/sql/knex-revoked-tokens.js';
import { revokedTokensContract } from '../../contracts/revoked-tokens.contract.js';
import { postgresFixture, sqliteFixture } from '../../support/databases.js';

revokedTokensContract('memory', async () => new MemoryRevokedTokens());
const sqlite = sqliteFixture(test);
revokedTokensContract('sqlite', async () => new KnexRevokedTokens(await sqlite.fresh()));
const pg = postgresFixture(test, 'revoked_tokens');
revokedTokensContract('postgres', async () => new KnexRevokedTokens(await pg.fresh()), test.serial);
