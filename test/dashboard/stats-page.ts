import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import type { Page } from 'playwright-core';
import { axeViolations, checkPage, launchChromium, openPage, SCREENSHOTS, type LaunchedBrowser, type Watched } from '../support/browser.js';
import { startDashboardRegistry, type DashboardRegistry } from '../support/dashboard-registry.js';
import { aWallet, ManualClock } from '../support/identity.js';
import { anEnvelope } from '../support/mothers.js';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/**
 * The Statistics page on one database: proofs seeded at chosen times (robots, tasks, hours, a
 * refused submission, and a second wallet whose figures must not show), the figures the page
 * shows checked against them in each range, the CSV export read back, axe at a desktop's width
 * and no sideways scroll at a phone's.
 */
export function statsPage(label: string, database: { url(): Promise<string>; drop?(): Promise<void> }): void {
  let registry: DashboardRegistry;
  let chrome: LaunchedBrowser;
  let w: Watched;
  const alice = aWallet(41);
  const bob = aWallet(42);
  // The registry's clock stands half past the current hour (the page's session is checked against real time).
  const H = Math.floor(Date.now() / HOUR) * HOUR;
  const clock = new ManualClock(H + 30 * 60_000);
  // [robot, task, created_at]: 7 proofs in the last 7 days, 5 of them in the last 24 hours, one 40 days back.
  const seeded: Array<readonly [string | undefined, string, number]> = [
    ['arm-1', 'pick', H - HOUR + 10 * 60_000],
    ['arm-1', 'pick', H - HOUR + 20 * 60_000],
    ['arm-2', 'place', H - HOUR + 40 * 60_000],
    ['arm-1', 'scan', H + 5 * 60_000],
    ['arm-3', 'pick', H - 20 * HOUR],
    ['arm-2', 'pick', H - 3 * DAY],
    [undefined, 'place', H - 2 * DAY],
    ['arm-4', 'sort', H - 40 * DAY],
  ];

  test.before(async () => {
    [registry, chrome] = await Promise.all([
      startDashboardRegistry({ databaseUrl: await database.url(), clock, env: { JWT_TTL_S: '86400' } }),
      launchChromium(),
    ]);
    await registry.fund(alice.address, '50000');
    await registry.fund(bob.address, '50000');
    const keyOf = async (wallet: typeof alice) => {
      const token = await registry.signIn(wallet);
      return (await registry.call('POST', '/v1/keys', { credential: token, wallet: wallet.address, body: { name: 'robots' } })).body.key as string;
    };
    const submit = async (key: string, wallet: string, envelope: unknown, status = 200) => {
      const res = await registry.call('POST', '/v1/proofs', { credential: key, wallet, body: { envelope } });
      if (res.status !== status) throw new Error(`submit: ${res.status} ${JSON.stringify(res.body)}`);
    };
    const aliceKey = await keyOf(alice);
    for (const [robotId, taskId, at] of seeded)
      await submit(aliceKey, alice.address, anEnvelope({ taskId, createdAt: iso(at), ...(robotId ? { robotId } : {}) }));
    await submit(aliceKey, alice.address, { ...anEnvelope({ taskId: 'bad' }), signature_b64: 'A'.repeat(88) }, 422);
    const bobKey = await keyOf(bob);
    for (const m of [5, 15, 25, 35])
      await submit(bobKey, bob.address, anEnvelope({ taskId: 'bob-task', robotId: 'arm-1', createdAt: iso(H - HOUR + m * 60_000) }));
    w = await openPage(chrome.browser, registry.url, { wallet: alice, walletName: 'Test Wallet' });
  });
  test.after.always(async () => {
    await w?.close();
    await chrome?.close();
    await registry?.close();
    await database.drop?.();
  });

  const page = (): Page => w.page;
  const text = async (testId: string) => ((await page().getByTestId(testId).textContent()) ?? '').trim();
  /** The rows of the table under a chart's "Show as a table", each as its cells' text. */
  const tableOf = async (title: string) => {
    const figure = page().locator('figure', { has: page().locator('figcaption', { hasText: title }) });
    const details = figure.locator('details');
    if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) await figure.getByText('Show as a table').click();
    return figure.locator('table tr').evaluateAll((rows) => rows.map((r) => Array.from(r.children).map((c) => (c.textContent ?? '').trim())));
  };
  const showRange = async (name: string, proofs: string) => {
    await page().getByRole('navigation', { name: 'Time range' }).getByRole('link', { name }).click();
    await page().getByTestId('stats-window').filter({ hasText: name }).waitFor();
    await page()
      .getByTestId('stat-proofs')
      .filter({ hasText: new RegExp(`^${proofs}$`) })
      .waitFor();
  };

  test.serial(`${label}: the page shows the seeded figures in each range, and none of another wallet's`, async (t: ExecutionContext) => {
    await page().goto(`${registry.url}/`);
    await page().getByRole('button', { name: 'Test Wallet' }).click();
    await page().getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page().getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Statistics' }).click();
    await page().getByRole('heading', { level: 1, name: 'Statistics' }).waitFor();
    await page().getByTestId('stats-window').waitFor();

    // The last 7 days, the default.
    t.true((await text('stats-window')).startsWith('Last 7 days'));
    t.is(await text('stat-proofs'), '7');
    t.is(await text('stat-refused'), '1');
    t.is(await text('stat-requests'), '9', 'eight proofs and one refusal sent with the key');
    t.deepEqual(await tableOf('Proofs by robot'), [
      ['Robot', 'Proofs'],
      ['arm-1', '3'],
      ['arm-2', '2'],
      ['arm-3', '1'],
      ['Other', '1'],
      ['Total', '7'],
    ]);
    t.deepEqual(await tableOf('Proofs by task'), [
      ['Task', 'Proofs'],
      ['pick', '4'],
      ['place', '2'],
      ['scan', '1'],
      ['Other', '0'],
      ['Total', '7'],
    ]);
    const heat = await tableOf('Proofs by day of the week and hour (UTC)');
    const cellAt = (ms: number) => {
      const day = new Date(ms);
      return heat.find((r) => r[0] === WEEKDAYS[(day.getUTCDay() + 6) % 7])![day.getUTCHours() + 1];
    };
    t.is(cellAt(H - HOUR), '3', 'the three proofs of the last hour');
    t.is(
      heat.slice(1).reduce((n, r) => n + r.slice(1).reduce((m, c) => m + Number(c), 0), 0),
      7,
    );
    t.deepEqual(await tableOf('API requests per endpoint'), [
      ['Endpoint', 'Requests', 'Errors'],
      ['POST /v1/proofs', '9', '1'],
      ['Total', '9', '1'],
    ]);
    const overTime = await tableOf('Proofs per day');
    t.is(overTime.length, 8, 'a header and seven days');

    // The last 24 hours, by hour; the range is in the URL.
    await showRange('Last 24 hours', '5');
    t.is(new URL(page().url()).searchParams.get('range'), '24h');
    t.deepEqual((await tableOf('Proofs by robot')).slice(1, 4), [
      ['arm-1', '3'],
      ['arm-2', '1'],
      ['arm-3', '1'],
    ]);
    t.is((await tableOf('Proofs per hour')).length, 25);
    await showRange('Last 90 days', '8');

    // A custom range of one day, 40 days back: its one proof.
    const day = new Date(H - 40 * DAY).toISOString().slice(0, 10);
    await page().getByLabel('From').fill(day);
    await page().getByLabel('To (included)').fill(day);
    await page().getByRole('button', { name: 'Show' }).click();
    await page().getByTestId('stats-window').filter({ hasText: 'Custom range' }).waitFor();
    await page().getByTestId('stat-proofs').filter({ hasText: /^1$/ }).waitFor();
    t.is(new URL(page().url()).searchParams.get('from'), day);
    t.deepEqual((await tableOf('Proofs by robot')).slice(1, 2), [['arm-4', '1']]);
    t.is(await text('stat-refused'), '0');
  });

  test.serial(`${label}: Download CSV saves the figures of the range shown`, async (t: ExecutionContext) => {
    await showRange('Last 24 hours', '5');
    const [download] = await Promise.all([page().waitForEvent('download'), page().getByRole('button', { name: 'Download CSV' }).click()]);
    t.regex(download.suggestedFilename(), /^statistics-\d{4}-\d{2}-\d{2}T\d{2}Z-\d{4}-\d{2}-\d{2}T\d{2}Z\.csv$/);
    const lines = readFileSync((await download.path())!, 'utf8').split('\r\n');
    t.is(lines[0], 'section,key,metric,value');
    for (const row of [
      'robots,arm-1,proofs,3',
      'robots,,total,5',
      'tasks,pick,proofs,3',
      `series,${new Date(H - HOUR).toISOString()},proofs,3`,
      'requests,POST /v1/proofs,errors,1',
    ])
      t.true(lines.includes(row), row);
    t.false(lines.some((l) => l.includes('bob-task')));
    const [json] = await Promise.all([page().waitForEvent('download'), page().getByRole('button', { name: 'Download JSON' }).click()]);
    t.like(JSON.parse(readFileSync((await json.path())!, 'utf8')), { range: '24h', proofs: 5, refused: 1 });
  });

  test.serial(`${label}: axe finds nothing, and a phone's width needs no sideways scroll`, async (t: ExecutionContext) => {
    await showRange('Last 7 days', '7');
    await page().locator('.chart-canvas canvas').first().waitFor();
    await checkPage(t, w, `statistics${label === 'sqlite' ? '' : `-${label}`}`);
    if (label === 'sqlite') {
      mkdirSync('docs/images', { recursive: true });
      copyFileSync(path.join(SCREENSHOTS, 'statistics.png'), 'docs/images/dashboard-statistics.png');
    }
    await page().setViewportSize({ width: 390, height: 844 });
    for (const summary of await page().getByText('Show as a table').all()) await summary.click();
    const wide = await page().evaluate(() =>
      Array.from(document.querySelectorAll('body *'))
        .filter((e) => e.getBoundingClientRect().right > 391)
        .slice(0, 8)
        .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`),
    );
    t.true(
      await page().evaluate(() => document.documentElement.scrollWidth <= 390),
      `scrollWidth ${await page().evaluate(() => document.documentElement.scrollWidth)}: ${wide.join(', ')}`,
    );
    t.deepEqual(await axeViolations(page()), [], 'axe at a phone width, tables open');
    await page().screenshot({ path: path.join(SCREENSHOTS, `statistics-phone${label === 'sqlite' ? '' : `-${label}`}.png`), fullPage: true });
    await page().setViewportSize({ width: 1280, height: 860 });
  });
}
