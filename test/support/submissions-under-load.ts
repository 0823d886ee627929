import type { ExecutionContext } from 'ava';
import type { ProofEnvelope } from '../../src/domain/protocol/envelope.js';
import { anEnvelope, WALLET_A } from './mothers.js';
import type { TestRegistry } from './registry.js';

export interface Acknowledged {
  readonly proofId: string;
  readonly envelope: ProofEnvelope;
}

/**
 * Clients submitting distinct proofs to `registry` back to back, each sending its next as its
 * last is answered, until `stop()`. `acknowledged` grows as answers arrive (status 200 only:
 * anything else fails the run), so a test can take a snapshot of it at any moment: every proof
 * in a snapshot was acknowledged before that moment.
 */
export function submitUnderLoad(registry: TestRegistry, clients: number, label: string) {
  const acknowledged: Acknowledged[] = [];
  let inFlight = 0;
  let stopping = false;
  /** Called on each acknowledgement, so `reach` waits without polling. */
  let onAck: () => void = () => undefined;
  let n = 0;
  const client = async () => {
    while (!stopping) {
      const envelope = anEnvelope({ taskId: `${label}-${n++}`, robotId: `r${n % 8}` });
      inFlight++;
      const reply = await registry.call(WALLET_A, 'POST', '/v1/proofs', { envelope }).finally(() => inFlight--);
      if (reply.status !== 200) throw new Error(`submission answered ${reply.status}: ${JSON.stringify(reply.body)}`);
      acknowledged.push({ proofId: reply.body.proof_id as string, envelope });
      onAck();
    }
  };
  const running = Promise.all(Array.from({ length: clients }, client));
  return {
    acknowledged,
    /** Requests sent and not yet answered. */
    inFlight: () => inFlight,
    /** Resolves once `count` proofs are acknowledged (or the run fails). */
    async reach(count: number): Promise<void> {
      while (acknowledged.length < count) await Promise.race([running, new Promise<void>((resolve) => (onAck = resolve))]);
    },
    async stop(): Promise<void> {
      stopping = true;
      await running;
    },
  };
}

/** A registry started on a restored copy answers every proof acknowledged before the backup, unchanged, and verifies them all. */
export async function checkRestored(t: ExecutionContext, restored: TestRegistry, before: readonly Acknowledged[]): Promise<void> {
  for (const { proofId, envelope } of before) {
    const got = await restored.call(WALLET_A, 'GET', `/v1/proofs/${proofId}`);
    t.is(got.status, 200, proofId);
    t.deepEqual(got.body.envelope, envelope);
  }
  const verdicts = await restored.call(WALLET_A, 'POST', '/v1/verify/batch', { envelopes: before.map((a) => a.envelope) });
  t.is(verdicts.status, 200, JSON.stringify(verdicts.body));
  t.true((verdicts.body.results as Array<{ valid: boolean }>).every((r) => r.valid));
}
