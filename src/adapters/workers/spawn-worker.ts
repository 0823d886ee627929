import { Worker } from 'node:worker_threads';

/**
 * The worker script next to the calling module: `name.ts` when the caller runs from source
 * (tsx), `name.js` when it runs from the compiled dist/.
 */
export function siblingScript(callerUrl: string, name: string): URL {
  return new URL(`./${name}${callerUrl.endsWith('.ts') ? '.ts' : '.js'}`, callerUrl);
}

export interface SpawnWorkerOptions {
  /**
   * How far below the spawning thread's priority the worker runs (niceness added, Linux; see
   * thread-priority.ts). It lowers itself before its script loads. Default 0: unchanged.
   */
  readonly niceIncrement?: number;
}

/**
 * Starts a worker on `script`. A compiled .js script with nothing to do first starts directly.
 * Otherwise a short bootstrap runs first and then imports the script:
 *
 * - a .ts script needs tsx's loader inside the worker, and on Node 20 a worker does not get
 *   the loader hooks that `--import tsx` installed on the main thread (it fails with
 *   ERR_UNKNOWN_FILE_EXTENSION, with or without `execArgv`), so the bootstrap registers tsx
 *   (a runtime dependency, so this works wherever the source runs);
 * - with a `niceIncrement`, the bootstrap lowers the new thread's priority.
 */
export function spawnWorker(script: URL, workerData: unknown, options: SpawnWorkerOptions = {}): Worker {
  const niceIncrement = options.niceIncrement ?? 0;
  if (!Number.isInteger(niceIncrement) || niceIncrement < 0) throw new RangeError(`niceIncrement is an integer ≥ 0 (got ${niceIncrement})`);
  const fromSource = script.pathname.endsWith('.ts');
  if (!fromSource && niceIncrement === 0) return new Worker(script, { workerData });
  let bootstrap = 'Promise.resolve()';
  if (fromSource) bootstrap += `.then(() => import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})).then((tsx) => { tsx.register(); })`;
  if (niceIncrement > 0) {
    const priority = siblingScript(import.meta.url, 'thread-priority').href;
    bootstrap += `.then(() => import(${JSON.stringify(priority)})).then((p) => { p.lowerCurrentThreadPriority(${niceIncrement}); })`;
  }
  bootstrap += `.then(() => import(${JSON.stringify(script.href)}));`;
  return new Worker(bootstrap, { eval: true, workerData });
}
