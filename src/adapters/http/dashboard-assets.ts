import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type Koa from 'koa';

/**
 * The dashboard's page policy. Scripts, styles and requests only from this origin; images from
 * it or data: URLs (wallet icons); no plugins, no framing, no <base>. No 'unsafe-inline' nor
 * 'unsafe-eval': API data the page shows (device names, envelopes) can never run as code.
 */
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

const SECURITY_HEADERS = {
  'Content-Security-Policy': DASHBOARD_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

interface Asset {
  readonly body: Buffer;
  readonly gzip: Buffer | null;
  readonly type: string;
  readonly etag: string;
}

export interface DashboardAssets {
  /** index.html, or null when the dashboard has not been built. */
  readonly index: Asset | null;
  /** Content-hashed files by name (`app-3f2a….js`). */
  readonly files: ReadonlyMap<string, Asset>;
}

function asset(body: Buffer, type: string): Asset {
  const compressible = !type.startsWith('image/png');
  const gzip = compressible && body.length > 512 ? gzipSync(body, { level: 9 }) : null;
  return { body, gzip, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
}

/** The built page: dashboard/dist at the package root (found from this file, under src/ or dist/src/). */
export function defaultDashboardDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.join(dir, 'dashboard', 'dist');
}

/**
 * Reads the built dashboard (dashboard/dist: index.html and assets/) into memory once, at
 * start-up. Requests are then answered from this fixed list: no part of a URL ever reaches
 * the file system.
 */
export async function loadDashboardAssets(dir: string): Promise<DashboardAssets> {
  let index: Asset | null = null;
  try {
    index = asset(await readFile(path.join(dir, 'index.html')), TYPES['.html']!);
  } catch {
    return { index: null, files: new Map() };
  }
  const files = new Map<string, Asset>();
  for (const name of await readdir(path.join(dir, 'assets')).catch(() => [] as string[])) {
    const type = TYPES[path.extname(name)];
    if (type === undefined) continue;
    files.set(name, asset(await readFile(path.join(dir, 'assets', name)), type));
  }
  return { index, files };
}

/** Where the page lives; every path below it that is not an asset is the page (client-side views). */
export const DASHBOARD_PATH = '/dashboard/';
const ASSETS_PATH = '/dashboard/assets/';
/** The API reference, a view of the page that needs no sign-in. */
const DOCS_PATH = '/docs';

/**
 * Serves the dashboard: `/` and `/dashboard` redirect to `/dashboard/`, `/docs` to the API
 * reference at `/dashboard/docs`; the page (no-cache,
 * so a new build is picked up at once) at every view's URL; content-hashed assets cached for
 * a year. Runs after the API router, so it only sees what no route took.
 */
export function dashboardMiddleware(assets: DashboardAssets): Koa.Middleware {
  return async (ctx, next) => {
    // A CONNECT to an authority (`example.com:443`) has no path at all.
    const p: unknown = ctx.path;
    const mine = typeof p === 'string' && (p === '/' || p === '/dashboard' || p === DOCS_PATH || p.startsWith(DASHBOARD_PATH));
    if (!mine) return next();
    const urlPath = p as string;
    ctx.state.route = urlPath.startsWith(ASSETS_PATH) ? `${ASSETS_PATH}{file}` : urlPath === '/' || urlPath === DOCS_PATH ? urlPath : DASHBOARD_PATH;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      ctx.status = 405;
      ctx.body = { detail: `${ctx.method} is not allowed on ${urlPath} (allowed: GET, HEAD)`, code: 'method_not_allowed' };
      return;
    }
    if (urlPath === '/' || urlPath === '/dashboard') {
      ctx.status = 302;
      ctx.redirect(DASHBOARD_PATH);
      return;
    }
    if (urlPath === DOCS_PATH) {
      ctx.status = 302;
      ctx.redirect(`${DASHBOARD_PATH}docs`);
      return;
    }
    ctx.set(SECURITY_HEADERS);
    if (urlPath.startsWith(ASSETS_PATH)) {
      const file = assets.files.get(urlPath.slice(ASSETS_PATH.length));
      if (file === undefined) return next();
      send(ctx, file, 'public, max-age=31536000, immutable');
      return;
    }
    if (assets.index === null) {
      ctx.status = 503;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'The dashboard has not been built. Run `npm run build:dashboard` (npm start does it for you), then restart the service.\n';
      return;
    }
    send(ctx, assets.index, 'no-cache');
  };
}

function send(ctx: Koa.Context, file: Asset, cacheControl: string): void {
  ctx.set('Cache-Control', cacheControl);
  ctx.set('ETag', file.etag);
  ctx.vary('Accept-Encoding');
  ctx.type = file.type;
  if (ctx.get('if-none-match') === file.etag) {
    ctx.status = 304;
    return;
  }
  ctx.status = 200;
  if (file.gzip && ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
    ctx.set('Content-Encoding', 'gzip');
    ctx.body = file.gzip;
  } else ctx.body = file.body;
}
