import test from 'ava';
import { anEnvelope } from '../../support/mothers.js';
import { aWallet, ManualClock } from '../../support/identity.js';
import { startDashboardRegistry, type DashboardRegistry } from '../../support/dashboard-registry.js';
import { openApiConformance } from '../../support/openapi-conformance.js';

// The statistics report behind the dashboard's Statistics page and its exports, on the production wiring (SQLite).
const clock = new ManualClock(Date.parse('2026-11-20T10:30:00Z')); // a Friday
const alice = aWallet(31);
const bob = aWallet(32);
let registry: DashboardRegistry;
let token: string;
const report = (query: string, as = alice, credential = () => token) =>
  registry.call('GET', `/v1/stats/wallet/${as.address}/report${query}`, { credential: credential(), wallet: alice.address });

test.before(async () => {
  registry = await startDashboardRegistry({ clock });
  await registry.fund(alice.address, '50000');
  await registry.fund(bob.address, '50000');
  token = await registry.signIn(alice);
  const keyOf = async (wallet: typeof alice, credential: string) =>
    (await registry.call('POST', '/v1/keys', { credential, wallet: wallet.address, body: { name: 'robots' } })).body.key as string;
  const aliceKey = await keyOf(alice, token);
  const bobKey = await keyOf(bob, await registry.signIn(bob));
  const submit = async (key: string, wallet: string, envelope: unknown, status = 200) => {
    const res = await registry.call('POST', '/v1/proofs', { credential: key, wallet, body: { envelope } });
    if (res.status !== status) throw new Error(`submit: ${res.status} ${JSON.stringify(res.body)}`);
  };
  for (const [robotId, taskId, createdAt] of [
    ['arm-1', 'pick', '2026-11-20T09:10:00Z'],
    ['arm-2', 'pick', '2026-11-20T09:50:00Z'],
    ['arm-1', 'place', '2026-11-20T10:05:00Z'],
    [undefined, 'place', '2026-11-20T10:10:00Z'],
    ['arm-3', 'scan', '2026-11-19T22:00:00Z'],
    ['arm-1', 'pick', '2026-11-16T08:00:00Z'],
    ['arm-2', 'sort', '2026-11-01T12:00:00Z'],
  ] as const)
    await submit(aliceKey, alice.address, anEnvelope({ taskId, createdAt, ...(robotId ? { robotId } : {}) }));
  const tampered = { ...anEnvelope({ taskId: 'bad' }), signature_b64: 'A'.repeat(88) };
  await submit(aliceKey, alice.address, tampered, 422);
  await submit(aliceKey, alice.address, tampered, 422);
  // Bob's proofs and requests, in the same hours: none may show in Alice's figures.
  for (const createdAt of ['2026-11-20T09:30:00Z', '2026-11-20T09:31:00Z', '2026-11-19T23:00:00Z'])
    await submit(bobKey, bob.address, anEnvelope({ taskId: 'bob-task', robotId: 'arm-1', createdAt }));
});
test.after.always(async () => registry?.close());

