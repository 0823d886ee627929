import { readFile } from 'node:fs/promises';
import test, { type ExecutionContext } from 'ava';
import type { Page } from 'playwright-core';
import { checkPage, launchChromium, openPage, type LaunchedBrowser, type Watched } from '../support/browser.js';
import { startDashboardRegistry, type DashboardRegistry } from '../support/dashboard-registry.js';
import { aWallet, ManualClock, type TestWallet } from '../support/identity.js';
import { anEnvelope } from '../support/mothers.js';

/**
 * What an operator does in the dashboard, on one database: sign in with a Wallet Standard
 * wallet, create a key and watch it be used, manage the fleet and its groups, read a device's
 * health, search proofs and open one, verify envelopes, and delete the key. Every view is
 * checked for console errors, CSP violations, requests to other origins and axe-core
 * (WCAG 2 A/AA) violations, and screenshotted.
 */
export function operatorFlow(label: string, database: { url(): Promise<string>; drop?(): Promise<void> }): void {
  let registry: DashboardRegistry;
  let chrome: LaunchedBrowser;
  let w: Watched;
  const wallet: TestWallet = aWallet(7);
  let key = '';
  const shot = (name: string) => `${name}${label === 'sqlite' ? '' : `-${label}`}`;
  const now = Date.now();
  // The service's clock starts two hours back, so health reports can be spread over time.
  const clock = new ManualClock(now - 2 * 3600_000);
  const minutesAgo = (m: number) => new Date(now - m * 60_000).toISOString().replace(/\.\d+Z$/, 'Z');

  test.before(async () => {
    [registry, chrome] = await Promise.all([
      startDashboardRegistry({ databaseUrl: await database.url(), clock, env: { JWT_TTL_S: '86400' } }),
      launchChromium(),
    ]);
    await registry.fund(wallet.address, '50000');
    w = await openPage(chrome.browser, registry.url, { wallet, walletName: 'Test Wallet' });
  });
  test.after.always(async () => {
    await w?.close();
    await chrome?.close();
    await registry?.close();
    await database.drop?.();
  });

  const page = (): Page => w.page;
  const go = async (path: string, h1: string) => {
    await page().goto(`${registry.url}/dashboard/${path}`);
    await page().getByRole('heading', { level: 1, name: h1 }).waitFor();
  };
  const withKey = (method: string, path: string, body?: unknown) =>
    fetch(registry.url + path, {
      method,
      headers: { authorization: `Bearer ${key}`, 'x-wallet-address': wallet.address, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });

  test.serial(`${label}: sign in, create a key (shown once), use it, and see its counts move`, async (t: ExecutionContext) => {
    await page().goto(`${registry.url}/`);
    await page().getByRole('button', { name: 'Test Wallet' }).click();
    await page().getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page().getByRole('link', { name: 'API keys' }).click();
    await page().getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    await page().getByText('No API keys yet').waitFor();
    await page().getByLabel('Name').fill('warehouse robots');
    await page().getByRole('button', { name: 'Create key' }).click();
    key = (await page().getByTestId('new-key').innerText()).trim();
    t.regex(key, /^pr_live_/);
    t.true((await page().locator('.new-key').innerText()).includes('it will not be shown again'));
    // Stored nowhere by the page.
    t.false(await page().evaluate((k) => JSON.stringify({ ...sessionStorage, ...localStorage }).includes(k), key));
    await checkPage(t, w, shot('keys-created'));

    // Health reports: the route takes the owner's dashboard token. The service's clock moves
    // past the page's token lifetime below, so the page's own requests are all answered first
    // (one checked after the move would end its session).
    await page().waitForLoadState('networkidle');
    const token = await registry.signIn(wallet);
    for (const [i, cpu] of [35, 55, 48, 82].entries()) {
      const res = await registry.call('POST', '/v1/fleet/devices/arm-1/health', {
        credential: token,
        wallet: wallet.address,
        body: {
          status: i === 3 ? 'degraded' : 'ok',
          cpu_percent: cpu,
          memory_percent: 40 + i * 6,
          battery_percent: 92 - i * 18,
          temperature_c: 41 + i * 3,
          message: i === 3 ? `<b>fan</b> slow` : null,
        },
      });
      t.is(res.status, 201);
      clock.advance(25 * 60_000);
    }

    clock.advance(Date.now() - clock.nowMs());
    const submit = (envelope: unknown) => withKey('POST', '/v1/proofs', { envelope });
    const hostile = '<img src=x onerror="document.title=1">';
    t.is((await submit(anEnvelope({ taskId: 'pick-42', robotId: 'arm-1', createdAt: minutesAgo(50), meta: { note: hostile } }))).status, 200);
    t.is((await submit(anEnvelope({ taskId: 'pick-43', robotId: 'arm-2', createdAt: minutesAgo(20) }))).status, 200);
    t.is((await submit(anEnvelope({ taskId: 'sort-7', robotId: 'arm-2', createdAt: minutesAgo(5) }))).status, 200);
    t.is((await submit({ ...anEnvelope({ taskId: 'forged' }), signature_b64: 'A'.repeat(88) })).status, 422);
    await page().reload();
    await page().getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    const row = page().getByRole('row', { name: /warehouse robots/ });
    await row.waitFor();
    const cells = await row.locator('td').allInnerTexts();
    // 4 proof submissions, one refused.
    t.is(cells[3], '4');
    t.is(cells[4], '1');
    t.is(cells[5], '25.0 %');
    t.not(cells[2], 'never');
    await row.getByRole('link', { name: 'warehouse robots' }).click();
    await page().locator('figcaption', { hasText: 'Requests and errors per day (UTC)' }).waitFor();
    await page().locator('.chart-canvas canvas').first().waitFor();
    await page().getByText('Show as a table').click();
    const today = new Date().toISOString().slice(0, 10);
    const todayRow = await page()
      .getByRole('row', { name: new RegExp(today) })
      .locator('td')
      .allInnerTexts();
    t.deepEqual(todayRow, [today, '4', '1']);
    t.true(page().url().includes('?key='));
    await page().getByText('Show as a table').click();
    await checkPage(t, w, shot('keys'));
  });

  test.serial(`${label}: the overview shows the proofs, devices and refusals`, async (t) => {
    await go('', 'Overview');
    const stats = page().locator('.stats');
    await stats.getByText('Proofs, last 24 h').waitFor();
    const figures = await stats.innerText();
    t.true(figures.includes('3 in 7 days'));
    // Counts read as English: one error, not "1 errors".
    t.true(figures.includes('1 error · 25.0 % error rate'), figures);
    t.true(figures.includes('of the latest 3 proofs'), figures);
    await page().locator('.chart-canvas canvas').first().waitFor();
    t.is(await page().locator('.chart-canvas canvas').count(), 2);
    await checkPage(t, w, shot('overview'));
    await page().getByRole('link', { name: 'Last 7 days' }).click();
    await page().waitForURL(/range=7d/);
    await page().locator('figcaption', { hasText: 'Proofs per day' }).waitFor();
    t.pass();
  });

  test.serial(`${label}: fleet: status chips, search, a group made and filled with checkboxes, then deleted`, async (t) => {
    await go('fleet', 'Fleet');
    await page().getByRole('row', { name: /arm-1/ }).waitFor();
    t.is(await page().locator('tbody tr').count(), 2);
    t.regex(
      await page()
        .getByRole('link', { name: /^degraded/i })
        .innerText(),
      /1/,
    );
    await page()
      .getByRole('link', { name: /^degraded/i })
      .click();
    await page().waitForURL(/status=degraded/);
    await page().waitForFunction(() => document.querySelectorAll('tbody tr').length === 1);
    // The health message is the device's text, shown as text.
    t.is(await page().getByRole('row', { name: /arm-1/ }).locator('td.clip').innerText(), '<b>fan</b> slow');
    await page().getByRole('link', { name: /^all/i }).click();
    await page().getByRole('searchbox').fill('arm-2');
    await page().waitForFunction(() => document.querySelectorAll('tbody tr').length === 1);
    await page().getByRole('searchbox').fill('');

    await page().getByLabel('Name', { exact: true }).fill('Line A');
    await page().getByRole('button', { name: 'Create group' }).click();
    await page().locator('#assign-target option', { hasText: 'Line A' }).waitFor({ state: 'attached' });
    await page().getByLabel('Select every device shown').check();
    await page().locator('#assign-target').selectOption({ label: 'Line A' });
    await page().getByRole('button', { name: 'Move', exact: true }).click();
    await page().locator('.note-success').getByText('Moved 2 of 2 devices into “Line A”.').waitFor();
    await page().locator('#group-filter').selectOption({ label: 'Line A' });
    await page().waitForURL(/group=/);
    await page().waitForFunction(
      () => Array.from(document.querySelectorAll('tbody tr td:nth-child(4)')).filter((td) => td.textContent === 'Line A').length === 2,
    );
    await checkPage(t, w, shot('fleet'));

    // Edit the group: a description and a colour, shown as a swatch.
    await page().getByRole('button', { name: 'Edit the group Line A' }).click();
    await page().getByLabel('Group description').fill('Packing line, north hall');
    await page().getByLabel('Colour').fill('#e07b00');
    await page().getByRole('button', { name: 'Save group' }).click();
    await page().locator('.note-success').getByText('Saved the group “Line A”.').waitFor();
    await page().locator('.group-list .swatch').waitFor();
    const groups = await registry.call('GET', '/v1/fleet/groups', { credential: await registry.signIn(wallet), wallet: wallet.address });
    t.like(groups.body.items[0], { name: 'Line A', description: 'Packing line, north hall', color: '#e07b00' });

    await page().getByLabel('Select arm-2').check();
    await page().getByRole('button', { name: 'Remove from “Line A”' }).click();
    await page().locator('.note-success').getByText('Removed 1 of 1 device from “Line A”.').waitFor();
    await page().waitForFunction(() => document.querySelectorAll('tbody tr').length === 1);
    await page().getByRole('button', { name: 'Delete the group Line A' }).click();
    const dialog = page().getByRole('dialog');
    t.true((await dialog.innerText()).includes('Its 1 device stays in the fleet'));
    await dialog.getByRole('button', { name: 'Delete group' }).click();
    await page().getByText('Deleted the group “Line A”; 1 device is now in no group.').first().waitFor();
    t.is(await page().locator('.group-list li').count(), 0);
  });

  test.serial(`${label}: a device page charts its health history, lists its proofs, and renames it`, async (t) => {
    await go('fleet', 'Fleet');
    await page().getByRole('link', { name: 'arm-1' }).click();
    await page().getByRole('heading', { level: 1, name: 'arm-1' }).waitFor();
    await page().waitForFunction(() => document.querySelectorAll('.chart-canvas canvas').length === 4);
    for (const title of ['CPU (%)', 'Memory (%)', 'Battery (%)', 'Temperature (°C)'])
      t.is(await page().locator('figcaption', { hasText: title }).count(), 1, title);
    t.is(await page().getByRole('table', { name: 'Recent proofs of arm-1' }).locator('tbody tr').count(), 1);
    await checkPage(t, w, shot('device'));
    await page().getByLabel('Display name').fill('Picker <one>');
    await page().getByRole('button', { name: 'Rename' }).click();
    await page().getByRole('heading', { level: 1, name: 'Picker <one>' }).waitFor();

    // A robot reports the ACTO SDK's metric set with its API key and no status: the page shows
    // every reading, the custom ones too, and that the status was derived.
    const sdk = {
      cpu_percent: 30,
      cpu_temperature: 62.5,
      memory_used_mb: 2048,
      memory_total_mb: 4096,
      battery_percent: 85,
      battery_charging: true,
      disk_percent: 40,
      network_connected: true,
      network_type: 'wifi',
      uptime_seconds: 7200,
      temperature: 35.5,
      custom_metrics: { firmware: '1.2.3', gripper_ok: true },
    };
    t.is((await withKey('POST', '/v1/fleet/devices/arm-1/health', sdk)).status, 201);
    await page().reload();
    const readings = page().getByLabel('Latest health readings');
    await readings.getByText('62.5 °C').waitFor();
    const text = await readings.innerText();
    for (const shown of [
      'ok (derived from the readings)',
      '2,048 of 4,096 MB',
      'connected (wifi)',
      'firmware',
      '1.2.3',
      'gripper_ok',
      'true',
      '35.5 °C',
      '120 min',
    ])
      t.true(text.includes(shown), shown);
    // Type and description.
    await page().getByLabel('Type').fill('arm');
    await page().getByLabel('Description').fill('Left picker, bay 3');
    await page().getByRole('button', { name: 'Save details' }).click();
    await page().getByText('Details saved.').waitFor();
    const device = await registry.call('GET', '/v1/fleet/devices/arm-1', { credential: await registry.signIn(wallet), wallet: wallet.address });
    t.like(device.body, { type: 'arm', description: 'Left picker, bay 3' });
    await checkPage(t, w, shot('device-details'));
    // Hide it: it leaves the fleet list until its next report.
    await page().getByRole('button', { name: 'Hide device' }).click();
    await page().getByRole('dialog').getByRole('button', { name: 'Hide device' }).click();
    await page().getByText('This device is hidden from the fleet.').waitFor();
    await go('fleet', 'Fleet');
    await page().getByRole('link', { name: 'arm-2' }).waitFor();
    t.is(await page().getByRole('link', { name: 'Picker <one>' }).count(), 0);
    t.is((await withKey('POST', '/v1/fleet/devices/arm-1/health', { cpu_percent: 31 })).status, 201);
    await page().reload();
    await page().getByRole('link', { name: 'Picker <one>' }).waitFor();
  });

  test.serial(`${label}: proofs: every filter in the URL, kept on reload; a proof page shows its envelope as text, its checks and score`, async (t) => {
    await go('proofs', 'Proofs');
    await page().locator('tbody tr').nth(2).waitFor();
    t.is(await page().locator('tbody tr').count(), 3);
    await page().getByLabel('Robot id').fill('arm-2');
    await page().getByLabel('Order').selectOption('asc');
    await page().getByRole('button', { name: 'Search' }).click();
    await page().waitForURL(/robot_id=arm-2/);
    t.true(page().url().includes('order=asc'));
    await page().waitForFunction(() => document.querySelectorAll('tbody tr').length === 2);
    await page().reload();
    await page().waitForFunction(() => document.querySelectorAll('tbody tr').length === 2);
    t.deepEqual(await page().locator('tbody tr td:nth-child(2)').allInnerTexts(), ['pick-43', 'sort-7']);
    await checkPage(t, w, shot('proofs'));

    await page().getByLabel('Robot id').fill('');
    await page().getByLabel('Task id').fill('pick-42');
    await page().getByRole('button', { name: 'Search' }).click();
    await page().waitForFunction(() => document.querySelectorAll('tbody tr').length === 1 && document.querySelector('tbody td')?.textContent === 'pick-42');
    await page().locator('tbody th a').click();
    await page().getByRole('heading', { level: 1, name: 'Proof of pick-42' }).waitFor();
    await page().getByText('Valid: every check passed.').waitFor();
    await page().locator('.score .stat-value').waitFor();
    const json = await page().locator('pre.json').innerText();
    t.true(json.includes('<img src=x onerror=\\"document.title=1\\">'));
    t.is(await page().locator('pre.json img').count(), 0);
    t.not(await page().title(), '1');
    t.true((await page().locator('.checks').innerText()).toLowerCase().includes('passed'));
    // Its place in the transparency log, checked by the page itself (signature and inclusion
    // proof). A checkpoint covers it about a second after acceptance; the page asks again
    // until one does, so this waits on what the page shows, not on a clock.
    const verdict = page().getByTestId('log-verdict');
    await verdict.waitFor({ timeout: 30_000 });
    const said = await verdict.innerText();
    t.regex(said, /^Included in the log at index \d+ of tree size \d+ — verified in this browser\.$/);
    const [, index, size] = /index (\d+) of tree size (\d+)/.exec(said.replace(/,/g, ''))!;
    t.true(Number(index) < Number(size));
    const stored = await registry.call('GET', `/v1/proofs/${page().url().split('/').pop()}`, {
      credential: await registry.signIn(wallet),
      wallet: wallet.address,
    });
    t.is(Number(index), stored.body.log_index);
    await checkPage(t, w, shot('proof'));

    // The witnesses of the checkpoint it was checked against: none without a policy.
    await page().getByTestId('log-witnesses').waitFor();
    t.regex(await page().getByTestId('log-witnesses').innerText(), /^No witnesses configured/);
    // The bundle, saved with its bytes exactly as the API sends them.
    const proofId = page().url().split('/').pop()!;
    const [download] = await Promise.all([page().waitForEvent('download'), page().getByRole('button', { name: 'Download proof bundle' }).click()]);
    t.is(download.suggestedFilename(), `${proofId}.bundle.json`);
    const saved = await download.path();
    const bundle = await fetch(`${registry.url}/v1/proofs/${proofId}/bundle`, {
      headers: { authorization: `Bearer ${await registry.signIn(wallet)}`, 'x-wallet-address': wallet.address },
    });
    t.is(bundle.status, 200);
    const fromApi = Buffer.from(await bundle.arrayBuffer());
    t.true((await readFile(saved)).equals(fromApi));
    // Not yet in a checkpoint: the API's detail instead of the button.
    await page().route('**/v1/proofs/*/bundle', (route) =>
      route.fulfill({ status: 404, json: { detail: 'this proof is not yet in a checkpoint', code: 'not_in_log' } }),
    );
    await page().getByRole('button', { name: 'Download proof bundle' }).click();
    t.is(await page().getByTestId('bundle-not-in-log').innerText(), 'this proof is not yet in a checkpoint');
    t.is(await page().getByRole('button', { name: 'Download proof bundle' }).count(), 0);
    await page().unroute('**/v1/proofs/*/bundle');

    // The page checks what it is given rather than trusting it: an audit path with one hash
    // changed, or a checkpoint whose signed size was edited, is refused, each saying why.
    const tampered = async (change: (answer: { hashes: string[]; checkpoint: string; tree_size: number }) => void, why: RegExp) => {
      await page().route('**/v1/log/inclusion/**', async (route) => {
        const answer = await (await route.fetch()).json();
        change(answer);
        await route.fulfill({ json: answer });
      });
      await page().reload();
      await page().getByTestId('log-verdict').waitFor();
      t.regex(await page().getByTestId('log-verdict').innerText(), why);
      await page().unroute('**/v1/log/inclusion/**');
    };
    await tampered((a) => {
      if (a.hashes.length === 0) a.hashes.push('0'.repeat(64));
      else a.hashes[0] = (a.hashes[0]![0] === '0' ? '1' : '0') + a.hashes[0]!.slice(1);
    }, /^Not verified: the proof (does not lead to the root hash|has 1 hashes)/);
    await tampered((a) => {
      a.checkpoint = a.checkpoint.replace(/\n\d+\n/, `\n${a.tree_size + 1}\n`);
      a.tree_size += 1;
    }, /^Not verified: the signature by .* does not verify/);
    // No checkpoint covers it yet (404): said so, and asked again until one does.
    let refused = 0;
    await page().route('**/v1/log/inclusion/**', async (route) =>
      refused++ < 2 ? route.fulfill({ status: 404, json: { detail: 'not in the log yet', code: 'not_in_log' } }) : route.fallback(),
    );
    await page().reload();
    await page().getByText('Not in a checkpoint yet.').waitFor();
    await page()
      .getByText(/verified in this browser\.$/)
      .waitFor({ timeout: 30_000 });
    t.is(refused, 3);
    await page().unroute('**/v1/log/inclusion/**');
    // A proof the registry gave no log index (stored while its log was off) is not waited for.
    await page().route('**/v1/proofs/*', async (route) => {
      const { log_index: _, ...record } = await (await route.fetch()).json();
      await route.fulfill({ json: record });
    });
    await page().reload();
    await page().getByText('The registry gave this proof no log index').waitFor();
    t.is(await page().getByTestId('log-verdict').count(), 0);
    await page().unroute('**/v1/proofs/*');
  });

  test.serial(`${label}: the overview shows the transparency log's size and its checkpoint, checked in the browser`, async (t) => {
    await go('', 'Overview');
    const size = page().getByTestId('log-tree-size');
    await size.waitFor();
    t.true(Number((await size.innerText()).replace(/\D/g, '')) >= 1);
    const card = await page().locator('.log-facts').innerText();
    t.true(card.includes('signature verified in this browser'), card);
    t.regex(card, /[0-9a-f]{64}/);
    await checkPage(t, w, shot('overview-log'));
  });

  test.serial(`${label}: the verify tool gives each pasted envelope its verdict`, async (t) => {
    await go('verify', 'Verify envelopes');
    const good = anEnvelope({ taskId: 'check-1' });
    const bad = { ...anEnvelope({ taskId: 'check-2' }), signature_b64: 'A'.repeat(88) };
    await page()
      .getByLabel(/^Envelopes/)
      .fill(JSON.stringify([good, bad]));
    await page().getByRole('button', { name: 'Verify' }).click();
    await page().getByText('2 envelopes:').waitFor();
    const verdicts = await page().locator('tbody tr td:nth-child(2)').allInnerTexts();
    t.deepEqual(
      verdicts.map((v) => v.trim().toLowerCase()),
      ['valid', 'invalid'],
    );
    await checkPage(t, w, shot('verify'));
  });

  test.serial(`${label}: deleting the key asks first, with its last use and request count; the key is then refused`, async (t) => {
    await go('keys', 'API keys');
    await page().getByRole('button', { name: 'Delete the key warehouse robots' }).click();
    const dialog = page().getByRole('dialog');
    await dialog.waitFor();
    // Four calls of the walkthrough and the robot's two health reports on the device page.
    t.regex(await dialog.innerText(), /last used just now .* has made 6 requests/s);
    await checkPage(t, w, shot('keys-delete-dialog'));
    await dialog.getByRole('button', { name: 'Delete key' }).click();
    await page().getByText('No API keys yet').waitFor();
    t.is((await withKey('GET', '/v1/proofs')).status, 401);
  });
}
