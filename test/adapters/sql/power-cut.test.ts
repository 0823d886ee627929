import test, { type ExecutionContext } from 'ava';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childRegistry } from '../../support/child-registry.js';
import { anEnvelope, WALLET_A } from '../../support/mothers.js';
import { buildDurableWrites, cutPower } from '../../support/power-cut/power-cut.js';
import { authHeaders } from '../../support/test-authenticator.js';

// A power cut under load: the registry runs on a disk that keeps only what was synced
// (support/power-cut/durable-writes.c), is killed mid-load, and its files are put back as such
// a disk would have them. Every proof acknowledged with a 200 must be there afterwards.

let durable: ReturnType<typeof buildDurableWrites>;
test.before(() => {
  durable = buildDurableWrites();
});
test.after.always(() => durable?.remove());

interface Cut {
  readonly acknowledged: number;
  readonly lost: string[];
}

/** Loads a registry on the keeping-only-what-was-synced disk, cuts the power mid-load, and counts the acknowledged proofs missing after. */
async function loadAndCut(t: ExecutionContext, synchronous: 'full' | 'normal', round: number): Promise<Cut> {
  const dir = mkdtempSync(join(tmpdir(), `power-cut-${synchronous}-`));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const disk = join(dir, 'disk');
  mkdirSync(disk);
  const env = { DATABASE_URL: `sqlite:${join(disk, 'registry.sqlite')}`, DATA_DIR: dir, SQLITE_SYNCHRONOUS: synchronous };
  const server = await childRegistry(t, { ...env, LD_PRELOAD: durable.library, POWER_CUT_DIR: disk });
  const acknowledged: string[] = [];
  let running = true;
  let sent = 0;
  const client = async () => {
    while (running) {
      const envelope = anEnvelope({ taskId: `cut-${round}-${sent++}`, robotId: 'arm-1' });
      try {
        const res = await fetch(`${server.url}/v1/proofs`, {
          method: 'POST',
          headers: { ...authHeaders(WALLET_A), 'content-type': 'application/json' },
          body: JSON.stringify({ envelope }),
        });
        if (res.status === 200) acknowledged.push(((await res.json()) as { proof_id: string }).proof_id);
      } catch {
        return; // the power went: this one was not acknowledged
      }
    }
  };
  const clients = Array.from({ length: 8 }, client);
  while (acknowledged.length < 150) await new Promise((resolve) => setTimeout(resolve, 5));
  await server.kill9();
  running = false;
  await Promise.all(clients);
  cutPower(disk);
  const after = await childRegistry(t, env);
  const lost: string[] = [];
  for (const proofId of acknowledged) {
    const res = await fetch(`${after.url}/v1/proofs/${proofId}`, { headers: authHeaders(WALLET_A) });
    if (res.status !== 200) lost.push(proofId);
  }
  await after.stop();
  return { acknowledged: acknowledged.length, lost };
}

test.serial('synchronous=full: a power cut under load loses no acknowledged proof', async (t) => {
  t.timeout(300_000);
  for (let round = 0; round < 2; round++) {
    const cut = await loadAndCut(t, 'full', round);
    t.true(cut.acknowledged >= 150);
    t.deepEqual(cut.lost, [], `round ${round}: ${cut.lost.length} of ${cut.acknowledged} acknowledged proofs lost`);
  }
});

test.serial('synchronous=normal: the same cut can lose acknowledged proofs (so the harness sees what it guards)', async (t) => {
  t.timeout(300_000);
  const losses: number[] = [];
  for (let round = 0; round < 5 && !losses.some((n) => n > 0); round++) losses.push((await loadAndCut(t, 'normal', round)).lost.length);
  t.true(
    losses.some((n) => n > 0),
    `no loss in ${losses.length} cuts: the harness would not notice unsynced acknowledgements`,
  );
});
