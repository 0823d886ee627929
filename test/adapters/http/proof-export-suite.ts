import test from 'ava';
import { startTestRegistry, fixedClock, type TestRegistry } from '../../support/registry.js';
import { anEnvelope } from '../../support/mothers.js';
import { parseCsv } from '../../support/csv.js';

const wallet = 'ExportWallet111111111111111111111111111111111'.slice(0, 44);
const other = 'ExportOther1111111111111111111111111111111111'.slice(0, 44);

/** Proofs whose ids a spreadsheet would misread, or which need quoting, among plain ones. */
const PROOFS = [
  { taskId: '=SUM(1,2)', robotId: 'arm-a', createdAt: '2026-11-19T01:00:00Z', meta: { site: 'Lyon' } },
  { taskId: 'say "hi", then\r\nleave', robotId: 'arm-b', createdAt: '2026-11-19T02:00:00Z' },
  { taskId: '+33 1 23', robotId: '@arm', createdAt: '2026-11-19T03:00:00Z', topics: ['weld/arc'] },
  { taskId: '-1', createdAt: '2026-11-19T04:00:00Z', runId: 'run-9' },
  ...Array.from({ length: 8 }, (_, i) => ({ taskId: `plain-${i % 3}`, robotId: `arm-${'ab'[i % 2]}`, createdAt: `2026-11-19T1${i}:00:00Z`, seed: i % 2 })),
];

