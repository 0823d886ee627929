import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface ChildServer {
  readonly url: string;
  readonly info: Record<string, unknown>;
  stop(): Promise<void>;
}

/**
 * Runs a server script in its own process (through tsx), so the load generator and the server
 * do not share an event loop. The script prints one JSON line with at least `url` when ready.
 * BENCH_NODE_ARGS adds Node flags to the server, e.g. `--cpu-prof --cpu-prof-dir=prof`.
 */
export async function startChildServer(script: string, env: Record<string, string> = {}): Promise<ChildServer> {
  const path = fileURLToPath(new URL(script, import.meta.url));
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', (l) => resolve(l));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
  });
  const info = JSON.parse(line) as Record<string, unknown> & { url: string };
  return {
    url: info.url,
    info,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
