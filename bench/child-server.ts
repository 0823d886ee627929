import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** How long a server may take to stop once asked before it is killed. */
const STOP_GRACE_MS = 60_000;

export interface ChildServer {
  readonly url: string;
  readonly info: Record<string, unknown>;
  /** The server's process id, e.g. to read its threads' CPU times from /proc. */
  readonly pid: number | undefined;
  /** CPU seconds the server process has used so far, all its threads (Linux: /proc); null elsewhere. */
  cpuSeconds(): number | null;
  stop(): Promise<void>;
}

/**
 * Runs a server script in its own process (through tsx), so the load generator and the server
 * do not share an event loop. The script prints one JSON line with at least `url` when ready.
 * BENCH_NODE_ARGS adds Node flags to the server, e.g. `--cpu-prof --cpu-prof-dir=prof`.
 * `script` is relative to this directory, or absolute (with `cwd`, a server from another checkout).
 */
export async function startChildServer(script: string, env: Record<string, string> = {}, cwd?: string): Promise<ChildServer> {
  const path = fileURLToPath(new URL(script, import.meta.url));
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path], {
    cwd,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // The server's own log lines (a warning at start-up, say) may come first: the ready line is
  // the one with `url`. Every other line, before it or after, goes to stderr: a server's
  // warnings during a run explain its figures.
  const info = await new Promise<Record<string, unknown> & { url: string }>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    let ready = false;
    rl.on('line', (l) => {
      const parsed = ready ? null : parsedLine(l);
      if (typeof parsed?.url === 'string') {
        ready = true;
        resolve(parsed as Record<string, unknown> & { url: string });
      } else process.stderr.write(`${l}\n`);
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
  });
  return {
    url: info.url,
    info,
    pid: child.pid,
    cpuSeconds: () => processCpuSeconds(child.pid),
    stop: () =>
      new Promise<void>((resolve) => {
        // Exited, or ended by a signal (then exitCode stays null).
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        // A server that cannot finish its work (a hung database call) must not hang the bench.
        const kill = setTimeout(() => {
          console.warn(`warning: ${script} did not stop within ${STOP_GRACE_MS / 1000} s of SIGTERM; killed`);
          child.kill('SIGKILL');
        }, STOP_GRACE_MS);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

function parsedLine(line: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** utime + stime of a process, all threads, from /proc/<pid>/stat; null where there is no /proc. */
export function processCpuSeconds(pid: number | undefined): number | null {
  return pid === undefined ? null : statCpuSeconds(`/proc/${pid}/stat`);
}

/** utime + stime of one thread of a process, by default its main thread (the event loop, whose id is the process's); null where there is no /proc. */
export function threadCpuSeconds(pid: number | undefined, tid = pid): number | null {
  return pid === undefined ? null : statCpuSeconds(`/proc/${pid}/task/${tid}/stat`);
}

function statCpuSeconds(path: string): number | null {
  try {
    // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
    const stat = readFileSync(path, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** The unit of /proc's CPU times (USER_HZ), as `getconf CLK_TCK` reports it; 100 where it cannot. */
const CLOCK_TICKS = (() => {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return ticks > 0 ? ticks : 100;
  } catch {
    return 100;
  }
})();

/** Busy and total time of the whole machine so far, from the first line of /proc/stat; null elsewhere. */
export function machineTimes(): { busy: number; total: number } | null {
  try {
    const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
    // user nice system idle iowait irq softirq steal …: idle and iowait are the idle part.
    const ticks = values.slice(0, 8).map(Number);
    const total = ticks.reduce((sum, t) => sum + t, 0);
    return { busy: total - ticks[3]! - ticks[4]!, total };
  } catch {
    return null;
  }
}

/**
 * Waits until the machine is quiet (under `busyBelow` of all cores busy over half a second),
 * for at most `maxMs`, so that one run's aftermath (PostgreSQL's checkpoints and autovacuum
 * after a write load, a server still exiting) is not measured in the next. Answers whether
 * it got quiet.
 */
export async function settle(busyBelow = 0.15, maxMs = 30_000): Promise<boolean> {
  const deadline = Date.now() + maxMs;
  while (Date.now() < deadline) {
    const before = machineTimes();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = machineTimes();
    if (before === null || after === null) return true;
    if ((after.busy - before.busy) / Math.max(1, after.total - before.total) < busyBelow) return true;
  }
  return false;
}
