import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { migrateLatest, openDatabase } from '../src/adapters/sql/index.js';
import type { PendingRow } from '../src/adapters/sql/proof-writer.js';
import { SqliteProofWriter } from '../src/adapters/sql/sqlite-proof-writer.js';
import { pendingRows } from './pending-rows.js';

/**
 * The SQLite writer's own CPU per proof, this checkout's against another's, in one process:
 *
 *   BASE=/work/main npx tsx bench/sqlite-writer-versions.ts      # the base first, this checkout second
 *   BASE=/work/main SWAP=1 npx tsx bench/sqlite-writer-versions.ts  # this checkout first
 *   SAME=1 npx tsx bench/sqlite-writer-versions.ts               # this checkout in both places (A/A)
 *
 * Each writer has its own file already holding 5,000 bench proofs; they take ROUNDS rounds
 * (default 20) of 20 batches of BATCH proofs (default 10) in turns, which goes first
 * alternating, checkpoints every 16 commits. CPU is the process's (libuv's pool runs SQLite),
 * counted while one writer works. The second place came out 5–14% ahead with the same code on
 * both (bench/results/2026-11-25-where-the-time-goes.md): compare from both places.
 */
type Writer = { write(b: PendingRow[]): Promise<unknown>; close(): Promise<void> };
type WriterClass = { open(file: string, options: { checkpoint: { everyCommits: number } }): Promise<Writer> };
const base: WriterClass =
  process.env.SAME === '1'
    ? SqliteProofWriter
    : ((await import(resolve(process.env.BASE ?? '', 'src/adapters/sql/sqlite-proof-writer.js'))) as { SqliteProofWriter: WriterClass }).SqliteProofWriter;
const places: Array<[string, WriterClass]> =
  process.env.SWAP === '1'
    ? [
        ['this', SqliteProofWriter],
        ['base', base],
      ]
    : [
        ['base', base],
        ['this', SqliteProofWriter],
      ];

const BATCH = Number(process.env.BATCH ?? 10);
const pending = pendingRows(10);
const dir = mkdtempSync(join(tmpdir(), 'path-ab-'));
const writers: Writer[] = [];
for (const [n, W] of places) {
  const file = join(dir, `${n}.sqlite`);
  const db = await openDatabase(`sqlite:${file}`);
  await migrateLatest(db);
  await db.close();
  const w = await W.open(file, { checkpoint: { everyCommits: 16 } });
  for (let i = 0; i < 5000; i += 500) await w.write(pending(500));
  writers.push(w);
}
const cpu = [0, 0];
const rounds = Number(process.env.ROUNDS ?? 20);
for (let r = 0; r < rounds; r++) {
  for (const k of r % 2 ? [1, 0] : [0, 1]) {
    const batches = Array.from({ length: 20 }, () => pending(BATCH));
    const c0 = process.cpuUsage();
    for (const b of batches) await writers[k]!.write(b);
    const c = process.cpuUsage(c0);
    cpu[k]! += c.user + c.system;
  }
}
const n = rounds * 20 * BATCH;
const [first, second] = places.map(([name]) => name);
console.log(
  `batch ${BATCH}: first (${first}) ${(cpu[0]! / n).toFixed(0)} µs/proof, second (${second}) ${(cpu[1]! / n).toFixed(0)} µs/proof, second/first ${((100 * cpu[1]!) / cpu[0]!).toFixed(1)}%`,
);
for (const w of writers) await w.close();
rmSync(dir, { recursive: true, force: true });
