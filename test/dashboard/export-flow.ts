import { readFile } from 'node:fs/promises';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { checkPage, launchChromium, openPage, type LaunchedBrowser, type Watched } from '../support/browser.js';
import { parseCsv } from '../support/csv.js';
import { startDashboardRegistry, type DashboardRegistry } from '../support/dashboard-registry.js';
import { aWallet, type TestWallet } from '../support/identity.js';
import { anEnvelope } from '../support/mothers.js';

/** Proofs of two robots; task ids a spreadsheet would misread, or that need quoting. */
const PROOFS = [
  { taskId: 'weld-seam-12', robotId: 'arm-1', createdAt: '2026-11-19T08:00:00Z', meta: { site: 'Lyon' } },
  { taskId: 'pick, then place "B"', robotId: 'arm-1', createdAt: '2026-11-19T09:00:00Z' },
  { taskId: '=HYPERLINK("http://x")', robotId: 'arm-1', createdAt: '2026-11-19T10:00:00Z' },
  { taskId: 'two\nlines', robotId: 'arm-1', createdAt: '2026-11-19T10:30:00Z' },
  { taskId: 'inspect-4', robotId: 'arm-2', createdAt: '2026-11-19T11:00:00Z' },
  { taskId: 'inspect-5', robotId: 'arm-2', createdAt: '2026-11-19T12:00:00Z' },
];

/**
 * Exporting from the proofs page, on one database: the current filters apply, the file is
 * saved through the browser's download, holds exactly the search's proofs (CSV quoted, no
 * cell a formula; JSON Lines as stored), and the page says how many proofs came and the cap.
 * The page is checked for console errors, CSP violations and axe-core violations.
 */
export function exportFlow(label: string, database: { url(): Promise<string>; drop?(): Promise<void> }): void {
  let registry: DashboardRegistry;
  let chrome: LaunchedBrowser;
  let w: Watched;
  const wallet: TestWallet = aWallet(11);

  test.before(async () => {
    [registry, chrome] = await Promise.all([startDashboardRegistry({ databaseUrl: await database.url(), env: { JWT_TTL_S: '86400' } }), launchChromium()]);
    await registry.fund(wallet.address, '50000');
    const token = await registry.signIn(wallet);
    for (const p of PROOFS) {
      const res = await registry.call('POST', '/v1/proofs', { credential: token, wallet: wallet.address, body: { envelope: anEnvelope(p) } });
      if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    }
    w = await openPage(chrome.browser, registry.url, { wallet, walletName: 'Test Wallet' });
    await w.page.goto(`${registry.url}/`);
    await w.page.getByRole('button', { name: 'Test Wallet' }).click();
    await w.page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  });
  test.after.always(async () => {
    await w?.close();
    await chrome?.close();
    await registry?.close();
    await database.drop?.();
  });

  const exportAs = async (button: string) => {
    const [download] = await Promise.all([w.page.waitForEvent('download'), w.page.getByRole('button', { name: button }).click()]);
    const saved = await download.path();
    return { name: download.suggestedFilename(), text: await readFile(saved, 'utf8') };
  };

  test.serial(`${label}: Export CSV saves the filtered search's proofs, says how many, and shows the file's first lines`, async (t: ExecutionContext) => {
    await w.page.goto(`${registry.url}/dashboard/proofs`);
    await w.page.getByRole('heading', { level: 1, name: 'Proofs' }).waitFor();
    await w.page.getByLabel('Robot id').fill('arm-1');
    await w.page.getByLabel('Order').selectOption('asc');
    await w.page.getByRole('button', { name: 'Search' }).click();
    await w.page.waitForURL(/robot_id=arm-1/);
    await w.page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 4);

    const csv = await exportAs('Export CSV');
    t.regex(csv.name, /^proofs-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = parseCsv(csv.text);
    t.deepEqual(rows[0]!.slice(0, 5), ['proof_id', 'created_at', 'received_at', 'task_id', 'robot_id']);
    t.deepEqual(
      rows.slice(1).map((r) => [r[3], r[4]]),
      [
        ['weld-seam-12', 'arm-1'],
        ['pick, then place "B"', 'arm-1'],
        ['\'=HYPERLINK("http://x")', 'arm-1'],
        ['two\nlines', 'arm-1'],
      ],
    );
    const done = w.page.getByTestId('export-done');
    await done.waitFor();
    t.is(await done.innerText(), `Saved 4 proofs to ${csv.name}. That is every proof of this search.`);
    t.true((await w.page.getByText('up to 100,000 proofs an export').count()) === 1);
    const head = await w.page.getByLabel(`The first lines of ${csv.name}`).innerText();
    t.true(head.startsWith('proof_id,created_at,received_at,task_id,robot_id'));
    t.true(head.includes('weld-seam-12'));
    await checkPage(t, w, `proofs-export${label === 'sqlite' ? '' : `-${label}`}`);
    if (label === 'sqlite') await w.page.screenshot({ path: path.resolve('docs/images/dashboard-export.png'), fullPage: true });
  });

  test.serial(`${label}: Export JSONL saves one record per proof, values as stored`, async (t: ExecutionContext) => {
    await w.page.goto(`${registry.url}/dashboard/proofs?robot_id=arm-2`);
    await w.page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 2);
    const jsonl = await exportAs('Export JSONL');
    t.regex(jsonl.name, /\.jsonl$/);
    const items = jsonl.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { task_id: string; robot_id: string });
    t.deepEqual(
      items.map((i) => i.task_id),
      ['inspect-5', 'inspect-4'],
    );
    await w.page.getByTestId('export-done').waitFor();
    t.is(await w.page.getByTestId('export-done').innerText(), `Saved 2 proofs to ${jsonl.name}. That is every proof of this search.`);
    t.deepEqual(w.problems, []);
  });

  test.serial(`${label}: a key's usage downloads as CSV, a row per endpoint and day`, async (t: ExecutionContext) => {
    const token = await registry.signIn(wallet);
    const created = await registry.call('POST', '/v1/keys', { credential: token, wallet: wallet.address, body: { name: 'reader' } });
    const { key, key_id: keyId } = created.body as { key: string; key_id: string };
    t.is((await registry.call('GET', '/v1/proofs', { credential: key, wallet: wallet.address })).status, 200);
    t.is((await registry.call('GET', '/v1/proofs/prf_nope', { credential: key, wallet: wallet.address })).status, 404);
    await w.page.goto(`${registry.url}/dashboard/keys?key=${keyId}`);
    await w.page.locator('figcaption', { hasText: 'Requests and errors per endpoint' }).waitFor();
    const csv = await exportAs('Download CSV');
    t.is(csv.name, `key-usage-${keyId}-30d.csv`);
    const rows = parseCsv(csv.text);
    const today = new Date().toISOString().slice(0, 10);
    t.deepEqual(rows[0], ['endpoint', 'day', 'request_count', 'error_count']);
    t.is(rows.length, 1 + 3 * 30, 'every day of the window, for all endpoints and each of the two');
    for (const row of [
      ['*', today, '2', '1'],
      ['GET /v1/proofs', today, '1', '0'],
      ['GET /v1/proofs/{proof_id}', today, '1', '1'],
    ])
      t.true(
        rows.some((r) => r.join() === row.join()),
        row.join(),
      );
    const json = await exportAs('Download JSON');
    t.like(JSON.parse(json.text), { key_id: keyId, days: 30 });
    t.deepEqual(w.problems, []);
  });
}
