import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateLatest, openDatabase } from '../src/adapters/sql/index.js';
import { SqliteProofWriter } from '../src/adapters/sql/sqlite-proof-writer.js';
import { pendingRows, walCheckpoint } from './pending-rows.js';

/**
 * What one proof costs the SQLite writer (the writer thread's SqliteProofWriter, on this thread):
 *
 *   npx tsx bench/sqlite-writes.ts
 *
 * For batches of 1, 10 and 50 bench proofs (fleet-proofs.ts: 2.5 KB, 64 robots, 16 keys, in
 * created_at order) into a file that already holds 20,000: CPU per proof (this process, all
 * threads: libuv's pool runs SQLite), wall time per proof, and the WAL frames (4 KiB pages)
 * each proof adds. A proof writes its row, an entry in each of the six indexes of `proofs`,
 * its topics (a row and two index entries each) and its device's row. Proof ids are random,
 * so each proof's entry in (wallet_id, proof_id) lands on a page of its own; the indexes that
 * end in created_at grow at the end of each robot's, key's or task's range. Every page a
 * commit changes is one frame. Checkpoints (which copy the frames into the
 * database file) are measured apart: with none, and with the writer's default of one every
 * 16 commits.
 *
 * Then the average size of an entry of each index and table the proofs fill (SQLite's dbstat,
 * leaf pages), after 5,000 proofs: what decides how often an index page splits.
 */
const PREFILL = Number(process.env.PREFILL ?? 20_000);
const PROOFS = Number(process.env.PROOFS ?? 3_000);
const ENTRY_PROOFS = 5_000;

const pending = pendingRows(1);

async function measure(batchSize: number, everyCommits: number): Promise<{ cpuUs: number; wallUs: number; frames: number | null }> {
  const dir = mkdtempSync(join(tmpdir(), 'registry-sqlite-writes-'));
  try {
    const file = join(dir, 'registry.sqlite');
    const db = await openDatabase(`sqlite:${file}`);
    await migrateLatest(db);
    await db.close();
    const writer = await SqliteProofWriter.open(file, { checkpoint: { everyCommits, walFramesLimit: Number.MAX_SAFE_INTEGER } });
    try {
      for (let i = 0; i < PREFILL; i += 500) await writer.write(pending(500));
      // An empty WAL, so that the frames in it at the end are this run's.
      await walCheckpoint(file, 'TRUNCATE');
      const batches = Array.from({ length: Math.ceil(PROOFS / batchSize) }, () => pending(batchSize));
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      for (const batch of batches) await writer.write(batch);
      const wallUs = (performance.now() - t0) * 1000;
      const cpu = process.cpuUsage(cpu0);
      const frames = everyCommits === Number.MAX_SAFE_INTEGER ? await walCheckpoint(file, 'PASSIVE') : null;
      const proofs = batches.length * batchSize;
      return { cpuUs: (cpu.user + cpu.system) / proofs, wallUs: wallUs / proofs, frames: frames === null ? null : frames / proofs };
    } finally {
      await writer.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Average bytes an entry of each `proof…` table and index takes, from dbstat's leaf pages, after ENTRY_PROOFS proofs. */
async function entrySizes(): Promise<Array<{ name: string; entries: number; bytes: number }>> {
  const dir = mkdtempSync(join(tmpdir(), 'registry-sqlite-entries-'));
  try {
    const file = join(dir, 'registry.sqlite');
    const db = await openDatabase(`sqlite:${file}`);
    try {
      await migrateLatest(db);
      const writer = await SqliteProofWriter.open(file);
      for (let i = 0; i < ENTRY_PROOFS; i += 10) await writer.write(pending(10));
      await writer.close();
      return await db.knex.raw(
        `select name, sum(ncell) as entries, round(1.0 * sum(payload) / sum(ncell), 1) as bytes
           from dbstat where pagetype = 'leaf' and name like 'proof%' group by name order by name`,
      );
    } finally {
      await db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`${PROOFS.toLocaleString('en-US')} proofs a run into a file holding ${PREFILL.toLocaleString('en-US')}\n`);
console.log('| batch | checkpoints | CPU µs/proof | wall µs/proof | WAL frames/proof |');
console.log('| ---: | --- | ---: | ---: | ---: |');
for (const batchSize of [1, 10, 50]) {
  for (const [label, everyCommits] of [
    ['none', Number.MAX_SAFE_INTEGER],
    ['every 16 commits', 16],
  ] as const) {
    const r = await measure(batchSize, everyCommits);
    console.log(`| ${batchSize} | ${label} | ${r.cpuUs.toFixed(0)} | ${r.wallUs.toFixed(0)} | ${r.frames === null ? '' : r.frames.toFixed(1)} |`);
  }
}

console.log(`\nBytes an entry, after ${ENTRY_PROOFS.toLocaleString('en-US')} proofs\n`);
console.log('| table or index | entries | bytes an entry |');
console.log('| --- | ---: | ---: |');
for (const r of await entrySizes()) console.log(`| ${r.name} | ${r.entries.toLocaleString('en-US')} | ${r.bytes} |`);
