import { readFileSync } from 'node:fs';
import { SqliteProofWriter } from '../src/adapters/sql/sqlite-proof-writer.js';
import { WALLET_A } from '../test/support/mothers.js';
import { pendingRows, walCheckpoint } from './pending-rows.js';

/**
 * What a proof costs the SQLite writer on a database that already holds many (a file kept by
 * `SCALE_KEEP=1 npm run bench:scale`), the writer's own code on this thread:
 *
 *   FILE=/var/tmp/scale/scale-big-…/registry.sqlite npx tsx bench/sqlite-writer-at-scale.ts
 *
 * ROUNDS rounds of PER_ROUND bench proofs (fleet-proofs.ts) in batches of BATCH, with no
 * checkpoint: CPU of this process (libuv's pool runs SQLite) and wall time a proof, the WAL
 * frames (4 KiB pages) a proof adds, and the bytes this process read from disk (not from the
 * page cache) a proof. The first round reads the pages it touches into the caches. The proofs
 * are stored for good, by default for a wallet the scale data does not use (`WALLET=` another),
 * so that the scale bench's routes, which read its big wallet, see the data as loaded; the
 * log gets their leaves (`SEQUENCE=0`: none, what the log costs the writer).
 */
const FILE = process.env.FILE;
if (!FILE) throw new Error('FILE= a migrated SQLite file');
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const PER_ROUND = Number(process.env.PER_ROUND ?? 3_000);
const BATCH = Number(process.env.BATCH ?? 10);
const WALLET = process.env.WALLET ?? WALLET_A;

const rows = pendingRows(1, { wallet: WALLET, fromMs: Date.now(), label: 'writer-at-scale' });

const readFromDisk = () => Number(/read_bytes: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? NaN);

// Signed before the clock starts: signing costs more than storing.
const rounds = Array.from({ length: ROUNDS }, () => Array.from({ length: Math.ceil(PER_ROUND / BATCH) }, () => rows(BATCH)));
const writer = await SqliteProofWriter.open(FILE, {
  checkpoint: { everyCommits: Number.MAX_SAFE_INTEGER, walFramesLimit: Number.MAX_SAFE_INTEGER },
  sequence: process.env.SEQUENCE !== '0',
});
try {
  console.log(`${FILE}: ${ROUNDS} rounds of ${PER_ROUND} proofs for ${WALLET}, ${BATCH} a commit, log ${process.env.SEQUENCE === '0' ? 'off' : 'on'}\n`);
  console.log('| round | CPU µs/proof | wall µs/proof | WAL frames/proof | read from disk KiB/proof |\n| ---: | ---: | ---: | ---: | ---: |');
  for (const [i, batches] of rounds.entries()) {
    await walCheckpoint(FILE, 'TRUNCATE');
    const proofs = batches.length * BATCH;
    const cpu0 = process.cpuUsage();
    const wall0 = performance.now();
    const read0 = readFromDisk();
    for (const batch of batches) await writer.write(batch);
    const cpu = process.cpuUsage(cpu0);
    const wallMs = performance.now() - wall0;
    const read = readFromDisk() - read0;
    const frames = await walCheckpoint(FILE, 'PASSIVE');
    console.log(
      `| ${i + 1} | ${((cpu.user + cpu.system) / proofs).toFixed(0)} | ${((wallMs * 1000) / proofs).toFixed(0)} | ${(frames / proofs).toFixed(1)} | ${(read / 1024 / proofs).toFixed(1)} |`,
    );
  }
} finally {
  await writer.close();
}
process.exit(0);