interface Export {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * The HTTP behaviour of GET /v1/proofs/export on one database: `url` gives the registry's
 * DATABASE_URL. Every expectation compares with the paged list (GET /v1/proofs), so the export
 * is held to the search it exports.
 */
export function proofExportSuite(label: string, url: () => Promise<string>): void {
  let registry: TestRegistry;
  const ids: string[] = [];

  test.before(async () => {
    registry = await startTestRegistry({ env: { DATABASE_URL: await url() }, clock: fixedClock('2026-11-20T10:30:00Z') });
    for (const p of PROOFS) ids.push((await registry.call(wallet, 'POST', '/v1/proofs', { envelope: anEnvelope(p) })).body.proof_id);
    await registry.call(other, 'POST', '/v1/proofs', {
      envelope: anEnvelope({ taskId: 'plain-0', robotId: 'arm-a', createdAt: '2026-11-19T05:30:00Z', seed: 3 }),
    });
  });
  test.after.always(async () => registry?.close());

  const exportOf = async (query: string, as = wallet, headers: Record<string, string> = {}): Promise<Export> => {
    const res = await fetch(`${registry.url}/v1/proofs/export${query}`, {
      headers: { authorization: `Bearer test:${as}`, 'x-wallet-address': as, ...headers },
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  const jsonIds = (text: string) =>
    text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as { proof_id: string }).proof_id);
  /** Every proof id of the list with these filters, page by page. */
  const listed = async (query: string) => {
    const out: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await registry.call(wallet, 'GET', `/v1/proofs?limit=5${query}${cursor ? `&cursor=${cursor}` : ''}`);
      if (page.status !== 200) throw new Error(JSON.stringify(page.body));
      out.push(...(page.body.items as Array<{ proof_id: string }>).map((i) => i.proof_id));
      cursor = page.body.next_cursor;
    } while (cursor);
    return out;
  };

  test(`${label}: the export holds exactly the proofs of the search, in its order, every filter applied`, async (t) => {
    const filters = [
      '',
      '&order=asc',
      '&task_id=plain-1',
      '&robot_id=arm-a',
      '&run_id=run-9',
      '&topic=weld/arc',
      '&text=lyon',
      `&signer_public_key_b64=${encodeURIComponent(anEnvelope({ seed: 1 }).signer_public_key_b64)}`,
      '&created_after=2026-11-19T02:00:00Z&created_before=2026-11-19T12:00:00Z',
      '&sort_field=task_id&sort_order=asc',
      '&sort_field=robot_id&order=desc&task_id=plain-0',
    ];
    for (const f of filters) {
      const want = await listed(f);
      t.true(want.length > 0 || f === '', f);
      const jsonl = await exportOf(`?format=jsonl${f}`);
      t.is(jsonl.status, 200, jsonl.text);
      t.deepEqual(jsonIds(jsonl.text), want, `jsonl ${f}`);
      const csv = await exportOf(`?format=csv${f}`);
      t.deepEqual(
        parseCsv(csv.text)
          .slice(1)
          .map((r) => r[0]),
        want,
        `csv ${f}`,
      );
    }
  });

  test(`${label}: CSV is RFC 4180 with a header, quoted where needed, and no cell runs as a formula`, async (t) => {
    const res = await exportOf('?format=csv&order=asc&created_before=2026-11-19T05:00:00Z');
    t.is(res.headers.get('content-type'), 'text/csv; charset=utf-8');
    t.is(res.headers.get('content-disposition'), 'attachment; filename="proofs-2026-11-20.csv"');
    const rows = parseCsv(res.text);
    t.deepEqual(rows[0], ['proof_id', 'created_at', 'received_at', 'task_id', 'robot_id', 'run_id', 'signer_public_key_b64', 'topics', 'event_count']);
    t.deepEqual(
      rows.slice(1).map((r) => [r[3], r[4], r[5]]),
      [
        ["'=SUM(1,2)", 'arm-a', ''],
        ['say "hi", then\r\nleave', 'arm-b', ''],
        ["'+33 1 23", "'@arm", ''],
        ["'-1", '', 'run-9'],
      ],
    );
    // As written on the wire: the quote doubled, the comma and the line break inside quotes.
    t.true(res.text.includes(`"'=SUM(1,2)"`));
    t.true(res.text.includes(`"say ""hi"", then\r\nleave"`));
    t.true(res.text.startsWith('proof_id,created_at,'));
    t.true(res.text.endsWith('\r\n'));
    t.deepEqual(rows[3]![7], '["weld/arc"]');
    t.is(rows[1]![1], '2026-11-19T01:00:00Z');
    // The JSON Lines keep every value as stored.
    const jsonl = await exportOf('?format=jsonl&order=asc&created_before=2026-11-19T05:00:00Z');
    t.is(jsonl.headers.get('content-type'), 'application/x-ndjson');
    const items = jsonl.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    t.deepEqual(
      items.map((i) => [i['task_id'], i['robot_id']]),
      [
        ['=SUM(1,2)', 'arm-a'],
        ['say "hi", then\r\nleave', 'arm-b'],
        ['+33 1 23', '@arm'],
        ['-1', null],
      ],
    );
    t.like(items[0], { verified: true, topics: ['nav/pose', 'safety/state'], event_count: 2, created_at: '2026-11-19T01:00:00Z' });
  });

  test(`${label}: without format, Accept chooses; the default is CSV`, async (t) => {
    const doc = await registry.call(null, 'GET', '/openapi.json');
    const op = doc.body.paths['/v1/proofs/export'].get;
    t.deepEqual(Object.keys(op.responses['200'].content), ['text/csv; charset=utf-8', 'application/x-ndjson']);
    t.like(op, { operationId: 'exportProofs', 'x-required-scope': 'proofs:read' });
    t.truthy(op.responses['200'].headers.Link);
    t.is((await exportOf('?limit=1', wallet, { accept: 'application/x-ndjson' })).headers.get('content-type'), 'application/x-ndjson');
    t.is((await exportOf('?limit=1')).headers.get('content-type'), 'text/csv; charset=utf-8');
  });

  test(`${label}: a capped export says where the next starts, and the exports together hold every proof exactly once`, async (t) => {
    for (const [limit, query] of [
      [3, '&order=asc'],
      [4, ''],
      [5, '&sort_field=robot_id&sort_order=asc'],
      [1, '&task_id=plain-1'],
    ] as const) {
      const want = await listed(query);
      const got: string[] = [];
      let next: string | null = `/v1/proofs/export?format=jsonl&limit=${limit}${query}`;
      let requests = 0;
      while (next !== null) {
        const res = await exportOf(next.slice('/v1/proofs/export'.length));
        t.is(res.status, 200, res.text);
        const page = jsonIds(res.text);
        t.true(page.length <= limit);
        t.is(res.headers.get('x-export-count'), String(page.length));
        t.is(res.headers.get('x-export-limit'), String(limit));
        got.push(...page);
        const link = res.headers.get('link');
        const cursor = res.headers.get('x-next-cursor');
        // The link names the same export with the cursor: nothing else changes.
        if (link !== null) t.is(link, `<${next.replace(/&cursor=[^&]*/, '')}&cursor=${cursor}>; rel="next"`.replace('?&', '?'));
        else t.is(cursor, null);
        // A full export is followed by another only when proofs remain (none past an exact multiple).
        t.is(link !== null, got.length < want.length, `${query} after ${got.length}`);
        next = link === null ? null : /^<([^>]+)>/.exec(link)![1]!;
        requests++;
      }
      t.deepEqual(got, want, query);
      t.is(requests, Math.max(1, Math.ceil(want.length / limit)));
    }
  });

  test(`${label}: bad filters are 422 with a JSON problem, before any byte of an export`, async (t) => {
    const cursor = (await exportOf('?format=jsonl&limit=2&order=asc')).headers.get('x-next-cursor')!;
    const cases: Array<[string, number, string]> = [
      ['?limit=0', 422, 'limit'],
      ['?limit=100001', 422, 'limit'],
      ['?format=xml', 422, 'format'],
      ['?created_after=2026-11-20T00:00:00Z&created_before=2026-11-19T00:00:00Z', 422, 'created_after'],
      ['?created_after=yesterday', 422, 'created_after'],
      ['?cursor=nonsense', 422, 'cursor'],
      [`?cursor=${cursor}&order=desc`, 422, 'cursor'],
      ['?order=asc&sort_order=desc', 422, 'order'],
      ['?sort_field=colour', 422, 'sort_field'],
      ['?robot=arm-a', 400, 'robot'],
    ];
    for (const [query, status, member] of cases) {
      const res = await exportOf(query);
      t.is(res.status, status, query);
      t.regex(res.headers.get('content-type') ?? '', /^application\/(problem\+)?json/, query);
      t.is(res.headers.get('content-disposition'), null, query);
      t.true((JSON.parse(res.text) as { detail: string }).detail.includes(member), `${query}: ${res.text}`);
    }
    t.is((await exportOf('', '')).status, 401);
  });

  test(`${label}: a wallet exports its own proofs only`, async (t) => {
    const mine = jsonIds((await exportOf('?format=jsonl')).text);
    const theirs = jsonIds((await exportOf('?format=jsonl', other)).text);
    t.is(mine.length, PROOFS.length);
    t.is(theirs.length, 1);
    t.false(mine.includes(theirs[0]!));
    t.deepEqual([...mine].sort(), [...ids].sort());
    // Another wallet's cursor positions nothing of this wallet's: its own list continues, never the other's proofs.
    const cursor = (await exportOf('?format=jsonl&limit=1&order=asc')).headers.get('x-next-cursor')!;
    const continued = jsonIds((await exportOf(`?format=jsonl&order=asc&cursor=${cursor}`, other)).text);
    t.true(continued.every((id) => !ids.includes(id) || id === theirs[0]));
  });

  test.serial(`${label}: exports at once take turns for the read slot page by page, and each is whole`, async (t) => {
    const all = await listed('');
    const exports = await Promise.all(Array.from({ length: 6 }, () => exportOf('?format=jsonl')));
    for (const e of exports) {
      t.is(e.status, 200);
      t.deepEqual(jsonIds(e.text), all);
    }
  });
}
