/**
 * Builds the dashboard into dashboard/dist (index.html and content-hashed assets/) with
 * esbuild, and skips the work when nothing it is built from has changed: `npm start` and
 * `npm test` run it first (prestart, pretest), so the README's two commands still do everything.
 *
 *   tsx dashboard/build.ts            build
 *   tsx dashboard/build.ts --if-stale build only when a source or the lock file changed
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));
export const DIST = path.join(root, 'dist');
const SRC = path.join(root, 'src');
const STAMP = path.join(DIST, '.source-hash');

/** What a build depends on: the page's sources, this script, and the locked dependency versions. */
async function sourceHash(): Promise<string> {
  const hash = createHash('sha256');
  const files: string[] = [];
  const walk = async (dir: string) => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else files.push(p);
    }
  };
  await walk(SRC);
  files.push(fileURLToPath(import.meta.url), path.join(root, '..', 'package-lock.json'));
  for (const f of files.sort())
    hash
      .update(path.relative(root, f))
      .update('\0')
      .update(await readFile(f).catch(() => Buffer.alloc(0)))
      .update('\0');
  return hash.digest('hex');
}

export interface BuildResult {
  readonly built: boolean;
  /** Files the page needs before it can show anything (index.html, CSS, the entry and its static imports). */
  readonly initial: readonly string[];
}

export async function buildDashboard(o: { ifStale?: boolean } = {}): Promise<BuildResult> {
  const hash = await sourceHash();
  if (o.ifStale && existsSync(STAMP) && (await readFile(STAMP, 'utf8')) === hash) {
    return { built: false, initial: JSON.parse(await readFile(path.join(DIST, 'manifest.json'), 'utf8')).initial as string[] };
  }
  const esbuild = await import('esbuild');
  await rm(DIST, { recursive: true, force: true });
  await mkdir(path.join(DIST, 'assets'), { recursive: true });
  const result = await esbuild.build({
    entryPoints: { app: path.join(SRC, 'main.tsx'), styles: path.join(SRC, 'styles.css') },
    outdir: path.join(DIST, 'assets'),
    bundle: true,
    splitting: true,
    format: 'esm',
    target: ['es2022', 'chrome110', 'firefox115', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    legalComments: 'none',
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = result.metafile.outputs;
  const name = (p: string) => path.basename(p);
  const entry = (id: string) => Object.keys(outputs).find((o) => outputs[o]!.entryPoint?.endsWith(id));
  const js = entry('main.tsx');
  const css = Object.keys(outputs).find((o) => o.endsWith('.css') && name(o).startsWith('styles-'));
  if (!js || !css) throw new Error('esbuild produced no entry script or stylesheet');
  // The entry and what it imports statically; dynamic imports (charts) load later, on demand.
  const initial = new Set<string>([js]);
  for (const file of initial) for (const i of outputs[file]!.imports) if (i.kind === 'import-statement') initial.add(i.path);
  const html = (await readFile(path.join(SRC, 'index.html'), 'utf8')).replace('%CSS%', name(css)).replace('%JS%', name(js));
  await writeFile(path.join(DIST, 'index.html'), html);
  const list = ['index.html', ...[css, ...initial].map((f) => `assets/${name(f)}`)];
  await writeFile(path.join(DIST, 'manifest.json'), JSON.stringify({ initial: list }, null, 2));
  await writeFile(STAMP, hash);
  return { built: true, initial: list };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const result = await buildDashboard({ ifStale: process.argv.includes('--if-stale') });
  console.log(result.built ? `dashboard built in ${Date.now() - started} ms (dashboard/dist)` : 'dashboard is up to date (dashboard/dist)');
}
