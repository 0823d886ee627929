import path from 'node:path';
import test from 'ava';
import { parseDatabaseUrl } from '../../../src/adapters/sql/index.js';

const cases: Array<[string, ReturnType<typeof parseDatabaseUrl>]> = [
  ['sqlite:./data/registry.sqlite', { dialect: 'sqlite', filename: path.resolve('data/registry.sqlite') }],
  ['sqlite:data/x.db', { dialect: 'sqlite', filename: path.resolve('data/x.db') }],
  ['sqlite:/var/lib/registry.sqlite', { dialect: 'sqlite', filename: '/var/lib/registry.sqlite' }],
  ['sqlite:///var/lib/registry.sqlite', { dialect: 'sqlite', filename: '/var/lib/registry.sqlite' }],
  ['sqlite::memory:', { dialect: 'sqlite', filename: ':memory:' }],
  ['postgres://u:p@db:5432/reg', { dialect: 'postgres', connectionString: 'postgres://u:p@db:5432/reg' }],
  ['postgresql://db/reg?sslmode=require', { dialect: 'postgres', connectionString: 'postgresql://db/reg?sslmode=require' }],
];

for (const [url, expected] of cases) {
  test(`DATABASE_URL ${url}`, (t) => {
    t.deepEqual(parseDatabaseUrl(url), expected);
  });
}

for (const url of ['sqlite:', 'mysql://root@db/x', 'registry.sqlite', '']) {
  test(`DATABASE_URL ${JSON.stringify(url)} is rejected`, (t) => {
    t.throws(() => parseDatabaseUrl(url), { message: /DATABASE_URL/ });
  });
}

test('a rejected DATABASE_URL does not echo its credentials', (t) => {
  const error = t.throws(() => parseDatabaseUrl('mysql://root:s3cret@db/x'));
  t.false(error?.message.includes('s3cret'));
});
