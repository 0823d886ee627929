import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import test from 'ava';

const run = promisify(execFile);

/**
 * Starts a verify pool in a fresh Node process with tsx, as `npm start` would, verifies a
 * batch on it, runs `body`, and returns what the process printed once it exited.
 */
async function inFreshProcess(body: string): Promise<string> {
  const url = (path: string) => JSON.stringify(new URL(path, import.meta.url).href);
  const code = `
    const { startVerifyPool } = await import(${url('../../../src/adapters/workers/verify-pool.ts')});
    const { WorkerBatchVerifier } = await import(${url('../../../src/adapters/workers/worker-batch-verifier.ts')});
    const { createProofProtocol } = await import(${url('../../../src/adapters/crypto/proof-protocol-factory.ts')});
    const { anEnvelope } = await import(${url('../../support/mothers.ts')});
    const pool = await startVerifyPool({ size: 2 });
    const verifier = new WorkerBatchVerifier(pool, await createProofProtocol());
    const reports = await verifier.verifyMany(Array.from({ length: 200 }, (_, i) => anEnvelope({ taskId: 't' + i })));
    console.log(reports.filter((r) => r.valid).length, pool.stats.jobsInline);
    ${body}`;
  // The timeout fails the test if live workers keep the child from exiting.
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { timeout: 60_000 });
  return stdout.trim();
}

test('close() lets the process exit', async (t) => {
  t.is(await inFreshProcess('await pool.close();'), '200 0');
});

test('an idle pool that is never closed does not keep the process alive', async (t) => {
  t.is(await inFreshProcess(''), '200 0');
});
