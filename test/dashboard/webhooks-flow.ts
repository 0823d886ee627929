import test from 'ava';
import { checkPage, launchChromium, openPage } from '../support/browser.js';
import { startDashboardRegistry } from '../support/dashboard-registry.js';
import { aWallet } from '../support/identity.js';
import { bodiesOf } from '../support/webhook-receiver.js';
import type { EventsDashboard } from './events-dashboard.js';

/**
 * The Webhooks page against a real receiver on this machine: an endpoint added (its secret
 * shown once, kept nowhere), a test event delivered, a failing receiver's attempt read in the
 * attempt detail and redelivered once it recovers, editing, turning off and on, rotating the
 * secret, deleting, and a refused URL explained next to its field.
 */
export function webhooksFlow(d: EventsDashboard, o: { refusedPrivate: boolean }): void {
  const page = () => d.page();
  let secret = '';

  test.serial(`${d.label}: sign in, add an endpoint: its secret is shown once, copied, stored nowhere, and gone after leaving the page`, async (t) => {
    await page().goto(`${d.origin()}/dashboard/`);
    await page().getByRole('button', { name: 'Test Wallet' }).click();
    await page().getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page().getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Webhooks' }).click();
    await page().getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await page().getByText('No webhook endpoints yet').waitFor();
    await page().getByLabel('Endpoint URL').fill(d.receiver().url);
    // Everything but what a proof brings besides its acceptance: a proof makes one delivery.
    await page()
      .getByLabel(/Proof in the transparency log/)
      .uncheck();
    await page()
      .getByLabel(/Device status changed/)
      .uncheck();
    await page().getByLabel('Description (optional)').fill('ops receiver');
    await page().getByRole('button', { name: 'Add endpoint' }).click();

    const dialog = page().getByRole('dialog', { name: 'Your endpoint’s signing secret' });
    await dialog.waitFor();
    secret = (await dialog.getByTestId('webhook-secret').innerText()).trim();
    t.regex(secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    t.true((await dialog.innerText()).includes('you will not see it again'));
    t.false(await page().evaluate((s) => JSON.stringify({ ...sessionStorage, ...localStorage }).includes(s) || location.href.includes(s), secret));
    await dialog.getByRole('button', { name: 'Copy secret' }).click();
    await dialog.getByText('Copied').waitFor();
    t.is(await page().evaluate(() => navigator.clipboard.readText()), secret);
    await d.check(t, 'webhooks-secret');
    await d.shootBoth('webhooks-secret', { whole: false });
    await dialog.getByRole('button', { name: 'I have stored it' }).click();
    await dialog.waitFor({ state: 'hidden' });
    t.false((await page().content()).includes(secret));

    const stored = await d.registry().call('GET', '/v1/webhooks', { credential: await d.token(), wallet: d.wallet.address });
    t.like(stored.body.items[0], {
      url: d.receiver().url,
      description: 'ops receiver',
      enabled: true,
      event_types: ['proof.accepted', 'proof.rejected', 'key.created', 'key.updated', 'key.deleted'],
    });
    // The new endpoint is chosen, its status shown; away and back, the secret is nowhere.
    await page()
      .getByRole('heading', { level: 2, name: /^Endpoint / })
      .waitFor();
    await page().getByRole('link', { name: 'Fleet' }).click();
    await page().getByRole('heading', { level: 1, name: 'Fleet' }).waitFor();
    await page().goBack();
    await page()
      .getByRole('heading', { level: 2, name: /^Endpoint / })
      .waitFor();
    t.false((await page().content()).includes(secret));
  });

  test.serial(`${d.label}: a test event is delivered, and the log shows it succeeded with status 200`, async (t) => {
    await page().getByRole('button', { name: 'Send test event' }).click();
    await page().getByText('Test event queued').first().waitFor();
    const row = page().getByRole('row').filter({ hasText: 'webhook.test' }).filter({ hasText: 'succeeded' });
    await row.waitFor();
    t.is((await row.locator('td').nth(3).innerText()).trim(), '200');
    t.is(bodiesOf(d.receiver().received).filter((b) => b.type === 'webhook.test').length, 1);
    await row.getByRole('link').click();
    await page()
      .getByRole('heading', { level: 3, name: /webhook\.test/ })
      .waitFor();
    t.is(await page().getByTestId('attempt-status').first().innerText(), '200');
  });

  test.serial(`${d.label}: a receiver answering 500: the failed attempt and its status in the detail; redelivered once it answers 200`, async (t) => {
    // A fresh page, whose log is re-read every 30 s while nothing is due: only the stream can
    // bring the new delivery sooner, by telling the page an event for this endpoint came.
    const [endpoint] = (await d.registry().call('GET', '/v1/webhooks', { credential: await d.token(), wallet: d.wallet.address })).body.items;
    const streaming = page().waitForResponse((r) => r.url().includes('/v1/events/stream'));
    await d.go(`webhooks?endpoint=${endpoint.endpoint_id}`, 'Webhooks');
    await streaming;
    await page().getByRole('row').filter({ hasText: 'webhook.test' }).waitFor();
    d.receiver().answer = () => 500;
    t.is(await d.submit({ taskId: 'hook-500', robotId: 'arm-07' }), 200);
    const row = page().getByRole('row').filter({ hasText: 'proof.accepted' });
    await row.filter({ hasText: '500' }).first().waitFor({ timeout: 15_000 });
    await row.first().getByRole('link').click();
    const attempts = page().getByRole('list', { name: 'Attempts, oldest first' });
    await attempts.waitFor();
    t.is(await attempts.getByTestId('attempt-status').first().innerText(), '500');
    t.true((await attempts.locator('li').first().innerText()).includes('scheduled'));
    await d.check(t, 'webhooks-failed-attempt');

    d.receiver().answer = () => 200;
    await page().getByRole('button', { name: 'Redeliver' }).click();
    await page().getByText('Sent again').waitFor();
    const redelivered = attempts.locator('li').filter({ hasText: 'redelivered' });
    await redelivered.getByTestId('attempt-status').filter({ hasText: '200' }).first().waitFor();
    await page().locator('.attempts-panel .facts').getByText('succeeded').waitFor();
    // The same webhook-id on every attempt of a delivery.
    const ids = new Set(
      d
        .receiver()
        .received.filter((r) => JSON.parse(r.body).type === 'proof.accepted')
        .map((r) => r.headers['webhook-id']),
    );
    t.is(ids.size, 1);
    await d.check(t, 'webhooks');
    await d.shootBoth('webhooks');
  });

  test.serial(`${d.label}: edit, turn off and on, rotate the secret (shown once), and delete a second endpoint after asking`, async (t) => {
    await page().getByRole('button', { name: 'Edit', exact: true }).click();
    await page().locator('#edit-description').fill('ops receiver, north hall');
    await page().getByRole('button', { name: 'Save endpoint' }).click();
    await page().locator('.note-success').getByText('Saved the endpoint.').waitFor();
    await page().locator('.endpoint .facts').getByText('ops receiver, north hall').waitFor();

    await page().getByRole('button', { name: 'Disable' }).click();
    await page().locator('.endpoint').getByText('turned off here').waitFor();
    t.true(await page().getByRole('button', { name: 'Send test event' }).isDisabled());
    await page().getByRole('button', { name: 'Enable' }).click();
    await page()
      .locator('.endpoint')
      .getByText(/last success/)
      .waitFor();

    await page().getByRole('button', { name: 'Rotate secret' }).click();
    await page().getByRole('dialog', { name: 'Rotate the signing secret?' }).getByRole('button', { name: 'Rotate secret' }).click();
    const shown = page().getByRole('dialog', { name: 'The new signing secret' });
    const rotated = (await shown.getByTestId('webhook-secret').innerText()).trim();
    t.regex(rotated, /^whsec_/);
    t.not(rotated, secret);
    t.true((await shown.innerText()).includes('two signatures'));
    await shown.getByRole('button', { name: 'I have stored it' }).click();
    await page()
      .locator('.endpoint .facts')
      .getByText(/also signs deliveries until/)
      .waitFor();
    t.false((await page().content()).includes(rotated));

    await page().locator('.add-endpoint summary').click();
    await page().locator('#new-url').fill(`${d.receiver().url}?second`);
    await page().getByRole('button', { name: 'Add endpoint' }).click();
    await page().getByRole('dialog', { name: 'Your endpoint’s signing secret' }).getByRole('button', { name: 'I have stored it' }).click();
    await page().waitForFunction(() => document.querySelectorAll('tbody th a.break').length === 2);
    await page().locator('.endpoint-actions').getByRole('button', { name: 'Delete' }).click();
    const confirm = page().getByRole('dialog', { name: 'Delete this endpoint?' });
    t.true((await confirm.innerText()).includes('?second'));
    await confirm.getByRole('button', { name: 'Delete endpoint' }).click();
    await page()
      .locator('.note-success')
      .getByText(/^Deleted the endpoint/)
      .waitFor();
    await page().waitForFunction(() => document.querySelectorAll('tbody th a.break').length === 1);
  });

  test.serial(`${d.label}: a URL the registry refuses is explained next to the field (422)`, async (t) => {
    await d.go('webhooks', 'Webhooks');
    await page().getByRole('table', { name: 'Your webhook endpoints' }).waitFor();
    await page().locator('.add-endpoint summary').click();
    await page().locator('#new-url').fill('ftp://example.com/hook');
    await page().getByRole('button', { name: 'Add endpoint' }).click();
    const error = page().locator('#new-url-error');
    await error.waitFor();
    t.is(await error.innerText(), 'url must use https or http, not ftp');
    t.is(await page().locator('#new-url').getAttribute('aria-invalid'), 'true');
    t.true((await page().locator('#new-url').getAttribute('aria-describedby'))!.includes('new-url-error'));
    await d.check(t, 'webhooks-refused-url');

    if (!o.refusedPrivate) return;
    // A registry as deployed (WEBHOOK_ALLOW_PRIVATE unset) refuses this machine's addresses.
    const strict = await startDashboardRegistry();
    const chrome = await launchChromium();
    t.teardown(async () => (await chrome.close(), await strict.close()));
    const wallet = aWallet(12);
    await strict.fund(wallet.address, '50000');
    const w = await openPage(chrome.browser, strict.url, { wallet, walletName: 'Test Wallet' });
    await w.page.goto(`${strict.url}/dashboard/webhooks`);
    await w.page.getByRole('button', { name: 'Test Wallet' }).click();
    await w.page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await w.page.getByLabel('Endpoint URL').fill('http://127.0.0.1:1/');
    await w.page.getByRole('button', { name: 'Add endpoint' }).click();
    await w.page.locator('#new-url-error').waitFor();
    t.regex(await w.page.locator('#new-url-error').innerText(), /loopback/);
    await checkPage(t, w, 'webhooks-refused-private');
  });
}
