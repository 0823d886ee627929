import test from 'ava';
import type { Page } from 'playwright-core';
import { launchChromium, openPage, type LaunchedBrowser, type Watched } from '../support/browser.js';
import { startDashboardRegistry, type DashboardRegistry } from '../support/dashboard-registry.js';
import { aWallet, ManualClock, type TestWallet } from '../support/identity.js';

/** Where the operator flow's database lives, and how it is dropped after. */
export interface FlowDatabase {
  url(): Promise<string>;
  drop?(): Promise<void>;
}

/**
 * What the operator flow's tests share: the registry and the browser page (both started in
 * test.before), the wallet signed in with, the service's clock, and the API key the first test
 * creates and the last deletes.
 */
export interface Flow {
  registry: DashboardRegistry;
  w: Watched;
  key: string;
  readonly wallet: TestWallet;
  readonly clock: ManualClock;
  /** A screenshot's name: the SQLite run's plain, the others' suffixed with their label. */
  shot: (name: string) => string;
  /** `m` minutes before the flow started, as an envelope's created_at. */
  minutesAgo: (m: number) => string;
  page: () => Page;
  /** Opens a dashboard path and waits for its heading. */
  go: (path: string, h1: string) => Promise<void>;
  /** Calls the API with the key the first test created. */
  withKey: (method: string, path: string, body?: unknown) => Promise<Response>;
}

/** Starts the registry on `database` and a browser before the flow's tests, and stops both after. */
export function operatorFlowHarness(label: string, database: FlowDatabase): Flow {
  let chrome: LaunchedBrowser;
  const now = Date.now();
  const flow: Flow = {
    registry: undefined as unknown as DashboardRegistry,
    w: undefined as unknown as Watched,
    key: '',
    wallet: aWallet(7),
    // The service's clock starts two hours back, so health reports can be spread over time.
    clock: new ManualClock(now - 2 * 3600_000),
    shot: (name) => `${name}${label === 'sqlite' ? '' : `-${label}`}`,
    minutesAgo: (m) => new Date(now - m * 60_000).toISOString().replace(/\.\d+Z$/, 'Z'),
    page: () => flow.w.page,
    go: async (path, h1) => {
      await flow.page().goto(`${flow.registry.url}/dashboard/${path}`);
      await flow.page().getByRole('heading', { level: 1, name: h1 }).waitFor();
    },
    withKey: (method, path, body) =>
      fetch(flow.registry.url + path, {
        method,
        headers: {
          authorization: `Bearer ${flow.key}`,
          'x-wallet-address': flow.wallet.address,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      }),
  };

  test.before(async () => {
    [flow.registry, chrome] = await Promise.all([
      startDashboardRegistry({ databaseUrl: await database.url(), clock: flow.clock, env: { JWT_TTL_S: '86400' } }),
      launchChromium(),
    ]);
    await flow.registry.fund(flow.wallet.address, '50000');
    flow.w = await openPage(chrome.browser, flow.registry.url, { wallet: flow.wallet, walletName: 'Test Wallet' });
  });
  test.after.always(async () => {
    await flow.w?.close();
    await chrome?.close();
    await flow.registry?.close();
    await database.drop?.();
  });
  return flow;
}
