import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import type { Page } from 'playwright-core';
import type { Clock } from '../../src/application/ports/clock.js';
import { checkPage, launchChromium, openPage, SCREENSHOTS, type LaunchedBrowser, type Watched } from '../support/browser.js';
import { startDashboardRegistry, type DashboardRegistry } from '../support/dashboard-registry.js';
import { aWallet } from '../support/identity.js';
import { anEnvelope } from '../support/mothers.js';

/**
 * The API keys page on an SQLite file: keys made from the presets and from scopes of one's
 * own, bound to devices and expiring; renamed, disabled and enabled from the list; and what the
 * registry then does with each key. The page is checked (axe, console, CSP, other origins) at
 * a desktop's width and a phone's, and pictured for the docs.
 */

/** Real time plus an offset the test moves, so a key expires without waiting for it. */
class MovableClock implements Clock {
  private offsetMs = 0;
  nowMs(): number {
    return Date.now() + this.offsetMs;
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

// Written with the run's other screenshots; docs/images holds copies chosen by hand.
const DOCS_IMAGES = SCREENSHOTS;
const dir = mkdtempSync(path.join(tmpdir(), 'dashboard-keys-'));
const wallet = aWallet(23);
const clock = new MovableClock();
let registry: DashboardRegistry;
let chrome: LaunchedBrowser;
let w: Watched;
const secrets = { robot: '', auditor: '', custom: '', temp: '' };

test.before(async () => {
  [registry, chrome] = await Promise.all([
    startDashboardRegistry({ databaseUrl: `sqlite:${path.join(dir, 'registry.sqlite')}`, clock, env: { JWT_TTL_S: '86400' } }),
    launchChromium(),
  ]);
  await registry.fund(wallet.address, '50000');
  // Two devices in the fleet, for the form to offer.
  const token = await registry.signIn(wallet);
  for (const id of ['arm-1', 'arm-2']) {
    const res = await registry.call('POST', `/v1/fleet/devices/${id}/health`, {
      credential: token,
      wallet: wallet.address,
      body: { status: 'ok', cpu_percent: 30 },
    });
    if (res.status !== 201) throw new Error(`health report for ${id}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  w = await openPage(chrome.browser, registry.url, { wallet, walletName: 'Test Wallet' });
});
test.after.always(async () => {
  await w?.close();
  await chrome?.close();
  await registry?.close();
  rmSync(dir, { recursive: true, force: true });
});

const page = (): Page => w.page;
const withKey = async (key: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(registry.url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, 'x-wallet-address': wallet.address, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as { code?: string } | null };
};
/** A datetime-local value: the browser and this process share the machine's time zone. */
const local = (ms: number) => new Date(ms - new Date(ms).getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
const rowOf = (name: string) =>
  page()
    .getByRole('row')
    .filter({ has: page().getByRole('link', { name, exact: true }) });
const cell = async (name: string, testId: string) => ((await rowOf(name).getByTestId(testId).textContent()) ?? '').trim();
const nameField = () => page().getByLabel('Name', { exact: true });
const createButton = () => page().getByRole('button', { name: 'Create key' });
const newKey = async () => (await page().getByTestId('new-key').innerText()).trim();

test.serial('keys from the presets and from chosen scopes, bound to devices and expiring; the list shows what each may do', async (t) => {
  await page().goto(`${registry.url}/`);
  await page().getByRole('button', { name: 'Test Wallet' }).click();
  await page().getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  await page().getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'API keys' }).click();
  await page().getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
  await page().getByText('No API keys yet').waitFor();

  // Robot, the least a device needs, is the first choice; the fleet's devices are offered to bind it to.
  t.true(await page().getByRole('radio', { name: 'Robot' }).isChecked());
  await nameField().fill('picker arm-1');
  await page().getByRole('checkbox', { name: 'arm-1' }).check();
  t.is(await page().getByLabel('Bound to devices (optional)').inputValue(), 'arm-1');
  await createButton().click();
  await page().locator('.new-key', { hasText: 'picker arm-1' }).waitFor();
  secrets.robot = await newKey();
  t.regex(secrets.robot, /^pr_live_/);
  const panel = await page().locator('.new-key').innerText();
  t.true(panel.includes('it will not be shown again'), panel);
  t.is(await page().getByTestId('new-key-grant').innerText(), 'Robot (proofs:write, health:write) · bound to arm-1 · never expires');

  // Auditor, chosen with the keyboard; an auditor speaks for no robot, so there is nothing to bind.
  await nameField().fill('auditor');
  await page().getByRole('radio', { name: 'Robot' }).focus();
  await page().keyboard.press('ArrowDown');
  t.true(await page().getByRole('radio', { name: 'Auditor' }).isChecked());
  t.is(await page().getByLabel('Bound to devices (optional)').count(), 0);
  await page()
    .getByLabel('Expires (optional)')
    .fill(local(Date.now() + 365 * 86_400_000));
  await createButton().click();
  await page().locator('.new-key', { hasText: '“auditor”' }).waitFor();
  secrets.auditor = await newKey();

  // Custom: a scope per box; an expiry in the past is refused, and the registry's reason shown at its field.
  await nameField().fill('line ops');
  await page().getByRole('radio', { name: 'Custom' }).check();
  t.true(await createButton().isDisabled(), 'a custom key needs a scope');
  await page().getByRole('checkbox', { name: 'verify' }).check();
  await page().getByRole('checkbox', { name: 'health:write' }).check();
  await page().getByLabel('Bound to devices (optional)').fill('arm-2,\narm-3');
  const expires = page().getByLabel('Expires (optional)');
  await expires.fill(local(Date.now() - 86_400_000));
  await createButton().click();
  const refusal = page().locator('#key-expires_at-error');
  await refusal.waitFor();
  t.regex(await refusal.innerText(), /expires_at must be in the future/);
  t.is(await expires.getAttribute('aria-invalid'), 'true');
  await checkPage(t, w, 'keys-custom-refused');
  await expires.fill('');
  await createButton().click();
  await page().locator('.new-key', { hasText: 'line ops' }).waitFor();
  t.is(await refusal.count(), 0);
  secrets.custom = await newKey();

  // Full access, expiring in a few minutes (moved past below).
  await nameField().fill('contractor');
  await page().getByRole('radio', { name: 'Full access' }).check();
  await expires.fill(local(Date.now() + 5 * 60_000));
  await createButton().click();
  await page().locator('.new-key', { hasText: 'contractor' }).waitFor();
  secrets.temp = await newKey();

  await rowOf('contractor').waitFor();
  const shown = async (name: string) => [await cell(name, 'key-access'), await cell(name, 'key-binding'), await cell(name, 'key-status')];
  t.deepEqual(await shown('picker arm-1'), ['Robot', 'bound to arm-1', 'active']);
  t.deepEqual(await shown('auditor'), ['Auditor', 'any robot', 'active']);
  t.deepEqual(await shown('line ops'), ['verify, health:write', 'bound to arm-2, arm-3', 'active']);
  t.deepEqual(await shown('contractor'), ['Full access', 'any robot', 'active']);
  t.regex(await cell('auditor', 'key-expiry'), /^expires /);
  t.is(await cell('picker arm-1', 'key-expiry'), 'never expires');
  const prefix = await cell('picker arm-1', 'key-prefix');
  t.true(prefix.endsWith('…') && secrets.robot.startsWith(prefix.slice(0, -1)), prefix);

  const listed = await registry.call('GET', '/v1/keys', { credential: await registry.signIn(wallet), wallet: wallet.address });
  type Listed = { name: string; scopes: string[]; robot_ids: string[] | null; expires_at: string | null };
  const byName: Record<string, Listed> = Object.fromEntries((listed.body.items as Listed[]).map((k) => [k.name, k]));
  t.like(byName['picker arm-1'], { scopes: ['proofs:write', 'health:write'], robot_ids: ['arm-1'], expires_at: null });
  t.like(byName['auditor'], { scopes: ['proofs:read', 'verify', 'fleet:read', 'stats:read', 'events:read'], robot_ids: null });
  t.like(byName['line ops'], { scopes: ['verify', 'health:write'], robot_ids: ['arm-2', 'arm-3'], expires_at: null });
  t.is(byName['contractor']?.scopes.length, 8);
  t.not(byName['auditor']?.expires_at, null);
});

test.serial('rename with the keyboard alone: the button, the dialog, Enter', async (t) => {
  await page().getByRole('button', { name: 'Rename the key auditor' }).focus();
  await page().keyboard.press('Enter');
  const dialog = page().getByRole('dialog', { name: 'Rename the key “auditor”' });
  await dialog.waitFor();
  t.is(await page().evaluate(() => document.activeElement?.id), 'rename-key');
  t.is(await dialog.getByLabel('New name').inputValue(), 'auditor');
  await checkPage(t, w, 'keys-rename-dialog');
  await page().keyboard.press('ControlOrMeta+A');
  await page().keyboard.type('compliance auditor');
  await page().keyboard.press('Enter');
  await dialog.waitFor({ state: 'hidden' });
  await rowOf('compliance auditor').waitFor();
  await page().getByRole('status').getByText('Renamed the key “auditor” to “compliance auditor”.').waitFor();
  t.is(await rowOf('auditor').count(), 0);
});

test.serial(
  'disable and enable from the list; the registry refuses a disabled key and one out of its scopes or devices; a key past its expiry shows expired',
  async (t) => {
    const auditor = 'compliance auditor';
    await page()
      .getByRole('button', { name: `Disable the key ${auditor}` })
      .click();
    await rowOf(auditor).getByTestId('key-status').filter({ hasText: 'disabled' }).waitFor();
    await page().getByRole('status').getByText(`Disabled the key “${auditor}”`).waitFor();
    const refused = await withKey(secrets.auditor, 'GET', '/v1/proofs');
    t.is(refused.status, 401);
    t.is(refused.body?.code, 'disabled_api_key');

    await page()
      .getByRole('button', { name: `Enable the key ${auditor}` })
      .click();
    await rowOf(auditor).getByTestId('key-status').filter({ hasText: 'active' }).waitFor();
    t.is((await withKey(secrets.auditor, 'GET', '/v1/proofs')).status, 200);

    // The robot's key submits for its device only, and reads nothing.
    const scoped = await withKey(secrets.robot, 'GET', '/v1/proofs');
    t.is(scoped.status, 403);
    t.is(scoped.body?.code, 'insufficient_scope');
    const at = () => new Date(clock.nowMs() - 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
    t.is((await withKey(secrets.robot, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId: 'pick-1', robotId: 'arm-1', createdAt: at() }) })).status, 200);
    const other = await withKey(secrets.robot, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId: 'pick-2', robotId: 'arm-2', createdAt: at() }) });
    t.is(other.status, 403);
    t.is(other.body?.code, 'robot_not_allowed');

    // One key disabled and one expired, for the pictures too.
    await page().getByRole('button', { name: 'Disable the key line ops' }).click();
    await rowOf('line ops').getByTestId('key-status').filter({ hasText: 'disabled' }).waitFor();
    clock.advance(10 * 60_000);
    await page().reload();
    await rowOf('contractor').getByTestId('key-status').filter({ hasText: 'expired' }).waitFor();
    t.regex(await cell('contractor', 'key-expiry'), /^expired /);
    t.is(await cell('line ops', 'key-status'), 'disabled');
  },
);

/** At this size: nothing wider than the screen, the page clean (checkPage); with `docs`, pictured whole for the docs. */
async function atWidth(t: ExecutionContext, name: string, width: number, height: number, docs: boolean) {
  await page().setViewportSize({ width, height });
  await page().evaluate(() => window.scrollTo(0, 0));
  const wide = await page().evaluate(() => document.documentElement.scrollWidth);
  t.true(wide <= width, `${name}: the page is ${wide} px wide at ${width} px`);
  t.false(
    await page()
      .locator('.key-table')
      .evaluate((table) => table.parentElement!.scrollWidth > table.parentElement!.clientWidth),
    `${name}: the key list scrolls sideways`,
  );
  await checkPage(t, w, name);
  if (docs) {
    // The whole page as one tall viewport, as the docs' other pictures are: the sticky sidebar stays where it belongs.
    await page().setViewportSize({ width, height: Math.max(height, await page().evaluate(() => document.documentElement.scrollHeight)) });
    mkdirSync(DOCS_IMAGES, { recursive: true });
    await page().screenshot({ path: path.join(DOCS_IMAGES, `${name}.png`) });
    await page().setViewportSize({ width, height });
  }
}

test.serial(
  "a key's requests per endpoint, as bars and as a table; the page at a desktop's, a tablet's and a phone's width; the expired key refused",
  async (t) => {
    await rowOf('picker arm-1').getByRole('link', { name: 'picker arm-1' }).click();
    await page().waitForURL(/\?key=/);
    await page().locator('figcaption', { hasText: 'Requests and errors per endpoint' }).waitFor();
    await page().getByText('Show endpoints as a table').click();
    const table = page().getByRole('table', { name: /per endpoint/ });
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.children, (c) => (c.textContent ?? '').trim())));
    // Most requests first: two submissions (one for a device the key is not bound to), one refused read.
    t.deepEqual(rows, [
      ['POST /v1/proofs', '2', '1', '50.0 %'],
      ['GET /v1/proofs', '1', '1', '100.0 %'],
    ]);
    t.is(await page().locator('.hbar-scale').innerText(), '0\n2 requests');
    await page().getByText('Show endpoints as a table').click();

    await page().getByLabel('Per day, for').selectOption('POST /v1/proofs');
    await page().locator('figcaption', { hasText: 'Requests and errors per day of POST /v1/proofs (UTC)' }).waitFor();
    await page().getByText('Show as a table', { exact: true }).click();
    const today = new Date(clock.nowMs()).toISOString().slice(0, 10);
    t.deepEqual(
      await page()
        .getByRole('row', { name: new RegExp(today) })
        .locator('td')
        .allInnerTexts(),
      [today, '2', '1'],
    );
    await page().getByText('Show as a table', { exact: true }).click();
    await page().getByLabel('Per day, for').selectOption('');
    await page().locator('.chart-canvas canvas').first().waitFor();

    // The form as a robot's key is made: the devices to bind it to on show.
    await page().getByRole('radio', { name: 'Robot' }).check();
    await page().getByRole('checkbox', { name: 'arm-1' }).waitFor();
    await atWidth(t, 'keys-scopes', 1280, 860, true);
    await atWidth(t, 'keys-scopes-tablet', 1024, 768, false);
    await atWidth(t, 'keys-scopes-phone', 390, 844, true);
    // Every action is on the phone's screen, not beyond its edge.
    await page().setViewportSize({ width: 390, height: 844 });
    for (const action of await page().locator('.key-actions button').all()) {
      const box = (await action.boundingBox())!;
      t.true(box.x >= 0 && box.x + box.width <= 390, `${await action.getAttribute('aria-label')} at x ${box.x}`);
    }
    await page().setViewportSize({ width: 1280, height: 860 });

    // Asked only now: its last use would be in this page's future, the registry's clock alone having moved.
    const expired = await withKey(secrets.temp, 'GET', '/v1/proofs');
    t.is(expired.status, 401);
    t.is(expired.body?.code, 'expired_api_key');
  },
);
