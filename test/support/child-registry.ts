import type { ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./log-registry-child.ts', import.meta.url));

export interface ChildRegistry {
  readonly url: string;
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A registry in its own process on `env` (DATABASE_URL, DATA_DIR, …), with the test credential,
 * checkpointing every 50 ms unless `env` says otherwise; killed when the test ends.
 */
export async function childRegistry(t: ExecutionContext, env: Record<string, string>): Promise<ChildRegistry> {
  const proc = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    env: { ...process.env, LOG_CHECKPOINT_INTERVAL_MS: '50', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  t.teardown(async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    await exited;
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once('line', resolve);
    proc.once('exit', (code) => reject(new Error(`the registry exited with ${code} before it listened`)));
  });
  return {
    url: (JSON.parse(line) as { url: string }).url,
    kill9: async () => {
      proc.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      proc.kill('SIGTERM');
      await exited;
    },
  };
}
