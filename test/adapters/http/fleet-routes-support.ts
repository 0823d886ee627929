import type { Clock } from '../../../src/application/ports/clock.js';
import { anEnvelope } from '../../support/mothers.js';
import { startTestRegistry, type TestRegistry } from '../../support/registry.js';

// What the fleet route tests share: their registry, proof submission, and a wallet per test.
export const MIN = 60_000;

/** The registry on the clock the tests move: statuses derive from it. Windows: online 5 min, offline after 1 h. */
export const startFleetRegistry = (clock: Clock) =>
  startTestRegistry({ clock, env: { DEVICE_ONLINE_WINDOW_S: '300', DEVICE_OFFLINE_AFTER_S: '3600', HEALTH_HISTORY_LIMIT: '3' } });

/** Submits a proof (a task id of its own each time) from `robotId`, or with none; answers its proof id. */
export const submitter = (registry: () => TestRegistry) => {
  let seq = 0;
  return async (wallet: string, robotId?: string) => {
    const res = await registry().call(wallet, 'POST', '/v1/proofs', {
      envelope: anEnvelope({ taskId: `t-${++seq}`, ...(robotId !== undefined ? { robotId } : {}) }),
    });
    if (res.status !== 200) throw new Error(`submit failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.proof_id as string;
  };
};
/** Each test gets its own wallet (routes are wallet-scoped), so tests may run concurrently. */
export const wallet = (n: number) => `FleetWallet${String(n).padStart(3, '0')}${'1'.repeat(30)}`;
export const enc = encodeURIComponent;
