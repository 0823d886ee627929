import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import test from 'ava';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { DASHBOARD_CSP, dashboardMiddleware, loadDashboardAssets } from '../../../src/adapters/http/dashboard-assets.js';

// The page and its assets, served from a fixed list read into memory at start-up.
const dir = mkdtempSync(path.join(tmpdir(), 'dashboard-dist-'));
mkdirSync(path.join(dir, 'assets'));
writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>t</title>' + ' '.repeat(600));
writeFileSync(path.join(dir, 'assets', 'app-ABC123.js'), 'console.log("app");' + '/* pad */'.repeat(200));
writeFileSync(path.join(dir, 'assets', 'styles-DEF456.css'), 'body{}');
writeFileSync(path.join(dir, 'assets', 'notes.txt'), 'not served: no known type');
writeFileSync(path.join(dir, 'secret.json'), '{"not":"served"}');

async function serve(from: string) {
  const app = new Koa();
  app.use(dashboardMiddleware(await loadDashboardAssets(from)));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(r)) };
}

let site: Awaited<ReturnType<typeof serve>>;
test.before(async () => {
  site = await serve(dir);
});
test.after.always(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the page carries its security headers and is revalidated on every load', async (t) => {
  for (const p of ['/dashboard/', '/dashboard/keys', '/dashboard/fleet/devices/arm-1', '/dashboard/proofs?task_id=x']) {
    const res = await fetch(site.url + p);
    t.is(res.status, 200, p);
    t.is(res.headers.get('content-security-policy'), DASHBOARD_CSP);
    t.is(res.headers.get('x-content-type-options'), 'nosniff');
    t.is(res.headers.get('referrer-policy'), 'no-referrer');
    t.is(res.headers.get('cache-control'), 'no-cache');
    t.regex(res.headers.get('content-type') ?? '', /^text\/html/);
  }
  t.false(DASHBOARD_CSP.includes('unsafe'));
});

test('/docs leads to the API reference, a view of the same page under the same policy', async (t) => {
  const res = await fetch(`${site.url}/docs`, { redirect: 'manual' });
  t.is(res.status, 302);
  t.is(res.headers.get('location'), '/dashboard/docs');
  const page = await fetch(`${site.url}/dashboard/docs?doc=acto`);
  t.is(page.status, 200);
  t.is(page.headers.get('content-security-policy'), DASHBOARD_CSP);
  t.is((await fetch(`${site.url}/docs/more`, { redirect: 'manual' })).status, 404, 'only /docs itself');
});

test('content-hashed assets are cached for good, gzipped when asked, and answer 304 to their ETag', async (t) => {
  const res = await fetch(`${site.url}/dashboard/assets/app-ABC123.js`, { headers: { 'accept-encoding': 'gzip' } });
  t.is(res.status, 200);
  t.is(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  t.regex(res.headers.get('content-type') ?? '', /^text\/javascript/);
  const etag = res.headers.get('etag')!;
  const again = await fetch(`${site.url}/dashboard/assets/app-ABC123.js`, { headers: { 'if-none-match': etag } });
  t.is(again.status, 304);
  // Node's fetch inflates for us; ask the raw way to see the encoding.
  const raw = await new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
    import('node:http').then(({ get }) =>
      get(`${site.url}/dashboard/assets/app-ABC123.js`, { headers: { 'accept-encoding': 'gzip' } }, (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => resolve({ encoding: r.headers['content-encoding'], body: Buffer.concat(chunks) }));
      }).on('error', reject),
    );
  });
  t.is(raw.encoding, 'gzip');
  t.true(gunzipSync(raw.body).toString().startsWith('console.log("app");'));
});

test('only listed files are served: unknown names, other types and paths out of the folder are 404', async (t) => {
  for (const p of [
    '/dashboard/assets/nope.js',
    '/dashboard/assets/notes.txt',
    '/dashboard/assets/../secret.json',
    '/dashboard/assets/%2e%2e/secret.json',
    '/dashboard/assets/..%2fsecret.json',
  ]) {
    const res = await fetch(site.url + p);
    t.true(res.status === 404 || (res.status === 200 && (await res.text()).startsWith('<!doctype html>')), `${p}: ${res.status}`);
  }
  const secret = await fetch(`${site.url}/dashboard/assets/..%2fsecret.json`);
  t.false((await secret.text()).includes('not'));
});

test('a service whose dashboard is not built says how to build it', async (t) => {
  const empty = mkdtempSync(path.join(tmpdir(), 'dashboard-none-'));
  const bare = await serve(empty);
  try {
    const res = await fetch(`${bare.url}/dashboard/`);
    t.is(res.status, 503);
    t.regex(await res.text(), /npm run build:dashboard/);
  } finally {
    await bare.close();
    rmSync(empty, { recursive: true, force: true });
  }
});
