import { mkdirSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { axeViolations, launchChromium, openPage, SCREENSHOTS, SERIOUS, type LaunchedBrowser, type Watched } from '../support/browser.js';
import { startDashboardRegistry, type DashboardRegistry } from '../support/dashboard-registry.js';
import { aWallet } from '../support/identity.js';
import { anEnvelope } from '../support/mothers.js';

/**
 * Every page of the dashboard, signed out and signed in, at a desktop's width and a phone's
 * (390×844): no serious or critical axe-core violation, nothing wider than the screen, nothing
 * wrong in the console, no CSP violation, no request to another origin. A page added to the
 * dashboard is added to PAGES below, and is then checked like every other.
 */

/** Ids a device or a task may carry, as long as the protocol lets them be, with nowhere to break a line. */
export const LONG = {
  robot: 'north_aisle_picker_arm_with_a_very_long_device_identifier_0000000017',
  task: 'pick_order_20261205_batch_000000000000000000000000000000000000042',
  run: 'run_2026_12_05_shift_b_000000000000000000000000000000000000000007',
};

/** What the seeded wallet holds, for the pages' addresses. */
export interface Seeded {
  readonly keyId: string;
  readonly proofId: string;
  readonly longProofId: string;
  readonly endpointId: string;
  readonly deliveryId: string;
}

export interface PageSpec {
  /** Named in failure messages and screenshots. */
  readonly name: string;
  /** Whose page: nobody signed in, the wallet with content, or a wallet with nothing yet. */
  readonly as: 'signed-out' | 'seeded' | 'fresh';
  /** Below /dashboard/. */
  readonly path: (s: Seeded) => string;
  /** The page's h1, waited for; with `ready`, a text the page shows once its data is in. */
  readonly h1: string | RegExp;
  readonly ready?: string;
}

export const PAGES: readonly PageSpec[] = [
  { name: 'sign-in', as: 'signed-out', path: () => '', h1: 'Sign in with your wallet' },
  { name: 'sign-in-deep-link', as: 'signed-out', path: (s) => `proofs/${s.proofId}`, h1: 'Sign in with your wallet' },
  { name: 'not-found', as: 'seeded', path: () => 'no-such-page', h1: 'Page not found' },
  { name: 'overview', as: 'seeded', path: () => '', h1: 'Overview' },
  { name: 'activity', as: 'seeded', path: () => 'activity', h1: 'Activity' },
  { name: 'keys', as: 'seeded', path: () => 'keys', h1: 'API keys', ready: 'line robots' },
  { name: 'key-usage', as: 'seeded', path: (s) => `keys?key=${s.keyId}`, h1: 'API keys', ready: 'Requests and errors per day' },
  { name: 'fleet', as: 'seeded', path: () => 'fleet', h1: 'Fleet', ready: LONG.robot },
  { name: 'device', as: 'seeded', path: () => `fleet/devices/${LONG.robot}`, h1: LONG.robot },
  { name: 'webhooks', as: 'seeded', path: () => 'webhooks', h1: 'Webhooks' },
  { name: 'webhook-endpoint', as: 'seeded', path: (s) => `webhooks?endpoint=${s.endpointId}`, h1: 'Webhooks', ready: 'webhook.test' },
  { name: 'webhook-delivery', as: 'seeded', path: (s) => `webhooks?endpoint=${s.endpointId}&delivery=${s.deliveryId}`, h1: 'Webhooks', ready: 'Attempt' },
  { name: 'proofs', as: 'seeded', path: () => 'proofs', h1: 'Proofs', ready: LONG.task },
  { name: 'proof', as: 'seeded', path: (s) => `proofs/${s.proofId}`, h1: 'Proof of pick-1' },
  { name: 'proof-long-ids', as: 'seeded', path: (s) => `proofs/${s.longProofId}`, h1: `Proof of ${LONG.task}` },
  { name: 'verify', as: 'seeded', path: () => 'verify', h1: 'Verify envelopes' },
  { name: 'statistics', as: 'seeded', path: () => 'stats', h1: 'Statistics', ready: 'Proofs by robot' },
  { name: 'statistics-90d', as: 'seeded', path: () => 'stats?range=90d', h1: 'Statistics', ready: 'Proofs by task' },
  { name: 'api-reference', as: 'seeded', path: () => 'docs', h1: 'API reference', ready: '/v1/proofs' },
  { name: 'api-reference-acto', as: 'seeded', path: () => 'docs?doc=acto', h1: 'API reference', ready: '/acto/v1/fleet' },
  { name: 'api-reference-signed-out', as: 'signed-out', path: () => 'docs', h1: 'API reference', ready: '/v1/proofs' },
  { name: 'overview-empty', as: 'fresh', path: () => '', h1: 'Overview', ready: 'Send a first proof' },
  { name: 'keys-empty', as: 'fresh', path: () => 'keys', h1: 'API keys', ready: 'No API keys yet' },
  { name: 'fleet-empty', as: 'fresh', path: () => 'fleet', h1: 'Fleet', ready: 'No devices yet' },
  { name: 'proofs-empty', as: 'fresh', path: () => 'proofs', h1: 'Proofs', ready: 'No proofs yet' },
  { name: 'webhooks-empty', as: 'fresh', path: () => 'webhooks', h1: 'Webhooks', ready: 'No webhook endpoints yet' },
  { name: 'statistics-empty', as: 'fresh', path: () => 'stats', h1: 'Statistics', ready: 'Proofs by robot' },
];

export const WIDTHS = [
  { label: 'desktop', width: 1280, height: 860 },
  { label: 'phone', width: 390, height: 844 },
] as const;

export interface EveryPage {
  readonly label: string;
  readonly registry: () => DashboardRegistry;
  /** The page signed in (or not) as `as`. */
  readonly w: (as: PageSpec['as']) => Watched;
  readonly seeded: () => Seeded;
  readonly wallets: { readonly seeded: ReturnType<typeof aWallet>; readonly fresh: ReturnType<typeof aWallet> };
  /** Opens a page spec and waits for it to be ready. */
  open(spec: PageSpec): Promise<void>;
}

/**
 * One registry, seeded, with three tabs: signed out, signed in with content, signed in with a
 * fresh wallet. Registers the hooks and the tests of every page; returns what other scenarios on
 * the same registry need (first-steps.ts, keyboard.ts).
 */
export function everyPage(label: string, database: { url(): Promise<string>; drop?(): Promise<void> }): EveryPage {
  let registry: DashboardRegistry;
  let chrome: LaunchedBrowser;
  const tabs = {} as Record<PageSpec['as'], Watched>;
  let seeded: Seeded;
  const wallets = { seeded: aWallet(31), fresh: aWallet(32) };

  test.before(async () => {
    [registry, chrome] = await Promise.all([
      startDashboardRegistry({
        databaseUrl: await database.url(),
        env: { JWT_TTL_S: '86400', WEBHOOK_ALLOW_PRIVATE: '1', EVENT_POLL_MS: '50' },
      }),
      launchChromium(),
    ]);
    await registry.fund(wallets.seeded.address, '50000');
    await registry.fund(wallets.fresh.address, '50000');
    seeded = await seed(registry, wallets.seeded);
    tabs['signed-out'] = await openPage(chrome.browser, registry.url);
    for (const as of ['seeded', 'fresh'] as const) {
      const w = await openPage(chrome.browser, registry.url, { wallet: wallets[as], walletName: 'Test Wallet' });
      await w.page.goto(`${registry.url}/dashboard/`);
      await w.page.getByRole('button', { name: 'Test Wallet' }).click();
      await w.page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      tabs[as] = w;
    }
  });
  test.after.always(async () => {
    for (const w of Object.values(tabs)) await w.close();
    await chrome?.close();
    await registry?.close();
    await database.drop?.();
  });

  const open = async (spec: PageSpec) => {
    const page = tabs[spec.as].page;
    await page.goto(`${registry.url}/dashboard/${spec.path(seeded)}`);
    await page.getByRole('heading', { level: 1, name: spec.h1 }).waitFor();
    if (spec.ready) await page.getByText(spec.ready).first().waitFor();
    // Live pages keep a stream open, so the network never idles: the page is ready when nothing says it is loading.
    await page.waitForFunction(() => !document.querySelector('.loading, [aria-busy="true"]'));
  };

  for (const spec of PAGES) {
    test.serial(
      `${label}: ${spec.name} (${spec.as}) at a desktop's width and a phone's: no serious axe violation, nothing wider than the screen`,
      async (t) => {
        const w = tabs[spec.as];
        // Every width is measured before anything fails, so one run names every problem.
        const found: string[] = [];
        for (const size of WIDTHS) {
          await w.page.setViewportSize({ width: size.width, height: size.height });
          await open(spec);
          const where = `${spec.name} at ${size.width} px`;
          const wide = await w.page.evaluate(() => {
            // The element reaching furthest right past the screen, to name in a failure.
            let widest = '';
            let right = window.innerWidth;
            // (No named functions in here: tsx would wrap them in a helper the page lacks.)
            for (const el of Array.from(document.querySelectorAll('body *'))) {
              // What a box of its own scrolls or clips widens nothing.
              let inBox = false;
              for (let up = el.parentElement; up && up !== document.body && !inBox; up = up.parentElement)
                inBox = ['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(up).overflowX);
              if (inBox) continue;
              const r = el.getBoundingClientRect().right;
              if (r > right)
                [right, widest] = [
                  r,
                  `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ').join('.')}` : ''} to ${Math.round(r)} px`,
                ];
            }
            return { scroll: document.documentElement.scrollWidth, inner: window.innerWidth, widest };
          });
          if (wide.scroll > wide.inner) found.push(`${where}: the page scrolls sideways by ${wide.scroll - wide.inner} px (widest: ${wide.widest})`);
          for (const v of await axeViolations(w.page, { impacts: SERIOUS })) found.push(`${where}: axe-core: ${v}`);
          mkdirSync(SCREENSHOTS, { recursive: true });
          await w.page.screenshot({
            path: path.join(SCREENSHOTS, `every-${spec.name}-${size.label}${label === 'sqlite' ? '' : `-${label}`}.png`),
            fullPage: true,
          });
        }
        for (const p of w.problems.splice(0)) found.push(`${spec.name}: ${p}`);
        t.deepEqual(
          found,
          [],
          `${spec.name}: pages wider than the screen, serious or critical axe-core violations, console errors, CSP violations or requests to other origins`,
        );
        await w.page.setViewportSize({ width: 1280, height: 860 });
      },
    );
  }

  return { label, registry: () => registry, w: (as) => tabs[as], seeded: () => seeded, wallets, open };
}

async function seed(registry: DashboardRegistry, wallet: ReturnType<typeof aWallet>): Promise<Seeded> {
  const token = await registry.signIn(wallet);
  const as = { credential: token, wallet: wallet.address };
  const made = await registry.call('POST', '/v1/keys', { ...as, body: { name: 'line robots' } });
  if (made.status !== 201) throw new Error(`key: ${made.status} ${JSON.stringify(made.body)}`);
  const key = made.body.key as string;
  for (const id of ['arm-1', LONG.robot]) {
    const res = await registry.call('POST', `/v1/fleet/devices/${id}/health`, { ...as, body: { status: 'ok', cpu_percent: 30, message: `${id} ready` } });
    if (res.status !== 201) throw new Error(`health of ${id}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  const hook = await registry.call('POST', '/v1/webhooks', { ...as, body: { url: 'http://127.0.0.1:9/hook', description: 'nobody listens here' } });
  if (hook.status !== 201) throw new Error(`webhook: ${hook.status} ${JSON.stringify(hook.body)}`);
  const endpointId = hook.body.endpoint_id as string;
  const submit = async (o: Parameters<typeof anEnvelope>[0]) => {
    const res = await fetch(`${registry.url}/v1/proofs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'x-wallet-address': wallet.address, 'content-type': 'application/json' },
      body: JSON.stringify({ envelope: anEnvelope({ createdAt: new Date(Date.now() - 60_000).toISOString(), ...o }) }),
    });
    const body = (await res.json()) as { proof_id?: string };
    if (res.status !== 200 || !body.proof_id) throw new Error(`proof: ${res.status} ${JSON.stringify(body)}`);
    return body.proof_id;
  };
  const proofId = await submit({ taskId: 'pick-1', robotId: 'arm-1' });
  const longProofId = await submit({ taskId: LONG.task, robotId: LONG.robot, runId: LONG.run, seed: 3 });
  const sent = await registry.call('POST', `/v1/webhooks/${endpointId}/test`, as);
  if (sent.status >= 300) throw new Error(`test event: ${sent.status} ${JSON.stringify(sent.body)}`);
  // The delivery is made by the event job: waited for by asking, as the dashboard does.
  for (;;) {
    const log = await registry.call('GET', `/v1/webhooks/${endpointId}/deliveries`, as);
    const items = (log.body.items ?? []) as Array<{ delivery_id: string; attempts: number }>;
    const tried = items.find((d) => d.attempts > 0);
    if (tried) return { keyId: made.body.key_id as string, proofId, longProofId, endpointId, deliveryId: tried.delivery_id };
    await new Promise((r) => setTimeout(r, 50));
  }
}
