import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import type { Page } from 'playwright-core';
import { SCREENSHOTS } from '../support/browser.js';
import type { EveryPage } from './every-page.js';

const run = promisify(execFile);

/** The whole page as one tall viewport at `width` (the docs' pictures are taken so), then the size it had. */
async function picture(page: Page, name: string, width: number): Promise<void> {
  const size = page.viewportSize()!;
  await page.setViewportSize({ width, height: 844 });
  await page.setViewportSize({ width, height: Math.max(844, await page.evaluate(() => document.documentElement.scrollHeight)) });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
  await page.setViewportSize(size);
}

/**
 * A new user's first minutes, on the wallet with nothing in it: the overview, proofs and fleet
 * say to make a key and send a first proof, with the commands filled in with this service's
 * address and the wallet's full address; the new-key panel shows the key once with the same
 * commands, filled with the key; and the commands, run as shown, store a proof.
 */
export function firstSteps(d: EveryPage): void {
  const page = () => d.w('fresh').page;
  const snippet = async (scope: string, id: 'curl' | 'cli' | 'acto') => (await page().locator(scope).getByTestId(`snippet-${id}`).innerText()).trim();

  test.serial(`${d.label}: an empty overview, proofs and fleet say the next step: make a key, then send a first proof, filled in`, async (t) => {
    const origin = d.registry().url;
    const wallet = d.wallets.fresh.address;
    for (const [where, h1] of [
      ['', 'Overview'],
      ['proofs', 'Proofs'],
      ['fleet', 'Fleet'],
    ] as const) {
      await page().goto(`${origin}/dashboard/${where}`);
      await page().getByRole('heading', { level: 1, name: h1 }).waitFor();
      const steps = page().getByRole('region', { name: 'First steps' });
      await steps.waitFor();
      t.is(await steps.getByRole('link', { name: 'Make an API key' }).getAttribute('href'), '/dashboard/keys', where);
      await steps.getByRole('heading', { name: 'Send a first proof' }).waitFor();
      t.true((await steps.innerText()).includes(wallet), `${where}: the wallet's full address`);
    }
    await page().goto(`${origin}/dashboard/`);
    const steps = page().getByRole('region', { name: 'First steps' });
    await steps.waitFor();
    if (d.label === 'sqlite') await picture(page(), 'first-proof-empty-state', 1280);
    // The tabs, by keyboard: the chosen one takes focus, the arrow keys move between them.
    const curl = await snippet('.first-steps', 'curl');
    t.true(curl.startsWith(`curl -s ${origin}/v1/proofs`), curl);
    t.true(curl.includes(`X-Wallet-Address: ${wallet}`), curl);
    t.true(curl.includes('Authorization: Bearer pr_live_…'), 'a placeholder until a key is made');
    await steps.getByRole('tab', { name: 'curl' }).focus();
    await page().keyboard.press('ArrowRight');
    t.is(await steps.getByRole('tab', { name: 'CLI' }).getAttribute('aria-selected'), 'true');
    t.true(await steps.getByRole('tab', { name: 'CLI' }).evaluate((el) => el === document.activeElement));
    const cli = await snippet('.first-steps', 'cli');
    t.true(cli.includes('node bin/proof-registry.js submit envelope.json'), cli);
    t.true(cli.includes(`--url ${origin} --wallet ${wallet}`), cli);
    t.false(await steps.getByTestId('snippet-curl').isVisible(), 'one tab shows at a time');
    await page().keyboard.press('ArrowRight');
    const acto = await snippet('.first-steps', 'acto');
    t.true(acto.includes('from acto.client import ACTOClient'), acto);
    t.true(acto.includes(`wallet_address="${wallet}"`) && acto.includes(`base_url="${origin}/acto"`), acto);
    t.true(acto.includes('client.submit_proof(envelope)'), acto);
    await page().keyboard.press('ArrowRight');
    t.is(await steps.getByRole('tab', { name: 'curl' }).getAttribute('aria-selected'), 'true', 'the arrow wraps round');
    await steps.getByRole('button', { name: 'Copy the curl commands' }).click();
    await steps.getByText('Copied').waitFor();
    t.is(await page().evaluate(() => navigator.clipboard.readText()), curl);
  });

  let shown = { key: '', cli: '', curl: '' };
  test.serial(`${d.label}: a key made with the keyboard is shown once with the wallet's full address and the commands, filled with it`, async (t) => {
    await page().goto(`${d.registry().url}/dashboard/keys`);
    await page().getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    // On a phone's screen, as the docs picture it.
    await page().setViewportSize({ width: 390, height: 844 });
    t.teardown(() => page().setViewportSize({ width: 1280, height: 860 }));
    await page().getByLabel('Name', { exact: true }).focus();
    await page().keyboard.type('first robot');
    await page().keyboard.press('Enter');
    const panel = page().locator('.new-key');
    await panel.waitFor();
    const key = (await panel.getByTestId('new-key').innerText()).trim();
    t.regex(key, /^pr_live_/);
    t.is((await panel.getByTestId('new-key-wallet').innerText()).trim(), d.wallets.fresh.address);
    const curl = await snippet('.new-key', 'curl');
    t.true(curl.includes(`Bearer ${key}`) && curl.includes(d.wallets.fresh.address), curl);
    await panel.getByRole('tab', { name: 'CLI' }).click();
    const cli = await snippet('.new-key', 'cli');
    t.true(cli.includes(`PROOF_REGISTRY_API_KEY=${key}`), cli);
    shown = { key, cli, curl };
    t.true(await page().evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'the panel fits a phone');
    if (d.label === 'sqlite') await picture(page(), 'keys-phone', 390);
    await panel.getByRole('button', { name: 'I have stored it' }).click();
    await panel.waitFor({ state: 'hidden' });
    t.false((await page().content()).includes(key), 'gone from the page once stored');
    // The first step is ticked; the second still waits.
    await page().goto(`${d.registry().url}/dashboard/`);
    await page().getByRole('region', { name: 'First steps' }).getByText('Done: this wallet has an API key.').waitFor();
  });

  test.serial(`${d.label}: the commands, run as the panel shows them, store a first proof; the overview then shows it`, async (t) => {
    // In a directory of its own that holds the checkout's bin/ and examples/, as a user's checkout does.
    const dir = mkdtempSync(path.join(tmpdir(), 'first-proof-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    for (const name of ['bin', 'examples']) symlinkSync(path.resolve(name), path.join(dir, name));
    const env = { ...process.env, HOME: dir, XDG_CONFIG_HOME: dir };
    const cli = await run('bash', ['-euo', 'pipefail', '-c', shown.cli], { cwd: dir, env });
    t.regex(cli.stdout, /Stored: proof [0-9a-f]{64}/);
    // The curl commands send the same envelope: the same proof, a duplicate.
    const curl = await run('bash', ['-euo', 'pipefail', '-c', shown.curl], { cwd: dir, env });
    t.like(JSON.parse(curl.stdout), { duplicate: true });
    await page().goto(`${d.registry().url}/dashboard/`);
    await page().getByText('Last proof created').waitFor();
    t.is(await page().getByRole('region', { name: 'First steps' }).count(), 0);
  });
}
