import { request } from 'node:http';
import { createInterface } from 'node:readline';

/**
 * The probes of an attack, in a process of their own: one GET of `/health` and one of the
 * victim's proof from 127.0.0.2 every 50 ms, until stdin closes; then one JSON line with the
 * latencies. Apart from the attacking script, so that work the attacker does on its own event
 * loop (making requests, reading answers) never holds a probe's answer back: what they measure
 * is the server, as another client on the same machine sees it.
 * Input (environment): PROBE_URL, PROBE_PROOF_ID, PROBE_KEY, PROBE_WALLET.
 */
export interface ProbeResults {
  readonly health: number[];
  readonly reads: number[];
  readonly failed: number;
}

/** One GET from 127.0.0.2 on a fresh connection: its latency in ms, or null when it failed. */
function probe(url: string, path: string, headers: Record<string, string>, timeoutMs = 5_000): Promise<number | null> {
  const { hostname, port } = new URL(url);
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request({ host: hostname, port: Number(port), path, headers, localAddress: '127.0.0.2', agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200 ? performance.now() - started : null));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
    req.end();
  });
}

const env = (name: string) => process.env[name] ?? '';
const url = env('PROBE_URL');
const victimHeaders = { authorization: `Bearer ${env('PROBE_KEY')}`, 'x-wallet-address': env('PROBE_WALLET') };
const results: ProbeResults = { health: [], reads: [], failed: 0 };
let running = true;
createInterface({ input: process.stdin }).on('close', () => {
  running = false;
});
console.log('ready');
while (running) {
  const [h, r] = await Promise.all([probe(url, '/health', {}), probe(url, `/v1/proofs/${env('PROBE_PROOF_ID')}`, victimHeaders)]);
  if (h === null) (results as { failed: number }).failed++;
  else results.health.push(h);
  if (r === null) (results as { failed: number }).failed++;
  else results.reads.push(r);
  await new Promise((resolve) => setTimeout(resolve, 50));
}
console.log(JSON.stringify(results));
