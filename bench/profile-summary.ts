import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Sums V8 CPU profiles (`--cpu-prof`, one `.cpuprofile` per thread) by function and by file
 * or package, so that two profiles can be compared part by part:
 *
 *   npx tsx bench/profile-summary.ts prof/0-a [TOP=40] [REQUESTS=n]
 *
 * A profile's time is each sample's interval charged to the function on top of the stack
 * (its self time). `(idle)` is time the thread waited for work and is left out of the shares.
 * With REQUESTS (the requests the server answered while profiled), each part is also given in
 * µs of that thread's time per request. SKIP_S=s leaves out each profile's first s seconds. Each profile file is one thread: the event loop's is
 * the one whose time goes to `node:http` and Koa, the workers' to the checks or the writer.
 */
interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
  readonly startTime: number;
}

const TOP = Number(process.env.TOP ?? 30);
const REQUESTS = process.env.REQUESTS ? Number(process.env.REQUESTS) : null;
/** Seconds left out at the start of each profile: the thread's start-up (module loading under tsx) is not the request path. */
const SKIP_S = Number(process.env.SKIP_S ?? 0);

function profiles(path: string): string[] {
  if (statSync(path).isFile()) return [path];
  return readdirSync(path)
    .flatMap((name) => profiles(join(path, name)))
    .filter((p) => p.endsWith('.cpuprofile'));
}

/** Where a function's code comes from: an npm package, a file of this repository, Node's own code, or V8's pseudo-frames. */
function origin(url: string, name: string): string {
  if (url === '') return name.startsWith('(') ? name : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return `npm:${pkg[1]}`;
  if (url.startsWith('node:'))
    return url
      .replace(/^node:internal\/(deps\/)?/, 'node:')
      .split('/')
      .slice(0, 2)
      .join('/');
  const repo = /\/(src|bench|test)\/(.*)$/.exec(url);
  return repo ? `${repo[1]}/${repo[2]}` : url;
}

function summarize(file: string): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at - profile.startTime >= SKIP_S * 1e6) selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const byFunction = new Map<string, number>();
  const byOrigin = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') {
      idle += us;
      continue;
    }
    busy += us;
    const where = origin(url, functionName);
    const fn = `${functionName || '(anonymous)'} ${where}${url ? `:${lineNumber + 1}` : ''}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    byOrigin.set(where, (byOrigin.get(where) ?? 0) + us);
  }
  const line = (name: string, us: number) =>
    `  ${((100 * us) / busy).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms${REQUESTS ? `  ${(us / REQUESTS).toFixed(1).padStart(6)} µs/req` : ''}  ${name}`;
  console.log(
    `\n${relative(process.cwd(), file)}: ${(busy / 1000).toFixed(0)} ms busy, ${(idle / 1000).toFixed(0)} ms idle${REQUESTS ? `, ${(busy / REQUESTS).toFixed(1)} µs/req busy` : ''}`,
  );
  console.log(' by file or package:');
  for (const [name, us] of [...byOrigin].sort((x, y) => y[1] - x[1]).slice(0, TOP)) console.log(line(name, us));
  console.log(' by function:');
  for (const [name, us] of [...byFunction].sort((x, y) => y[1] - x[1]).slice(0, TOP)) console.log(line(name, us));
}

const paths = process.argv.slice(2);
if (paths.length === 0) throw new Error('usage: npx tsx bench/profile-summary.ts <profile or directory>…');
for (const path of paths) for (const file of profiles(path)) summarize(file);
