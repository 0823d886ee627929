/// <reference lib="dom" />
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import type { Locator, Page } from 'playwright-core';
import { checkPage, launchChromium, openPage, SCREENSHOTS, type LaunchedBrowser, type Watched } from '../support/browser.js';
import { startDashboardRegistry, type DashboardRegistry } from '../support/dashboard-registry.js';
import { aWallet, type TestWallet } from '../support/identity.js';
import { pastTheEdge } from './fleet-order.js';

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/**
 * The API reference at /docs, on one database: every operation of /openapi.json and
 * /acto/openapi.json listed, read signed out; "Try it" with no credential (401), with a pasted
 * API key, and with the signed-in session, each a real call to the registry. Checked for
 * console errors, CSP violations and axe, at a desktop's width and a phone's, and pictured.
 */
export function apiReferenceFlow(label: string, database: { url(): Promise<string>; drop?(): Promise<void> }): void {
  let registry: DashboardRegistry;
  let chrome: LaunchedBrowser;
  let w: Watched;
  let key = '';
  const wallet: TestWallet = aWallet(41);
  const shot = (name: string) => `${name}${label === 'sqlite' ? '' : `-${label}`}`;

  test.before(async () => {
    [registry, chrome] = await Promise.all([startDashboardRegistry({ databaseUrl: await database.url(), env: { JWT_TTL_S: '86400' } }), launchChromium()]);
    await registry.fund(wallet.address, '50000');
    const token = await registry.signIn(wallet);
    const health = await registry.call('POST', '/v1/fleet/devices/crane-7/health', { credential: token, wallet: wallet.address, body: { status: 'ok' } });
    if (health.status !== 201) throw new Error(`health report: ${health.status} ${JSON.stringify(health.body)}`);
    const created = await registry.call('POST', '/v1/keys', {
      credential: token,
      wallet: wallet.address,
      body: { name: 'reader', scopes: ['fleet:read', 'proofs:read'] },
    });
    if (created.status !== 201) throw new Error(`key: ${created.status} ${JSON.stringify(created.body)}`);
    key = created.body.key as string;
    w = await openPage(chrome.browser, registry.url, { wallet, walletName: 'Test Wallet' });
  });
  test.after.always(async () => {
    await w?.close();
    await chrome?.close();
    await registry?.close();
    await database.drop?.();
  });

  const page = (): Page => w.page;
  /** `get /v1/fleet` for every operation of the document the service serves at `url`. */
  const operationsAt = async (url: string) => {
    const doc = (await registry.call('GET', url)).body as { paths: Record<string, Record<string, unknown>> };
    return Object.entries(doc.paths)
      .flatMap(([path, item]) =>
        Object.keys(item)
          .filter((m) => METHODS.has(m))
          .map((m) => `${m} ${path}`),
      )
      .sort();
  };
  const listed = () =>
    page()
      .locator('details[data-operation]')
      .evaluateAll((ds) => ds.map((d) => d.getAttribute('data-operation')!).sort());
  const operation = async (k: string): Promise<Locator> => {
    const d = page().locator(`details[data-operation="${k}"]`);
    if ((await d.getAttribute('open')) === null) await d.locator('summary').click();
    await d.locator('.try-it').waitFor();
    return d;
  };
  const send = async (op: Locator, method = 'GET') => {
    const before = await op.getByTestId('try-answer').count();
    const answered = page().waitForResponse((r) => r.request().method() === method && !r.url().includes('openapi.json'));
    await op.getByRole('button', { name: `Send ${method}` }).click();
    await answered;
    if (before === 0) await op.getByTestId('try-answer').waitFor();
    await op
      .getByRole('button', { name: `Send ${method}` })
      .and(page().locator(':enabled'))
      .waitFor();
    return { status: Number(await op.getByTestId('try-status').innerText()), body: await op.getByTestId('try-body').innerText() };
  };

  test.serial(`${label}: signed out, /docs lists every operation of both documents, and a call without a credential gets 401`, async (t: ExecutionContext) => {
    await page().goto(`${registry.url}/docs`);
    t.is(new URL(page().url()).pathname, '/dashboard/docs');
    await page().getByRole('heading', { level: 1, name: 'API reference' }).waitFor();
    await page().getByTestId('operation-count').waitFor();
    const v1 = await operationsAt('/openapi.json');
    t.true(v1.length > 50, `${v1.length} operations in /openapi.json`);
    t.deepEqual(await listed(), v1);
    t.is(await page().getByTestId('operation-count').innerText(), `${v1.length} operations in ${await page().locator('.docs-group').count()} groups.`);

    const proofs = await operation('get /v1/proofs');
    t.is(await proofs.getByTestId('required-scope').innerText(), 'proofs:read');
    t.true((await proofs.locator('.responses').innerText()).includes('next_cursor'), 'the 200 answer drawn as a tree of its members');
    t.true(await proofs.getByRole('radio', { name: /signed-in session/ }).isDisabled());
    await proofs.getByRole('radio', { name: 'None' }).check();
    const refused = await send(proofs);
    t.is(refused.status, 401);
    t.regex(refused.body, /"detail"/);
    await checkPage(t, w, shot('api-reference-signed-out'));
    await page().evaluate(() => window.scrollTo(0, 0));
    await page().screenshot({ path: path.join(SCREENSHOTS, `${shot('api-reference-top')}.png`) });

    await page().getByRole('navigation', { name: 'API' }).getByRole('link', { name: '/acto' }).click();
    await page().locator('details[data-operation="get /acto/v1/fleet"]').waitFor();
    t.deepEqual(await listed(), await operationsAt('/acto/openapi.json'));
    t.is(new URL(page().url()).search, '?doc=acto');
  });

  test.serial(`${label}: try it with a pasted API key (kept nowhere) and with the signed-in session`, async (t: ExecutionContext) => {
    // Signed out, a key pasted on /acto's fleet overview (scope fleet:read).
    await page().goto(`${registry.url}/dashboard/docs?doc=acto`);
    const fleet = await operation('get /acto/v1/fleet');
    t.is(await fleet.getByTestId('required-scope').innerText(), 'fleet:read');
    await fleet.getByRole('radio', { name: 'An API key' }).check();
    await fleet.getByLabel(/^API key/).fill(key);
    await fleet.getByLabel(/^X-Wallet-Address/).fill(wallet.address);
    const withKey = await send(fleet);
    t.is(withKey.status, 200, withKey.body);
    t.true(withKey.body.includes('"id": "crane-7"'), withKey.body);
    t.false(await page().evaluate((k) => JSON.stringify({ ...sessionStorage, ...localStorage }).includes(k), key), 'the key is stored nowhere');

    // Signed in, the reference is in the navigation and calls with the session's token.
    await page().goto(`${registry.url}/dashboard/`);
    await page().getByRole('button', { name: 'Test Wallet' }).click();
    await page().getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page().getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'API reference' }).click();
    await page().getByRole('heading', { level: 1, name: 'API reference' }).waitFor();
    const signedIn = await operation('get /v1/fleet');
    t.true(await signedIn.getByRole('radio', { name: 'The signed-in session' }).isChecked());
    t.is(await signedIn.getByLabel(/^X-Wallet-Address/).inputValue(), wallet.address);
    const withSession = await send(signedIn);
    t.is(withSession.status, 200, withSession.body);
    t.true(withSession.body.includes('"device_id": "crane-7"'), withSession.body);
    await signedIn.getByText(/^Headers \(\d+\)$/).click();
    t.regex(await signedIn.locator('.try-answer pre').first().innerText(), /content-type: application\/json/);
    await signedIn.getByText(/^Headers \(\d+\)$/).click();
    // The picture for the docs: the operation, its answer drawn as a tree, and the call's answer.
    await page().setViewportSize({ width: 1280, height: 1100 });
    await signedIn.locator('.try-it').evaluate((f) => window.scrollTo(0, f.getBoundingClientRect().top + window.scrollY - 380));
    await page().screenshot({ path: path.join(SCREENSHOTS, `${shot('api-reference-try-it')}.png`) });
    await page().setViewportSize({ width: 1280, height: 860 });

    // A body prefilled from its schema: a group with no name is refused with the reason.
    const group = await operation('post /v1/fleet/groups');
    t.deepEqual(JSON.parse(await group.getByLabel('Body (JSON)').inputValue()), { name: '' });
    const unnamed = await send(group, 'POST');
    t.is(unnamed.status, 422);
    await group.getByLabel('Body (JSON)').fill('{"name": "yard"}');
    t.is((await send(group, 'POST')).status, 201);
    await checkPage(t, w, shot('api-reference'));

    await page().setViewportSize({ width: 390, height: 844 });
    t.true(
      await page().evaluate(() => document.documentElement.scrollWidth <= 390),
      `no sideways scroll at 390 px; past it: ${await pastTheEdge(page(), 390)}`,
    );
    await checkPage(t, w, shot('api-reference-phone'));
    await page().setViewportSize({ width: 1280, height: 860 });
  });
}
