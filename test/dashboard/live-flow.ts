import test from 'ava';
import type { EventsDashboard } from './events-dashboard.js';

/**
 * The stream in the page: the Activity feed starts from the recent history and adds each event
 * as it happens, says when it is not live, and resumes after a cut without losing an event;
 * the fleet list follows new devices without a reload. Waits are on what the page shows.
 */
export function liveFlow(d: EventsDashboard): void {
  const page = () => d.page();
  const status = () => page().getByTestId('link-status');
  const feed = () => page().getByRole('list', { name: 'Events, newest first' });

  test.serial(`${d.label}: the fleet page shows a new device as it appears, without a reload`, async (t) => {
    await d.go('fleet', 'Fleet');
    await status().getByText('Live').waitFor();
    await page().getByRole('link', { name: 'arm-07' }).waitFor();
    // Set in the page: a reload would lose it.
    await page().evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    t.is(await d.submit({ taskId: 'first-of-arm-12', robotId: 'arm-12', seed: 2 }), 200);
    // Well inside the 60 s fallback: only the stream can have brought it.
    await page().getByRole('link', { name: 'arm-12' }).waitFor({ timeout: 15_000 });
    t.true(await page().evaluate(() => (window as unknown as { stayed?: boolean }).stayed === true));
    await d.check(t, 'fleet-live');
  });

  test.serial(`${d.label}: the activity feed starts from the history and adds each event as it happens, newest first`, async (t) => {
    await d.go('activity', 'Activity');
    await status().getByText('Live').waitFor();
    // From GET /v1/events: the key made before the page opened, and the proofs so far.
    await feed().getByText('API key “line robots” created').waitFor();
    t.true((await feed().innerText()).includes('New device arm-12 (online)'));
    await page().evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));

    t.is(await d.submit({ taskId: 'live-1', robotId: 'arm-07', seed: 3 }), 200);
    const accepted = feed()
      .locator('li')
      .filter({ hasText: /^.*accepted from arm-07 \(leaf \d+\)/ })
      .filter({ hasText: 'Task live-1' });
    await accepted.waitFor({ timeout: 15_000 });
    t.regex(await feed().locator('li').first().innerText(), /Proof [0-9a-f]{8}… accepted from arm-07 \(leaf \d+\)/);
    t.is(await d.submit({ taskId: 'forged-1', robotId: 'arm-07', forged: true }), 422);
    await feed().locator('li').first().getByText('Submission refused: signature check failed (from arm-07)').waitFor({ timeout: 15_000 });
    // Eleven minutes without a word: the registry's sweep says each device went offline.
    d.clock.advance(11 * 60_000);
    await feed().getByText('arm-12 went offline (silent for 11 min)').waitFor({ timeout: 15_000 });
    t.true(await page().evaluate(() => (window as unknown as { stayed?: boolean }).stayed === true));
    // Links to the proof and the device; the filter keeps only refusals.
    await accepted.getByRole('link', { name: 'arm-07' }).waitFor();
    await page().getByRole('link', { name: 'Refusals' }).click();
    await page().waitForURL(/kind=refusals/);
    await page().waitForFunction(() => document.querySelectorAll('.feed li').length === 1);
    await page().getByRole('link', { name: 'All', exact: true }).click();
    await page().waitForFunction(() => document.querySelectorAll('.feed li').length > 1);
    await d.check(t, 'activity');
    await d.shootBoth('activity');
  });

  test.serial(`${d.label}: when the connection drops the feed says it is reconnecting, then resumes after the last event it saw`, async (t) => {
    const streams: Array<string | undefined> = [];
    const seen = (r: { url(): string; headers(): Record<string, string> }) =>
      void (r.url().includes('/v1/events/stream') && streams.push(r.headers()['last-event-id']));
    page().on('request', seen);
    // The connection breaks and new ones are refused for a while, as when the network goes.
    d.proxy().cut({ refusing: true });
    await status().getByText('Reconnecting…').waitFor();
    t.is(await d.submit({ taskId: 'while-away', robotId: 'arm-07', seed: 4 }), 200);
    d.proxy().restore();
    await status().getByText('Live').waitFor({ timeout: 60_000 });
    await feed().locator('li').filter({ hasText: 'Task while-away' }).waitFor({ timeout: 15_000 });
    page().off('request', seen);
    // Every attempt resumed from an event id (the page's last), so nothing was missed.
    t.true(streams.length >= 1);
    for (const id of streams) t.regex(id ?? '', /^evt_\d{16}$/);
    // What the cut made Chromium log is the test's doing, not the page's.
    const own = d.w().problems.filter((p) => !/^console error: Failed to load resource: net::ERR_/.test(p));
    d.w().problems.splice(0, Infinity, ...own);
    await d.check(t, 'activity-resumed');
  });
}
