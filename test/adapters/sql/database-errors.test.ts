import test from 'ava';
import { isDatabaseError, isUnavailable } from '../../../src/adapters/sql/database-errors.js';

test('which failures are a dependency down (503) and which are the database at all (counted)', (t) => {
  const pgError = (code: string) => Object.assign(new Error('x'), { code, severity: 'FATAL' });
  for (const err of [
    pgError('3D000'),
    pgError('57P01'),
    pgError('08006'),
    pgError('53300'),
    pgError('28P01'),
    { code: 'ECONNREFUSED' },
    { code: 'ENOTFOUND' },
    { name: 'KnexTimeoutError' },
    { code: 'SQLITE_BUSY' },
  ]) {
    t.true(isUnavailable(err), JSON.stringify(err));
    t.true(isDatabaseError(err), JSON.stringify(err));
  }
  for (const err of [pgError('23505'), pgError('42P01'), { code: 'SQLITE_CONSTRAINT' }]) {
    t.false(isUnavailable(err), JSON.stringify(err));
    t.true(isDatabaseError(err), JSON.stringify(err));
  }
  for (const err of [new TypeError('bug'), { code: '3D000' }, null, 'text']) {
    t.false(isUnavailable(err), JSON.stringify(err));
    t.false(isDatabaseError(err), JSON.stringify(err));
  }
});
