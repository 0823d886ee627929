import type { ExecutionContext } from 'ava';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { CliError } from '../../../src/adapters/cli/command.js';
import { createEventsCommand, type TailDeps } from '../../../src/adapters/cli/events.js';
import { WALLET_A } from '../../support/mothers.js';

// What the `events` command tests share: events as the service sends them, `events tail` run in-process,
// and a scripted server for it to follow.
export const PROOF = '762172e1996241d45ee16ae9582317e61596752e21c7578c21994ec1f3f56515';
export const event = (n: number, type: string, data: object) => ({
  id: `evt_${String(n).padStart(16, '0')}`,
  type,
  timestamp: '2026-12-05T10:00:00.000Z',
  wallet: WALLET_A,
  data,
});
export const accepted = (n: number) => event(n, 'proof.accepted', { proof_id: PROOF, log_index: n, task_id: `pick-${n}`, robot_id: 'arm-07', run_id: null });

/** What the command wrote so far, and a wait until it holds something (checked on each write, no polling). */
export class Sink {
  text = '';
  private readonly waiting = new Set<() => void>();
  write = (text: string): boolean => {
    this.text += text;
    for (const check of [...this.waiting]) check();
    return true;
  };
  until = (ok: (text: string) => boolean): Promise<void> =>
    new Promise((resolve) => {
      const check = () => ok(this.text) && (this.waiting.delete(check), resolve());
      this.waiting.add(check);
      check();
    });
}

/** `events tail` in-process: its output, its waits (held until `release` when gated), a SIGINT, and its exit code. */
export function startTail(args: string[], env: Record<string, string>, o: { gated?: boolean; idleMs?: number } = {}) {
  const [out, err, waits] = [new Sink(), new Sink(), [] as number[]];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let interrupt = () => {};
  const deps: TailDeps = {
    wait: (ms, signal) => {
      waits.push(ms);
      return o.gated ? Promise.race([gate, once(signal, 'abort').then(() => undefined)]) : Promise.resolve();
    },
    onInterrupt: (stop) => ((interrupt = stop), () => (interrupt = () => {})),
    idleMs: o.idleMs ?? 60_000,
    random: () => 0,
  };
  const done = createEventsCommand(env, deps)
    .run(['tail', ...args], { stdout: out, stderr: err, stdin: Readable.from([]), cwd: process.cwd() })
    .catch((error: unknown) => (error instanceof CliError ? (err.write(error.message), error.exitCode) : Promise.reject(error)));
  const until = (sink: Sink, ok: (text: string) => boolean) =>
    Promise.race([sink.until(ok), done.then((code) => Promise.reject(new Error(`exited ${code}: ${err.text}`)))]);
  return { out, err, waits, done, release, interrupt: () => interrupt(), until };
}

/** A server the test scripts: request n is answered by script[n] (the last entry answers any later one). */
export async function stub(t: ExecutionContext, script: Array<(res: ServerResponse) => void>) {
  const seen: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    seen.push(req);
    script[Math.min(seen.length, script.length) - 1]!(res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => (server.closeAllConnections(), server.close()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}
