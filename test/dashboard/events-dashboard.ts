import { mkdirSync } from 'node:fs';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import type { Page } from 'playwright-core';
import type { Clock } from '../../src/application/ports/clock.js';
import { checkPage, launchChromium, openPage, SCREENSHOTS, type LaunchedBrowser, type Watched } from '../support/browser.js';
import { startDashboardRegistry, type DashboardRegistry } from '../support/dashboard-registry.js';
import { aWallet, type TestWallet } from '../support/identity.js';
import { anEnvelope, type EnvelopeOptions } from '../support/mothers.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { startCuttableProxy, type CuttableProxy } from './cuttable-proxy.js';

/** Real time plus an offset the test moves, so devices fall silent without waiting for it. */
export class MovableClock implements Clock {
  private offsetMs = 0;
  nowMs(): number {
    return Date.now() + this.offsetMs;
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export interface Database {
  url(): Promise<string>;
  drop?(): Promise<void>;
}

/** What the events scenarios share: one registry, one signed-in page, one webhook receiver, an API key. */
export interface EventsDashboard {
  readonly label: string;
  readonly registry: () => DashboardRegistry;
  readonly receiver: () => WebhookReceiver;
  /** Between the browser and the registry: cut it to break the page's connections. */
  readonly proxy: () => CuttableProxy;
  /** The page's origin (the proxy's). */
  readonly origin: () => string;
  readonly w: () => Watched;
  readonly page: () => Page;
  readonly wallet: TestWallet;
  readonly clock: MovableClock;
  /** Opens a view by URL and waits for its heading. */
  go(path: string, h1: string): Promise<void>;
  /** Submits an envelope with the API key, as a device does; its HTTP status. */
  submit(o: EnvelopeOptions & { forged?: boolean }): Promise<number>;
  /** A dashboard token for API calls the test makes itself. */
  token(): Promise<string>;
  /** checkPage (axe, console, CSP, other origins) and its screenshot, named for the database. */
  check(t: ExecutionContext, shot: string): Promise<void>;
  /** A screenshot at the desktop width and one at a phone's (390×844), for the docs: the whole page, or (whole: false) what a screen shows, for a dialog. */
  shootBoth(shot: string, o?: { whole: boolean }): Promise<void>;
}

/**
 * Registers the before and after hooks: the registry as `npm start` wires it, with webhooks
 * allowed to reach this machine (WEBHOOK_ALLOW_PRIVATE=1), event jobs every 50 ms, and device
 * windows short enough for a moved clock to make a device go offline.
 */
export function eventsDashboard(label: string, database: Database): EventsDashboard {
  let registry: DashboardRegistry;
  let chrome: LaunchedBrowser;
  let w: Watched;
  let receiver: WebhookReceiver;
  let proxy: CuttableProxy;
  let key = '';
  const wallet = aWallet(11);
  const clock = new MovableClock();
  const named = (shot: string) => `${shot}${label === 'sqlite' ? '' : `-${label}`}`;

  // ava takes no teardown in hooks: the receiver's close is kept for the after hook.
  const closers: Array<() => Promise<void>> = [];
  const hookContext = { teardown: (f: () => Promise<void>) => void closers.push(f) } as unknown as ExecutionContext;

  test.before(async () => {
    [registry, chrome, receiver] = await Promise.all([
      startDashboardRegistry({
        databaseUrl: await database.url(),
        clock,
        env: {
          JWT_TTL_S: '86400',
          WEBHOOK_ALLOW_PRIVATE: '1',
          EVENT_POLL_MS: '50',
          DEVICE_SWEEP_MS: '50',
          DEVICE_ONLINE_WINDOW_S: '60',
          DEVICE_OFFLINE_AFTER_S: '600',
          LOG_CHECKPOINT_INTERVAL_MS: '200',
        },
      }),
      launchChromium(),
      startReceiver(hookContext),
    ]);
    await registry.fund(wallet.address, '50000');
    const made = await registry.call('POST', '/v1/keys', { credential: await registry.signIn(wallet), wallet: wallet.address, body: { name: 'line robots' } });
    key = made.body.key as string;
    proxy = await startCuttableProxy(registry.url);
    w = await openPage(chrome.browser, proxy.url, { wallet, walletName: 'Test Wallet' });
  });
  test.after.always(async () => {
    await w?.close();
    await chrome?.close();
    await proxy?.close();
    await registry?.close();
    for (const close of closers) await close();
    await database.drop?.();
  });

  const page = () => w.page;
  return {
    label,
    registry: () => registry,
    receiver: () => receiver,
    proxy: () => proxy,
    origin: () => proxy.url,
    w: () => w,
    page,
    wallet,
    clock,
    go: async (path, h1) => {
      await page().goto(`${proxy.url}/dashboard/${path}`);
      await page().getByRole('heading', { level: 1, name: h1 }).waitFor();
    },
    submit: async (o) => {
      const envelope = {
        ...anEnvelope({ createdAt: new Date(clock.nowMs() - 2000).toISOString(), ...o }),
        ...(o.forged ? { signature_b64: `${'A'.repeat(86)}==` } : {}),
      };
      const res = await fetch(`${registry.url}/v1/proofs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'x-wallet-address': wallet.address, 'content-type': 'application/json' },
        body: JSON.stringify({ envelope }),
      });
      await res.arrayBuffer();
      return res.status;
    },
    token: () => registry.signIn(wallet),
    check: (t, shot) => checkPage(t, w, named(shot)),
    shootBoth: async (shot, o = { whole: true }) => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      const size = page().viewportSize()!;
      for (const [suffix, width, height] of [
        ['', 1280, 860],
        ['-phone', 390, 844],
      ] as const) {
        await page().setViewportSize({ width, height });
        await page().evaluate(() => window.scrollTo(0, 0));
        // The whole page as one tall viewport, not a full-page capture: the sticky sidebar stays where it belongs.
        if (o.whole) await page().setViewportSize({ width, height: Math.max(height, await page().evaluate(() => document.documentElement.scrollHeight)) });
        await page().screenshot({ path: path.join(SCREENSHOTS, `${named(shot)}${suffix}.png`) });
      }
      await page().setViewportSize(size);
    },
  };
}
