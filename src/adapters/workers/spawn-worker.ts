import { Worker } from 'node:worker_threads';

/**
 * The worker script next to the calling module: `name.ts` when the caller runs from source
 * (tsx), `name.js` when it runs from the compiled dist/.
 */
export function siblingScript(callerUrl: string, name: string): URL {
  return new URL(`./${name}${callerUrl.endsWith('.ts') ? '.ts' : '.js'}`, callerUrl);
}

/**
 * Starts a worker on `script`. A compiled .js script starts directly. A .ts script needs
 * tsx's loader inside the worker, and on Node 20 a worker does not get the loader hooks that
 * `--import tsx` installed on the main thread (it fails with ERR_UNKNOWN_FILE_EXTENSION, with
 * or without `execArgv`), so a two-line bootstrap registers tsx in the worker first and then
 * imports the script. tsx is a runtime dependency, so this works wherever the source runs.
 */
export function spawnWorker(script: URL, workerData: unknown): Worker {
  if (!script.pathname.endsWith('.ts')) return new Worker(script, { workerData });
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const bootstrap =
    `import(${JSON.stringify(tsxApi)})` +
    `.then((tsx) => { tsx.register(); return import(${JSON.stringify(script.href)}); });`;
  return new Worker(bootstrap, { eval: true, workerData });
}
