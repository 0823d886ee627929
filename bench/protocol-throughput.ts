import { pathToFileURL } from 'node:url';
import { createProofProtocol } from '../src/index.js';
import { twoKilobyteEvents } from '../test/support/mothers.js';

/** Library throughput on one core: sign and verify of a ~2 KB telemetry proof, per Ed25519 adapter. */
export async function benchProtocolThroughput(): Promise<Array<{ adapter: string; signPerSec: number; verifyPerSec: number; bytes: number }>> {
  const out = [];
  for (const adapter of ['sodium', 'node', 'tweetnacl'] as const) {
    const protocol = await createProofProtocol({ ed25519: adapter });
    const seed = Uint8Array.from({ length: 32 }, (_, i) => i);
    const inputs = Array.from({ length: 64 }, (_, i) => ({
      taskId: `t${i}`,
      robotId: 'arm-1',
      events: twoKilobyteEvents(undefined, i),
      createdAt: '2026-11-20T10:00:00Z',
    }));
    const envelopes = inputs.map((input) => protocol.create(input, seed));
    const rate = (fn: (i: number) => void, seconds: number) => {
      for (let i = 0; i < 200; i++) fn(i); // warm up
      let n = 0;
      const start = performance.now();
      while (performance.now() - start < seconds * 1000) fn(n++);
      return (n * 1000) / (performance.now() - start);
    };
    const signPerSec = rate((i) => protocol.create(inputs[i % inputs.length]!, seed), 2);
    const verifyPerSec = rate((i) => {
      if (!protocol.verify(envelopes[i % envelopes.length]).valid) throw new Error('invalid');
    }, 2);
    out.push({ adapter, signPerSec, verifyPerSec, bytes: JSON.stringify(envelopes[0]).length });
  }
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const r of await benchProtocolThroughput()) {
    console.log(`${r.adapter}: sign ${Math.round(r.signPerSec)}/s, verify ${Math.round(r.verifyPerSec)}/s (envelope ${r.bytes} bytes)`);
  }
}