test.serial('the last 24 hours: by hour, refusals, top robots and tasks with the rest summed, weekday × hour, requests per endpoint', async (t) => {
  const res = await report('?range=24h&top=1');
  t.is(res.status, 200, JSON.stringify(res.body));
  t.like(res.body, { range: '24h', bucket: 'hour', from: '2026-11-19T11:00:00.000Z', to: '2026-11-20T11:00:00.000Z', time_zone: 'UTC', proofs: 5, refused: 2 });
  t.is(res.body.series.length, 24);
  t.deepEqual(res.body.series.at(-2), { t: '2026-11-20T09:00:00.000Z', proofs: 2, refused: 0 });
  t.deepEqual(res.body.series.at(-1), { t: '2026-11-20T10:00:00.000Z', proofs: 2, refused: 2 });
  // arm-1 has 2, arm-2 and arm-3 one each, one proof names no robot.
  t.deepEqual(res.body.robots, { entries: [{ id: 'arm-1', proofs: 2 }], other: 3, total: 5 });
  // pick 2, place 2 (ties by id: place first), scan 1.
  t.deepEqual(res.body.tasks, { entries: [{ id: 'pick', proofs: 2 }], other: 3, total: 5 });
  const grid = res.body.weekday_hours as number[][];
  t.is(grid.length, 7);
  t.true(grid.every((row) => row.length === 24));
  t.is(grid[4]![9], 2, 'Friday 09:00');
  t.is(grid[4]![10], 2, 'Friday 10:00');
  t.is(grid[3]![22], 1, 'Thursday 22:00');
  t.is(
    grid.flat().reduce((a, b) => a + b, 0),
    5,
  );
  // Requests are kept by day: the window's two days.
  t.like(res.body.requests, { from: '2026-11-19T00:00:00.000Z', to: '2026-11-21T00:00:00.000Z', requests: 9, errors: 2 });
  t.deepEqual(res.body.requests.endpoints, [{ endpoint: 'POST /v1/proofs', requests: 9, errors: 2 }]);
});

test.serial('named ranges by day and a custom window; the top entries are in order, ties by id', async (t) => {
  const week = await report('?range=7d');
  t.like(week.body, { range: '7d', bucket: 'day', from: '2026-11-14T00:00:00.000Z', to: '2026-11-21T00:00:00.000Z', proofs: 6, refused: 2 });
  t.deepEqual(
    week.body.series.map((p: { proofs: number }) => p.proofs),
    [0, 0, 1, 0, 0, 1, 4],
  );
  t.deepEqual(week.body.robots, {
    entries: [
      { id: 'arm-1', proofs: 3 },
      { id: 'arm-2', proofs: 1 },
      { id: 'arm-3', proofs: 1 },
    ],
    other: 1,
    total: 6,
  });
  t.deepEqual((await report('')).body.robots, week.body.robots, '7d is the default');
  const month = await report('?range=30d');
  t.like(month.body, { bucket: 'day', from: '2026-10-22T00:00:00.000Z', proofs: 7 });
  t.is(month.body.series.length, 30);
  t.deepEqual(month.body.tasks.entries, [
    { id: 'pick', proofs: 3 },
    { id: 'place', proofs: 2 },
    { id: 'scan', proofs: 1 },
    { id: 'sort', proofs: 1 },
  ]);
  const quarter = await report('?range=90d');
  t.like(quarter.body, { bucket: 'day', from: '2026-08-23T00:00:00.000Z', proofs: 7 });
  t.is(quarter.body.series.length, 90);

  const hours = await report('?from=2026-11-20T09:15:00Z&to=2026-11-20T10:00:00Z');
  t.like(hours.body, { range: 'custom', bucket: 'hour', from: '2026-11-20T09:00:00.000Z', to: '2026-11-20T10:00:00.000Z', proofs: 2 });
  const days = await report('?from=2026-11-15T00:00:00Z&to=2026-11-20T00:00:00Z');
  t.like(days.body, { range: 'custom', bucket: 'day', proofs: 2 });
  t.is(days.body.series.length, 5);
});

test.serial('one wallet never sees another: its own report has only its proofs, and asking for another address is 403', async (t) => {
  const bobToken = await registry.signIn(bob);
  const own = await registry.call('GET', `/v1/stats/wallet/${bob.address}/report?range=24h`, { credential: bobToken, wallet: bob.address });
  t.like(own.body, { proofs: 3, refused: 0 });
  t.deepEqual(own.body.robots.entries, [{ id: 'arm-1', proofs: 3 }]);
  t.deepEqual(own.body.requests.endpoints, [{ endpoint: 'POST /v1/proofs', requests: 3, errors: 0 }]);
  const other = await report('?range=24h', bob);
  t.is(other.status, 403);
  t.is(other.body.code, 'forbidden_wallet');
  t.is((await registry.call('GET', `/v1/stats/wallet/${alice.address}/report`)).status, 401);
});

