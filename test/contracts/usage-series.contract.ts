import test from 'ava';
import type { ProofStore } from '../../src/application/ports/proof-store.js';
import type { KeyUsageHistory, ProofRejectionLog, ProofSeriesReader } from '../../src/application/ports/usage-series.js';
import type { DeclareTest } from '../support/databases.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../support/mothers.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const D0 = Date.parse('2026-11-18T00:00:00Z');

/** The dashboard's counter and series ports; `make` returns empty adapters sharing one store. */
export function usageSeriesContract(
  name: string,
  make: () => Promise<{ history: KeyUsageHistory; rejections: ProofRejectionLog; series: ProofSeriesReader; proofs: ProofStore }>,
  testFn: DeclareTest = test,
): void {
  testFn(`${name}: key usage adds up per key and day, and reads back a half-open range of days`, async (t) => {
    const { history } = await make();
    await history.add([
      { keyId: 'key_a', dayMs: D0, requests: 3, errors: 1 },
      { keyId: 'key_a', dayMs: D0 + DAY, requests: 2, errors: 0 },
      { keyId: 'key_b', dayMs: D0, requests: 9, errors: 9 },
    ]);
    // A second flush (another instance) adds to the same rows.
    await history.add([{ keyId: 'key_a', dayMs: D0, requests: 4, errors: 2 }]);
    t.deepEqual(await history.days('key_a', D0, D0 + 2 * DAY), [
      { keyId: 'key_a', dayMs: D0, requests: 7, errors: 3 },
      { keyId: 'key_a', dayMs: D0 + DAY, requests: 2, errors: 0 },
    ]);
    t.deepEqual(await history.days('key_a', D0 + DAY, D0 + 2 * DAY), [{ keyId: 'key_a', dayMs: D0 + DAY, requests: 2, errors: 0 }]);
    t.deepEqual(await history.days('key_a', D0 - DAY, D0), []);
    t.deepEqual(await history.days('key_c', D0, D0 + DAY), []);
  });

  testFn(`${name}: key usage per endpoint adds up per key, day and endpoint, and keeps keys apart`, async (t) => {
    const { history } = await make();
    await history.addByEndpoint([
      { keyId: 'key_a', dayMs: D0, endpoint: 'POST /v1/proofs', requests: 5, errors: 1 },
      { keyId: 'key_a', dayMs: D0, endpoint: 'GET /v1/proofs/{proof_id}', requests: 2, errors: 2 },
      { keyId: 'key_a', dayMs: D0 + DAY, endpoint: 'POST /v1/proofs', requests: 1, errors: 0 },
      { keyId: 'key_b', dayMs: D0, endpoint: 'POST /v1/proofs', requests: 9, errors: 0 },
    ]);
    await history.addByEndpoint([{ keyId: 'key_a', dayMs: D0, endpoint: 'POST /v1/proofs', requests: 1, errors: 1 }]);
    t.deepEqual(await history.endpointDays('key_a', D0, D0 + 2 * DAY), [
      { keyId: 'key_a', dayMs: D0, endpoint: 'GET /v1/proofs/{proof_id}', requests: 2, errors: 2 },
      { keyId: 'key_a', dayMs: D0, endpoint: 'POST /v1/proofs', requests: 6, errors: 2 },
      { keyId: 'key_a', dayMs: D0 + DAY, endpoint: 'POST /v1/proofs', requests: 1, errors: 0 },
    ]);
    t.deepEqual(await history.endpointDays('key_a', D0 + DAY, D0 + 2 * DAY), [
      { keyId: 'key_a', dayMs: D0 + DAY, endpoint: 'POST /v1/proofs', requests: 1, errors: 0 },
    ]);
    t.deepEqual(await history.endpointDays('key_c', D0, D0 + 2 * DAY), []);
    t.deepEqual(await history.days('key_a', D0, D0 + 2 * DAY), [], 'the totals are counted apart');
  });

  testFn(`${name}: refusals add up per wallet and hour; one wallet never sees another's`, async (t) => {
    const { rejections } = await make();
    await rejections.add([
      { wallet: WALLET_A, hourMs: D0, count: 2 },
      { wallet: WALLET_A, hourMs: D0 + 5 * HOUR, count: 1 },
      { wallet: WALLET_B, hourMs: D0, count: 7 },
    ]);
    await rejections.add([{ wallet: WALLET_A, hourMs: D0, count: 3 }]);
    t.deepEqual(await rejections.hours(WALLET_A, D0, D0 + DAY), [
      { wallet: WALLET_A, hourMs: D0, count: 5 },
      { wallet: WALLET_A, hourMs: D0 + 5 * HOUR, count: 1 },
    ]);
    t.deepEqual(await rejections.hours(WALLET_A, D0 + HOUR, D0 + 5 * HOUR), []);
    t.deepEqual(await rejections.hours(WALLET_B, D0, D0 + DAY), [{ wallet: WALLET_B, hourMs: D0, count: 7 }]);
  });

  testFn(`${name}: proof buckets count proofs and distinct devices by created_at, only the wallet's, only in the window`, async (t) => {
    const { series, proofs } = await make();
    const at = (iso: string, robotId: string | undefined, wallet = WALLET_A, seed = iso) =>
      proofs.add(aProofRecord(wallet, { taskId: `t-${seed}`, createdAt: iso, ...(robotId ? { robotId } : {}) }));
    await at('2026-11-18T00:00:00Z', 'arm-1');
    await at('2026-11-18T00:59:59.999Z', 'arm-1', WALLET_A, 'b');
    await at('2026-11-18T00:30:00Z', 'arm-2');
    await at('2026-11-18T03:15:00Z', undefined);
    await at('2026-11-18T04:00:00Z', 'arm-9', WALLET_A, 'edge');
    await at('2026-11-18T00:10:00Z', 'arm-1', WALLET_B);
    await at('2026-11-17T23:59:59Z', 'arm-1');
    t.deepEqual(await series.buckets(WALLET_A, HOUR, D0, D0 + 4 * HOUR), [
      { startMs: D0, proofs: 3, devices: 2 },
      { startMs: D0 + 3 * HOUR, proofs: 1, devices: 0 },
    ]);
    t.deepEqual(await series.buckets(WALLET_A, DAY, D0 - DAY, D0 + DAY), [
      { startMs: D0 - DAY, proofs: 1, devices: 1 },
      { startMs: D0, proofs: 5, devices: 3 },
    ]);
    t.deepEqual(await series.buckets(WALLET_B, HOUR, D0, D0 + HOUR), [{ startMs: D0, proofs: 1, devices: 1 }]);
    t.deepEqual(await series.buckets('nobody', HOUR, D0, D0 + DAY), []);
  });

  testFn(`${name}: proof buckets before 1970 and in a window of whole hours or days only`, async (t) => {
    const { series, proofs } = await make();
    const at = (iso: string, robotId?: string) => proofs.add(aProofRecord(WALLET_A, { taskId: `t-${iso}`, createdAt: iso, ...(robotId ? { robotId } : {}) }));
    await at('1969-12-31T23:59:59.999Z', 'arm-1');
    await at('1969-12-31T23:00:00Z', 'arm-2');
    await at('1969-12-31T22:59:59.999Z', 'arm-1');
    await at('1970-01-01T00:00:00Z', 'arm-1');
    t.deepEqual(await series.buckets(WALLET_A, HOUR, -2 * HOUR, HOUR), [
      { startMs: -2 * HOUR, proofs: 1, devices: 1 },
      { startMs: -HOUR, proofs: 2, devices: 2 },
      { startMs: 0, proofs: 1, devices: 1 },
    ]);
    t.deepEqual(await series.buckets(WALLET_A, DAY, -DAY, DAY), [
      { startMs: -DAY, proofs: 3, devices: 2 },
      { startMs: 0, proofs: 1, devices: 1 },
    ]);
    t.deepEqual(await series.buckets(WALLET_A, HOUR, -HOUR, 0), [{ startMs: -HOUR, proofs: 2, devices: 2 }]);
  });
}
