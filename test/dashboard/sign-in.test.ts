import test from 'ava';
import type { Page } from 'playwright-core';
import { checkPage, launchChromium, openPage, type LaunchedBrowser } from '../support/browser.js';
import { startDashboardRegistry, type DashboardRegistry } from '../support/dashboard-registry.js';
import { aWallet, ManualClock } from '../support/identity.js';

// Every state of the sign-in page, in a real browser: no wallet, the development wallet (made
// in the tab, or a keypair file), a declined request, a wallet that signs other text, a
// balance below the minimum, the balance source down, success, a reload, and an expired
// session. One browser for the file.
const clock = new ManualClock(Date.now());
let registry: DashboardRegistry;
let chrome: LaunchedBrowser;
test.before(async () => {
  [registry, chrome] = await Promise.all([startDashboardRegistry({ clock }), launchChromium()]);
});
test.after.always(async () => {
  await chrome?.close();
  await registry?.close();
});

const dashboard = () => `${registry.url}/dashboard/`;
const heading = (page: Page) => page.locator('h1').innerText();

test.serial('without a wallet, the page says how to get one and offers the development wallet, which signs in once funded', async (t) => {
  const w = await openPage(chrome.browser, registry.url);
  await w.page.goto(registry.url + '/');
  t.is(w.page.url(), dashboard());
  await w.page.getByText('No Solana wallet found in this browser.').waitFor();
  t.truthy(await w.page.getByText('Phantom, Solflare or Backpack').count());
  const address = (await w.page.locator('.dev-wallet .mono.break').innerText()).trim();
  t.regex(address, /^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
  t.is((await w.page.locator('.dev-wallet code').innerText()).trim(), `node bin/proof-registry.js ledger set ${address} 50000`);
  await checkPage(t, w, 'sign-in');

  // Not funded yet: the 403 says how many tokens are needed and how many it holds.
  await w.page.getByRole('button', { name: 'Sign in with the development wallet' }).click();
  const alert = w.page.getByRole('alert');
  await alert.getByText('holds 0 access tokens').waitFor();
  t.true((await alert.innerText()).includes('at least 50,000'));
  t.true((await alert.innerText()).includes(`ledger set ${address} 50000`));
  await checkPage(t, w, 'sign-in-balance-too-low');

  // Funded: the next try gets in at once (on the local ledger a refusal is not cached).
  await registry.fund(address, '50000');
  await w.page.getByRole('button', { name: 'Sign in with the development wallet' }).click();
  await w.page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  t.true((await w.page.locator('.account').innerText()).includes('Development wallet'));
  // The token is in sessionStorage, never in localStorage or a cookie.
  t.is(await w.page.evaluate(() => localStorage.length), 0);
  t.deepEqual(await w.context.cookies(), []);
  t.true(await w.page.evaluate(() => (sessionStorage.getItem('proof-registry.session') ?? '').includes('"token"')));
  await checkPage(t, w, 'overview-empty');
  await w.close();
});

test.serial("a Solana keypair file, such as the CLI's wallet.json, becomes the development wallet of the tab and signs in as its address", async (t) => {
  const wallet = aWallet(45);
  const w = await openPage(chrome.browser, registry.url);
  await w.page.goto(dashboard());
  const shown = w.page.locator('.dev-wallet .mono.break');
  await shown.waitFor();
  const made = (await shown.innerText()).trim();
  const input = w.page.getByLabel('Or sign in as a Solana keypair file');
  const choose = (name: string, text: string) => input.setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
  const alert = w.page.getByRole('alert');

  // What is not a keypair is refused with a sentence, and the key made in the tab stays.
  await choose('notes.json', '[1, 2, 3]');
  await alert.getByText('a Solana keypair file is a JSON array of 64 numbers from 0 to 255').waitFor();
  await choose('mixed.json', JSON.stringify([...wallet.secretKey.slice(0, 32), ...aWallet(46).secretKey.slice(32)]));
  await alert.getByText('its last 32 numbers are not the public key of its first 32').waitFor();
  t.is((await shown.innerText()).trim(), made);

  // wallet.json: its address and funding command replace the made key's, and no alert is left.
  await choose('wallet.json', JSON.stringify([...wallet.secretKey]));
  await shown.getByText(wallet.address).waitFor();
  t.is((await w.page.locator('.dev-wallet code').innerText()).trim(), `node bin/proof-registry.js ledger set ${wallet.address} 50000`);
  t.is((await alert.innerText()).trim(), '');
  await checkPage(t, w, 'sign-in-keypair-file');

  await registry.fund(wallet.address, '50000');
  await w.page.getByRole('button', { name: 'Sign in with the development wallet' }).click();
  await w.page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  const session = JSON.parse((await w.page.evaluate(() => sessionStorage.getItem('proof-registry.session'))) ?? '{}') as { wallet?: string };
  t.is(session.wallet, wallet.address);
  // Kept as the made key is: in this tab's sessionStorage, never in localStorage or a cookie.
  const kept = JSON.parse((await w.page.evaluate(() => sessionStorage.getItem('proof-registry.dev-wallet'))) ?? '{}') as { publicKey?: string };
  t.is(kept.publicKey, Buffer.from(wallet.secretKey.slice(32)).toString('base64'));
  t.is(await w.page.evaluate(() => localStorage.length), 0);
  t.deepEqual(await w.context.cookies(), []);
  await w.close();
});

test.serial('a declined request, a wallet that signs other text, and a balance below the minimum each get their own message', async (t) => {
  const wallet = aWallet(41);
  await registry.fund(wallet.address, '10');
  const w = await openPage(chrome.browser, registry.url, { wallet, walletName: 'Test Wallet' });
  await w.page.goto(dashboard());
  // The sign-in screen renders once the page has read its settings: count only after it shows.
  const walletButton = w.page.getByRole('button', { name: 'Test Wallet' });
  await walletButton.waitFor();
  t.is(await w.page.locator('.dev-wallet').count(), 1);
  const pick = () => walletButton.click();

  w.walletBehaves('reject');
  await pick();
  await w.page.getByRole('alert').getByText('You declined the request in Test Wallet. Nothing was signed.').waitFor();
  await checkPage(t, w, 'sign-in-declined');

  w.walletBehaves('sign-other-text');
  await pick();
  await w.page.getByRole('alert').getByText('signed a different message than the sign-in challenge').waitFor();

  w.walletBehaves('approve');
  await pick();
  await w.page.getByRole('alert').getByText('This wallet holds 10 access tokens; signing in needs at least 50,000.').waitFor();
  t.pass();
  await w.close();
});

test.serial('with the balance source down, the page says so and when to retry; once it answers, sign-in works and a reload keeps the view', async (t) => {
  const wallet = aWallet(42);
  await registry.fund(wallet.address, '50000');
  registry.balances.failWith('unreachable');
  const w = await openPage(chrome.browser, registry.url, { wallet });
  await w.page.goto(`${dashboard()}keys`);
  await w.page.getByRole('button', { name: 'Test Wallet' }).click();
  const alert = w.page.getByRole('alert');
  await alert.getByText('cannot check token balances right now').waitFor();
  t.regex(await alert.innerText(), /Try again in about \d+ seconds/);
  // The 503 is the service's answer, not a page error: nothing else may appear in the console.
  w.problems.splice(0, w.problems.length, ...w.problems.filter((p) => !p.includes('503')));
  await checkPage(t, w, 'sign-in-balance-source-down');

  registry.balances.failWith(null);
  clock.advance(3_000); // past the cache's pause after a failure
  await w.page.getByRole('button', { name: 'Test Wallet' }).click();
  // Signing in keeps the place the page was opened at.
  await w.page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
  await w.page.reload();
  await w.page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
  t.is(new URL(w.page.url()).pathname, '/dashboard/keys');
  w.problems.splice(0, w.problems.length, ...w.problems.filter((p) => !p.includes('503')));
  t.deepEqual(w.problems, []);
  await w.close();
});

test.serial('an expired session asks to sign in again and returns to the same view', async (t) => {
  const wallet = aWallet(43);
  await registry.fund(wallet.address, '50000');
  const w = await openPage(chrome.browser, registry.url, { wallet });
  await w.page.goto(`${dashboard()}proofs?task_id=pick-42`);
  await w.page.getByRole('button', { name: 'Test Wallet' }).click();
  await w.page.getByRole('heading', { level: 1, name: 'Proofs' }).waitFor();
  // The view's own request answered first: answered after the clock moves, its 401 would end
  // the session on this page, before the reload the test is about.
  await w.page.getByText('No proof matches these filters').waitFor();
  clock.advance(2 * 3600_000); // past JWT_TTL_S (1 h) on the service's clock
  await w.page.reload();
  await w.page.getByText('Your session has expired. Sign in again to continue where you were.').waitFor();
  t.is(await heading(w.page), 'Sign in with your wallet');
  t.is(new URL(w.page.url()).search, '?task_id=pick-42');
  t.is(await w.page.evaluate(() => sessionStorage.getItem('proof-registry.session')), null);
  // The refused request (401) is the expected end of the session, not a page error.
  w.problems.splice(0, w.problems.length, ...w.problems.filter((p) => !p.includes('401')));
  await checkPage(t, w, 'sign-in-expired');
  await w.page.getByRole('button', { name: 'Test Wallet' }).click();
  await w.page.getByRole('heading', { level: 1, name: 'Proofs' }).waitFor();
  t.is(await w.page.locator('#f-task_id').inputValue(), 'pick-42');
  await w.close();
});

test.serial('signing out revokes the token on the service before dropping it: a copy of it is refused afterwards', async (t) => {
  const wallet = aWallet(44);
  await registry.fund(wallet.address, '50000');
  const w = await openPage(chrome.browser, registry.url, { wallet });
  await w.page.goto(dashboard());
  await w.page.getByRole('button', { name: 'Test Wallet' }).click();
  await w.page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  // What someone who read this tab's storage would hold.
  const { token } = JSON.parse((await w.page.evaluate(() => sessionStorage.getItem('proof-registry.session'))) ?? '{}') as { token: string };
  const keys = () => fetch(`${registry.url}/v1/keys`, { headers: { authorization: `Bearer ${token}`, 'x-wallet-address': wallet.address } });
  t.is((await keys()).status, 200);

  const logout = w.page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/v1/auth/logout');
  await w.page.getByRole('button', { name: 'Sign out' }).click();
  t.is((await logout).headers()['authorization'], `Bearer ${token}`);
  await w.page.getByRole('heading', { level: 1, name: 'Sign in with your wallet' }).waitFor();
  t.is(await w.page.evaluate(() => sessionStorage.getItem('proof-registry.session')), null);
  const refused = await keys();
  t.is(refused.status, 401);
  t.is(((await refused.json()) as { code: string }).code, 'revoked_token');
  await w.close();
});
