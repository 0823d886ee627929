import test from 'ava';
import { readAhead } from '../../../src/adapters/sql/copy-pages.js';
import { TableDigest } from '../../../src/adapters/sql/table-digest.js';

test('readAhead asks for the next item before handing on the current one', async (t) => {
  const events: string[] = [];
  async function* source(): AsyncGenerator<number> {
    try {
      for (let i = 0; i < 3; i++) {
        events.push(`read ${i}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        yield i;
      }
    } finally {
      events.push('closed');
    }
  }
  const seen: number[] = [];
  for await (const item of readAhead(source())) {
    events.push(`use ${item}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
    seen.push(item);
  }
  t.deepEqual(seen, [0, 1, 2]);
  // The source's end is read ahead too: it closes before the last item is used.
  t.deepEqual(events, ['read 0', 'read 1', 'use 0', 'read 2', 'use 1', 'closed', 'use 2']);
});

test('readAhead lets the read in flight end before closing the source when the consumer stops, and reports a failed read in turn', async (t) => {
  const events: string[] = [];
  async function* source(failAt: number): AsyncGenerator<number> {
    try {
      for (let i = 0; i < 5; i++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (i === failAt) throw new Error(`read ${i} failed`);
        events.push(`read ${i}`);
        yield i;
      }
    } finally {
      events.push('closed');
    }
  }
  for await (const item of readAhead(source(-1))) {
    events.push(`use ${item}`);
    break;
  }
  t.deepEqual(events, ['read 0', 'use 0', 'read 1', 'closed']);

  events.length = 0;
  const used: number[] = [];
  const error = await t.throwsAsync(async () => {
    for await (const item of readAhead(source(2))) used.push(item);
  });
  t.is(error!.message, 'read 2 failed');
  t.deepEqual(used, [0, 1], 'every item read before the failure is handed on first');
});

test('the table digest ignores the order of rows and the types the two databases differ in, and nothing else', (t) => {
  const columns = ['a', 'b', 'c'];
  const digest = (rows: Array<Record<string, unknown>>) => {
    const d = new TableDigest();
    for (const row of rows) d.add(columns, row);
    return d;
  };
  const rows = Array.from({ length: 500 }, (_, i) => ({ a: i, b: `text ${i % 7}`, c: i % 3 ? null : Buffer.from([i % 256, 1]) }));
  t.true(digest(rows).equals(digest([...rows].reverse())), 'order-free');
  // How SQLite and PostgreSQL return one value: 0/1 and booleans, numbers and bigint text.
  t.true(digest([{ a: 1, b: 12, c: null }]).equals(digest([{ a: true, b: '12', c: undefined }])));
  t.true(digest([{ a: 12n, b: 0, c: 'x' }]).equals(digest([{ a: '12', b: false, c: 'x' }])));
  const differs = (x: Record<string, unknown>, y: Record<string, unknown>, why: string) => t.false(digest([x]).equals(digest([y])), why);
  differs({ a: 'a', b: 'vb', c: null }, { a: 'av', b: 'b', c: null }, 'values do not run together');
  differs({ a: '', b: null, c: null }, { a: null, b: '', c: null }, 'empty text is not NULL');
  differs({ a: Buffer.from('ff', 'hex'), b: null, c: null }, { a: 'ff', b: null, c: null }, 'a blob is not its hex text');
  differs({ a: 0.1, b: null, c: null }, { a: 0.1000001, b: null, c: null }, 'numbers compare exactly');
  t.false(digest(rows).equals(digest(rows.slice(1))), 'a row missing');
  t.false(digest(rows).equals(digest([...rows, rows[0]!])), 'a row twice');
});
