import test from 'ava';
import { openDatabase } from '../../../src/adapters/sql/index.js';

test('Knex warnings about a database it cannot reach go to onDriverWarning, one line each, without the stack', async (t) => {
  const warnings: string[] = [];
  // Port 1 on the loopback interface: nothing listens there, so every connection is refused.
  const db = await openDatabase('postgres://postgres@127.0.0.1:1/unreachable', { onDriverWarning: (message) => warnings.push(message) });
  t.teardown(() => db.close());
  await t.throwsAsync(db.knex.raw('select 1'), { code: 'ECONNREFUSED' });
  t.true(
    warnings.some((w) => w.startsWith('Acquire connection error:') && w.includes('ECONNREFUSED')),
    JSON.stringify(warnings),
  );
  t.true(warnings.every((w) => !w.includes('\n')));
});
