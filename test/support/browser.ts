/// <reference lib="dom" />
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import nacl from 'tweetnacl';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { TestWallet } from './identity.js';

/**
 * Debian's Chromium driven by playwright-core (never `playwright install`: no browser is
 * downloaded). Without it the browser tests fail, saying how to install it: they never skip.
 */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Where each scenario's screenshots go (a test artifact, not committed). */
export const SCREENSHOTS = path.resolve('.tmp/screenshots');

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  // Without these Chromium reaches for update, sync and safe-browsing servers.
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface LaunchedBrowser {
  readonly browser: Browser;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<LaunchedBrowser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}: the dashboard's browser tests need it. Install it with ` +
        '`apt-get install -y --no-install-recommends chromium` (or set CHROMIUM_PATH to a Chromium binary).',
    );
  }
  // playwright-core starts each browser on a fresh temporary profile (its own --user-data-dir) and removes it on close.
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  return { browser, close: () => browser.close() };
}

/** How the injected test wallet answers a signing request. */
export type WalletBehaviour = 'approve' | 'reject' | 'sign-other-text';

export interface Watched {
  readonly page: Page;
  readonly context: BrowserContext;
  /** What went wrong in the page: console errors, uncaught errors, CSP violations, requests to other origins. */
  readonly problems: string[];
  /** Sets how the test wallet answers from now on. */
  walletBehaves(b: WalletBehaviour): void;
  close(): Promise<void>;
}

/**
 * A fresh context and page on `origin`, watched for what must never happen. With `wallet`, a
 * Wallet Standard wallet is registered before any page script runs; its key stays in this
 * process, and the page reaches it only through an exposed function that signs with tweetnacl.
 */
export async function openPage(browser: Browser, origin: string, o: { wallet?: TestWallet; walletName?: string } = {}): Promise<Watched> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme: 'light', reducedMotion: 'reduce' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const page = await context.newPage();
  const problems: string[] = [];
  let behaviour: WalletBehaviour = 'approve';
  page.on('console', (m) => {
    // Chromium logs every refused request ("Failed to load resource: … 403"); the page handles
    // those, and the responses themselves are checked below.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource: the server responded with a status of'))
      problems.push(`console error: ${m.text()}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 500 && r.status() !== 503) problems.push(`server error ${r.status()} for ${r.request().method()} ${r.url()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.protocol !== 'data:' && url.origin !== origin) problems.push(`request to another origin: ${r.url()}`);
  });
  await page.exposeFunction('__cspViolation', (text: string) => problems.push(`CSP violation: ${text}`));
  await page.addInitScript({
    content: "document.addEventListener('securitypolicyviolation', (e) => window.__cspViolation(e.violatedDirective + ' blocked ' + e.blockedURI));",
  });
  if (o.wallet) {
    const wallet = o.wallet;
    await page.exposeFunction('__testWalletSign', (messageB64: string) => {
      const message = Buffer.from(messageB64, 'base64');
      if (behaviour === 'reject') return { rejected: true };
      const signed = behaviour === 'sign-other-text' ? Buffer.concat([Buffer.from('prefix: '), message]) : message;
      return { signedMessage: signed.toString('base64'), signature: Buffer.from(nacl.sign.detached(signed, wallet.secretKey)).toString('base64') };
    });
    await page.addInitScript({
      content: registerTestWallet({
        address: wallet.address,
        publicKey: Buffer.from(wallet.secretKey.subarray(32)).toString('base64'),
        name: o.walletName ?? 'Test Wallet',
      }),
    });
  }
  return {
    page,
    context,
    problems,
    walletBehaves: (b) => void (behaviour = b),
    close: () => context.close(),
  };
}

/**
 * Runs in the page before its scripts: the wallet side of the Wallet Standard's registration.
 * Plain JavaScript text: a function passed from here would carry the test runner's helpers.
 */
const registerTestWallet = (w: { address: string; publicKey: string; name: string }): string => `(() => {
  const w = ${JSON.stringify(w)};
  const bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const b64 = (u) => btoa(String.fromCharCode(...u));
  const account = { address: w.address, publicKey: bytes(w.publicKey), chains: ['solana:localnet'], features: ['solana:signMessage'] };
  const wallet = {
    version: '1.0.0',
    name: w.name,
    icon: 'data:image/svg+xml;base64,' + btoa('<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"><rect width="32" height="32" rx="8" fill="#6b5bd6"/></svg>'),
    chains: ['solana:localnet', 'solana:mainnet'],
    accounts: [account],
    features: {
      'standard:connect': { version: '1.0.0', connect: async () => ({ accounts: [account] }) },
      'standard:events': { version: '1.0.0', on: () => () => undefined },
      'solana:signMessage': {
        version: '1.0.0',
        signMessage: async (...inputs) => {
          const out = [];
          for (const input of inputs) {
            const answer = await window.__testWalletSign(b64(input.message));
            if (answer.rejected) throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
            out.push({ signedMessage: bytes(answer.signedMessage), signature: bytes(answer.signature) });
          }
          return out;
        },
      },
    },
  };
  const callback = ({ register }) => register(wallet);
  window.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: callback }));
  window.addEventListener('wallet-standard:app-ready', (e) => callback(e.detail));
})();`;

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export type AxeImpact = 'minor' | 'moderate' | 'serious' | 'critical';

/** The impacts that fail every page's check (test/dashboard/every-page.ts); checkPage fails on any. */
export const SERIOUS: readonly AxeImpact[] = ['serious', 'critical'];

/**
 * axe-core's WCAG 2 A and AA rules on the page as it is now (with `impacts`, only those). The script is evaluated through
 * the DevTools protocol, which the page's CSP does not govern, so the page under test keeps
 * its real policy.
 */
export async function axeViolations(page: Page, o: { impacts?: readonly AxeImpact[] } = {}): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            ctx: Document,
            o: unknown,
          ): Promise<{ violations: Array<{ id: string; help: string; impact: string | null; nodes: Array<{ target: unknown }> }> }>;
        };
      }
    ).axe;
    return axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
  });
  return result.violations
    .filter((v) => !o.impacts || o.impacts.includes(v.impact as AxeImpact))
    .map((v) => `${v.id} (${v.impact}): ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')})`);
}

/** Asserts the page is clean (nothing in `problems`, no axe violation) and saves a screenshot. */
export async function checkPage(t: ExecutionContext, w: Watched, shot: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await w.page.screenshot({ path: path.join(SCREENSHOTS, `${shot}.png`), fullPage: true });
  t.deepEqual(await axeViolations(w.page), [], `${shot}: axe-core (WCAG 2 A/AA)`);
  t.deepEqual(w.problems, [], `${shot}: console errors, CSP violations or requests to other origins`);
}
