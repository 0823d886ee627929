/// <reference lib="dom" />
import test, { type ExecutionContext } from 'ava';
import type { Page } from 'playwright-core';
import { checkPage, launchChromium, openPage, type LaunchedBrowser, type Watched } from '../support/browser.js';
import { startDashboardRegistry, type DashboardRegistry } from '../support/dashboard-registry.js';
import { aWallet, type TestWallet } from '../support/identity.js';

/**
 * The fleet's order set from the dashboard, on one database: a row dragged by its handle, rows
 * moved with the keyboard, a refused save put back; and the order then read the same in GET
 * /v1/fleet, in GET /acto/v1/fleet and in the page after a reload. Checked at a desktop's
 * width and a phone's (no sideways scroll), and pictured.
 */
export function fleetOrderFlow(label: string, database: { url(): Promise<string>; drop?(): Promise<void> }): void {
  let registry: DashboardRegistry;
  let chrome: LaunchedBrowser;
  let w: Watched;
  let token = '';
  const wallet: TestWallet = aWallet(31);
  const other: TestWallet = aWallet(32);
  const ids = ['dock-a', 'dock-b', 'dock-c', 'dock-d'];
  const shot = (name: string) => `${name}${label === 'sqlite' ? '' : `-${label}`}`;

  test.before(async () => {
    [registry, chrome] = await Promise.all([startDashboardRegistry({ databaseUrl: await database.url(), env: { JWT_TTL_S: '86400' } }), launchChromium()]);
    await registry.fund(wallet.address, '50000');
    await registry.fund(other.address, '50000');
    token = await registry.signIn(wallet);
    for (const id of ids) {
      const res = await registry.call('POST', `/v1/fleet/devices/${id}/health`, {
        credential: token,
        wallet: wallet.address,
        body: { status: 'ok', cpu_percent: 20 },
      });
      if (res.status !== 201) throw new Error(`health report for ${id}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    // Another wallet's device of the same name: its order is its own.
    const otherToken = await registry.signIn(other);
    await registry.call('POST', '/v1/fleet/devices/dock-a/health', { credential: otherToken, wallet: other.address, body: { status: 'ok' } });
    w = await openPage(chrome.browser, registry.url, { wallet, walletName: 'Test Wallet' });
  });
  test.after.always(async () => {
    await w?.close();
    await chrome?.close();
    await registry?.close();
    await database.drop?.();
  });

  const page = (): Page => w.page;
  const rows = () => page().locator('tbody tr[data-device-id]');
  const shown = async () => rows().evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-device-id')));
  const announced = () => page().getByTestId('order-announcement').innerText();
  /** Does `act`, and waits for the save it starts to be answered. */
  const saving = async (act: () => Promise<void>) => {
    const answered = page().waitForResponse((r) => r.url().endsWith('/v1/fleet/devices/order') && r.request().method() === 'PATCH');
    await act();
    return (await answered).status();
  };
  const v1Order = async () => {
    const res = await registry.call('GET', '/v1/fleet', { credential: token, wallet: wallet.address });
    return (res.body.devices as { device_id: string }[]).map((d) => d.device_id);
  };
  const actoOrder = async () => {
    const res = await registry.call('GET', '/acto/v1/fleet', { credential: token, wallet: wallet.address });
    return (res.body.devices as { id: string }[]).map((d) => d.id);
  };

  test.serial(
    `${label}: a row dragged by its handle, rows moved with the keyboard; the order is the same in /v1, /acto and after a reload`,
    async (t: ExecutionContext) => {
      await page().goto(`${registry.url}/`);
      await page().getByRole('button', { name: 'Test Wallet' }).click();
      await page().getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      await page().getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Fleet' }).click();
      await page().getByRole('heading', { level: 1, name: 'Fleet' }).waitFor();
      await rows().first().waitFor();
      t.deepEqual(await shown(), ids, 'never placed: by id');

      // Drag dock-d onto the first row: it takes the first place.
      const dragged = rows().filter({ has: page().getByRole('link', { name: 'dock-d', exact: true }) });
      t.is(await saving(() => dragged.getByTestId('drag-handle').dragTo(rows().first())), 200);
      t.deepEqual(await shown(), ['dock-d', 'dock-a', 'dock-b', 'dock-c']);
      t.is(await announced(), 'dock-d moved to position 1 of 4.');
      t.deepEqual(await v1Order(), ['dock-d', 'dock-a', 'dock-b', 'dock-c']);

      // With the keyboard: dock-c up twice; the button keeps the focus as its row moves.
      await page().getByRole('button', { name: 'Move dock-c up' }).focus();
      t.is(await saving(() => page().keyboard.press('Enter')), 200);
      t.is(await announced(), 'dock-c moved to position 3 of 4.');
      t.is(await saving(() => page().keyboard.press('Space')), 200);
      t.is(await announced(), 'dock-c moved to position 2 of 4.');
      t.true(
        await page()
          .getByRole('button', { name: 'Move dock-c up' })
          .evaluate((b) => b === document.activeElement),
      );
      // dock-a down once: from second-last to last.
      await page().getByRole('button', { name: 'Move dock-a down' }).focus();
      t.is(await saving(() => page().keyboard.press('Enter')), 200);
      const expected = ['dock-d', 'dock-c', 'dock-b', 'dock-a'];
      t.deepEqual(await shown(), expected);
      // At the end of the list the button says so and stays focused; nothing is saved.
      t.is(await page().getByRole('button', { name: 'Move dock-a down' }).getAttribute('aria-disabled'), 'true');
      await page().keyboard.press('Enter');
      t.is(await announced(), 'dock-a is already at position 4 of 4.');

      t.deepEqual(await v1Order(), expected, 'GET /v1/fleet');
      t.deepEqual(await actoOrder(), expected, 'GET /acto/v1/fleet');
      await page().reload();
      await rows().first().waitFor();
      t.deepEqual(await shown(), expected, 'the page after a reload');

      const others = await registry.call('GET', '/v1/fleet', { credential: await registry.signIn(other), wallet: other.address });
      t.deepEqual(
        (others.body.devices as { device_id: string; sort_order: number | null }[]).map((d) => [d.device_id, d.sort_order]),
        [['dock-a', null]],
        "another wallet's device of the same id keeps its place",
      );
      await checkPage(t, w, shot('fleet-reordered'));
    },
  );

  test.serial(`${label}: a refused save puts the list back and says why`, async (t: ExecutionContext) => {
    const before = await shown();
    await page().route('**/v1/fleet/devices/order', (r) =>
      r.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ detail: 'The database is not answering.', code: 'unavailable' }) }),
    );
    await page().getByRole('button', { name: 'Move dock-b up' }).click();
    await page().getByRole('alert').filter({ hasText: 'The database is not answering.' }).waitFor();
    t.deepEqual(await shown(), before, 'back in the saved order');
    t.regex(await announced(), /^The order was not saved: .*The database is not answering\. The list is back in its saved order\.$/);
    t.deepEqual(await v1Order(), before);
    await page().unroute('**/v1/fleet/devices/order');
  });

  test.serial(`${label}: filtered, the list offers no moves; at a phone's width the page does not scroll sideways`, async (t: ExecutionContext) => {
    await page().goto(`${registry.url}/dashboard/fleet?q=dock`);
    await rows().first().waitFor();
    t.is(
      await page()
        .getByRole('button', { name: /^Move dock-/ })
        .count(),
      0,
    );
    await page().getByText('The order can be changed in the list of every device').waitFor();
    await page().goto(`${registry.url}/dashboard/fleet`);
    await rows().first().waitFor();
    await page().setViewportSize({ width: 390, height: 844 });
    t.true(
      await page().evaluate(() => document.documentElement.scrollWidth <= 390),
      `no sideways scroll at 390 px; past it: ${await pastTheEdge(page(), 390)}`,
    );
    await page().getByRole('button', { name: 'Move dock-b up' }).scrollIntoViewIfNeeded();
    await checkPage(t, w, shot('fleet-reordered-phone'));
    await page().setViewportSize({ width: 1280, height: 860 });
  });
}

/** The elements that reach past `width` (their tag and class), to say what widens a page. */
export const pastTheEdge = (page: Page, width: number): Promise<string> =>
  page.evaluate(
    (limit) =>
      Array.from(document.querySelectorAll('body *'))
        .filter((e) => e.getBoundingClientRect().right > limit && !e.closest('.table-wrap'))
        .slice(0, 8)
        .map((e) => `${e.tagName.toLowerCase()}.${e.className} (${Math.round(e.getBoundingClientRect().right)})`)
        .join(', '),
    width,
  );
