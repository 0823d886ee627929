import test, { type ExecutionContext } from 'ava';
import { checkPage } from '../support/browser.js';
import { anEnvelope } from '../support/mothers.js';
import type { Flow } from './operator-flow-harness.js';

/**
 * The first half of the operator flow: a key created and used (its counts move), the overview,
 * the fleet and its groups, and a device's page (health history, readings, details, hiding).
 */
export function keysAndFleetTests(label: string, flow: Flow): void {
  const { page, go, withKey, shot, wallet, clock, minutesAgo } = flow;

  test.serial(`${label}: sign in, create a key (shown once), use it, and see its counts move`, async (t: ExecutionContext) => {
    await page().goto(`${flow.registry.url}/`);
    await page().getByRole('button', { name: 'Test Wallet' }).click();
    await page().getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page().getByRole('link', { name: 'API keys' }).click();
    await page().getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    await page().getByText('No API keys yet').waitFor();
    await page().getByLabel('Name').fill('warehouse robots');
    await page().getByRole('button', { name: 'Create key' }).click();
    flow.key = (await page().getByTestId('new-key').innerText()).trim();
    t.regex(flow.key, /^pr_live_/);
    t.true((await page().locator('.new-key').innerText()).includes('it will not be shown again'));
    // Stored nowhere by the page.
    t.false(await page().evaluate((k) => JSON.stringify({ ...sessionStorage, ...localStorage }).includes(k), flow.key));
    await checkPage(t, flow.w, shot('keys-created'));

    // Health reports: the route takes the owner's dashboard token. The service's clock moves
    // past the page's token lifetime below, so the page's own requests are all answered first
    // (one checked after the move would end its session).
    await page().waitForLoadState('networkidle');
    const token = await flow.registry.signIn(wallet);
    for (const [i, cpu] of [35, 55, 48, 82].entries()) {
      const res = await flow.registry.call('POST', '/v1/fleet/devices/arm-1/health', {
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
    await checkPage(t, flow.w, shot('keys'));
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
    await checkPage(t, flow.w, shot('overview'));
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
    await checkPage(t, flow.w, shot('fleet'));

    // Edit the group: a description and a colour, shown as a swatch.
    await page().getByRole('button', { name: 'Edit the group Line A' }).click();
    await page().getByLabel('Group description').fill('Packing line, north hall');
    await page().getByLabel('Colour').fill('#e07b00');
    await page().getByRole('button', { name: 'Save group' }).click();
    await page().locator('.note-success').getByText('Saved the group “Line A”.').waitFor();
    await page().locator('.group-list .swatch').waitFor();
    const groups = await flow.registry.call('GET', '/v1/fleet/groups', { credential: await flow.registry.signIn(wallet), wallet: wallet.address });
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
    await checkPage(t, flow.w, shot('device'));
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
    const device = await flow.registry.call('GET', '/v1/fleet/devices/arm-1', { credential: await flow.registry.signIn(wallet), wallet: wallet.address });
    t.like(device.body, { type: 'arm', description: 'Left picker, bay 3' });
    await checkPage(t, flow.w, shot('device-details'));
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
}