test.serial('a bad window or parameter is 422 naming the problem', async (t) => {
  const cases: Array<[string, RegExp]> = [
    ['?from=2026-11-20T00:00:00Z&to=2026-11-19T00:00:00Z', /later than from/],
    ['?from=2026-11-20T00:00:00Z&to=2026-11-20T00:00:00Z', /later than from/],
    ['?from=2025-01-01T00:00:00Z&to=2026-11-20T00:00:00Z', /spans 688 days; at most 366/],
    ['?range=7d&from=2026-11-19T00:00:00Z&to=2026-11-20T00:00:00Z', /either range or from and to/],
    ['?from=2026-11-19T00:00:00Z', /to is missing/],
    ['?to=2026-11-19T00:00:00Z', /from is missing/],
    ['?range=1y', /range.*must be one of 24h, 7d, 30d, 90d/],
    ['?format=xml', /format.*must be one of json, csv/],
    ['?top=0', /top.*from 1 to 50/],
    ['?from=yesterday&to=2026-11-19T00:00:00Z', /RFC 3339/],
  ];
  for (const [query, detail] of cases) {
    const res = await report(query);
    t.is(res.status, 422, query);
    t.regex(res.body.detail, detail, query);
  }
  t.is((await report('?from=2025-11-20T00:00:00Z&to=2026-11-20T00:00:00Z')).status, 200, '365 days is allowed');
});

test.serial('format=csv: one figure per row under section,key,metric,value, as an attachment; format=json as an attachment', async (t) => {
  const res = await report('?range=24h&top=2&format=csv');
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /^text\/csv; charset=utf-8/);
  t.is(res.headers.get('content-disposition'), 'attachment; filename="statistics-2026-11-19T11Z-2026-11-20T11Z.csv"');
  const lines = (res.body as string).split('\r\n');
  t.is(lines[0], 'section,key,metric,value');
  t.is(lines.at(-1), '', 'every row ends with CRLF');
  for (const row of [
    'series,2026-11-20T09:00:00.000Z,proofs,2',
    'series,2026-11-20T10:00:00.000Z,refused,2',
    'robots,arm-1,proofs,2',
    'robots,arm-2,proofs,1',
    'robots,,other,2',
    'robots,,total,5',
    'tasks,place,proofs,2',
    'weekday_hours,Fri 09,proofs,2',
    'weekday_hours,Thu 22,proofs,1',
    'requests,POST /v1/proofs,requests,9',
    'requests,POST /v1/proofs,errors,2',
    'requests,,requests,9',
  ])
    t.true(lines.includes(row), row);
  t.is(lines.filter((l) => l.startsWith('series,')).length, 48);
  t.is(lines.filter((l) => l.startsWith('weekday_hours,')).length, 7 * 24);

  const json = await report('?range=24h&format=json');
  t.is(json.headers.get('content-disposition'), 'attachment; filename="statistics-2026-11-19T11Z-2026-11-20T11Z.json"');
  t.like(json.body, { proofs: 5, refused: 2 });
  t.is((await report('?range=24h')).headers.get('content-disposition'), null);
});

test.serial('the answers match the OpenAPI document', async (t) => {
  const check = openApiConformance((await registry.call('GET', '/openapi.json')).body);
  for (const [status, res] of [
    [200, await report('?range=30d')],
    [422, await report('?range=1y')],
    [403, await report('', bob)],
  ] as const) {
    t.is(res.status, status);
    t.is(check('/v1/stats/wallet/{addr}/report', 'get', status, res.body), null);
  }
  const doc = (await registry.call('GET', '/openapi.json')).body;
  t.truthy(doc.paths['/v1/stats/wallet/{addr}/report'].get.responses['200'].content['text/csv']);
});
