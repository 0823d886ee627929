import test from 'ava';
import { PAGES, type EveryPage } from './every-page.js';

/**
 * The navigation on a phone's screen, and the main actions without a mouse: the skip link, a
 * dialog opened with Enter, closed with Escape, and the focus back where it was.
 */
export function keyboardAndPhone(d: EveryPage): void {
  const page = () => d.w('seeded').page;

  test.serial(`${d.label}: at 390 px every link of the navigation and the sign-out button are on the screen, on every signed-in page`, async (t) => {
    await page().setViewportSize({ width: 390, height: 844 });
    t.teardown(() => page().setViewportSize({ width: 1280, height: 860 }));
    for (const spec of PAGES.filter((p) => p.as === 'seeded')) {
      await d.open(spec);
      await page().evaluate(() => window.scrollTo(0, 0));
      const nav = page().getByRole('navigation', { name: 'Dashboard' });
      const links = await nav.getByRole('link').all();
      t.is(links.length, await nav.locator('a').count());
      t.true(links.length >= 7, `${spec.name}: ${links.length} links`);
      for (const link of [...links, page().getByRole('button', { name: 'Sign out' })]) {
        const name = (await link.innerText()).trim();
        t.true(await link.isVisible(), `${spec.name}: ${name} is hidden`);
        const box = (await link.boundingBox())!;
        t.true(box.x >= 0 && box.x + box.width <= 390, `${spec.name}: ${name} spans ${box.x}–${box.x + box.width} px of 390`);
      }
    }
  });

  test.serial(`${d.label}: the keyboard alone: skip to the content, open a dialog with Enter, Escape closes it and the focus returns`, async (t) => {
    await d.open(PAGES.find((p) => p.name === 'keys')!);
    // The first Tab reaches the skip link; following it puts the focus on the view.
    await page().evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page().keyboard.press('Tab');
    t.is(await page().evaluate(() => document.activeElement?.textContent?.trim()), 'Skip to content');
    await page().keyboard.press('Enter');
    t.is(await page().evaluate(() => document.activeElement?.id), 'main');

    const remove = page().getByRole('button', { name: 'Delete the key line robots' });
    await remove.focus();
    await page().keyboard.press('Enter');
    const dialog = page().getByRole('dialog');
    await dialog.waitFor();
    t.true(await dialog.evaluate((el) => el.contains(document.activeElement)), 'the focus moves into the dialog');
    await page().keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    t.true(await remove.evaluate((el) => el === document.activeElement), 'the focus returns to the button that opened it');
    t.is(
      await page()
        .getByRole('row', { name: /line robots/ })
        .count(),
      1,
      'Escape deleted nothing',
    );

    // Rename: Enter opens, Escape closes, the focus returns; the name is unchanged.
    const rename = page().getByRole('button', { name: 'Rename the key line robots' });
    await rename.focus();
    await page().keyboard.press('Enter');
    await page().getByRole('dialog').waitFor();
    await page().keyboard.press('Escape');
    await page().getByRole('dialog').waitFor({ state: 'hidden' });
    t.true(await rename.evaluate((el) => el === document.activeElement));

    // A key's usage opens from its name, by keyboard.
    await page().getByRole('link', { name: 'line robots', exact: true }).focus();
    await page().keyboard.press('Enter');
    await page().waitForURL(/\?key=/);
    await page().locator('figcaption', { hasText: 'Requests and errors per day' }).waitFor();
  });

  test.serial(`${d.label}: a chart's y axis labels a value at or above its largest (9 requests: up to 10; a CPU of 30 %: up to 30)`, async (t) => {
    // 9 requests in a day: the axis reaches 10, labelled, not 5.
    const made = await d
      .registry()
      .call('POST', '/v1/keys', { credential: await d.registry().signIn(d.wallets.seeded), wallet: d.wallets.seeded.address, body: { name: 'nine' } });
    for (let i = 0; i < 9; i++) {
      const res = await fetch(`${d.registry().url}/v1/proofs?limit=1`, {
        headers: { authorization: `Bearer ${made.body.key}`, 'x-wallet-address': d.wallets.seeded.address },
      });
      t.true(res.status < 500);
      await res.arrayBuffer();
    }
    await page().goto(`${d.registry().url}/dashboard/keys?key=${made.body.key_id}`);
    const canvas = page().locator('.chart-canvas').first();
    await canvas.locator('canvas').waitFor();
    // uPlot draws its labels on the canvas; the chart names the values it labels beside it.
    t.is(await canvas.getAttribute('data-y-ticks'), '0 2 4 6 8 10');
    await page().getByText('Show as a table', { exact: true }).click();
    const today = new Date().toISOString().slice(0, 10);
    t.deepEqual(
      await page()
        .getByRole('row', { name: new RegExp(today) })
        .locator('td')
        .allInnerTexts(),
      [today, '9', '0'],
    );
    // A reading's chart too: a CPU of 30 % under an axis that labels 30.
    await d.open(PAGES.find((p) => p.name === 'device')!);
    const cpu = page().locator('figure', { hasText: 'CPU (%)' }).locator('.chart-canvas');
    await cpu.locator('canvas').waitFor();
    t.is(await cpu.getAttribute('data-y-ticks'), '0 10 20 30');
  });
}
