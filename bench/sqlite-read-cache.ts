import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { migrateLatest, openDatabase } from '../src/adapters/sql/index.js';
import { SqliteProofWriter } from '../src/adapters/sql/sqlite-proof-writer.js';
import { pendingRows } from './pending-rows.js';

/**
 * What reading a proof's row costs a SQLite reader, by page cache and memory map, with and
 * without a commit by another connection since its last read:
 *
 *   npx tsx bench/sqlite-read-cache.ts
 *
 * A file holds PROOFS bench proofs of one wallet (2.5 KB envelopes: about a row a page). A
 * read-only connection, opened as the registry opens its readers, tests every proof's
 * `search_text` for a needle none holds (each row read once, in the wallet's time order): the
 * step that a text search without a trigram takes per proof. Each setting is timed warm (the
 * same statement again) and right after another connection commits one proof, ROUNDS times,
 * settings in turns. In WAL mode a read transaction that finds the database changed since the
 * connection's last one drops that connection's whole page cache and unmaps its memory map,
 * so under a steady stream of submissions the second figure is the one a search gets.
 */
const PROOFS = Number(process.env.PROOFS ?? 40_000);
const ROUNDS = Number(process.env.ROUNDS ?? 5);

const SETTINGS: ReadonlyArray<{ label: string; pragma: string }> = [
  { label: 'SQLite default: 2 MB page cache, no memory map', pragma: 'PRAGMA cache_size = -2000' },
  { label: '16 MB page cache', pragma: 'PRAGMA cache_size = -16000' },
  { label: '64 MB page cache', pragma: 'PRAGMA cache_size = -64000' },
  { label: '256 MB page cache', pragma: 'PRAGMA cache_size = -256000' },
  { label: "memory map of 2 GB (the build's largest), 2 MB page cache", pragma: 'PRAGMA mmap_size = 2000000000' },
];

const all = <T>(db: sqlite3.Database, sql: string, params: unknown[] = []): Promise<T[]> =>
  new Promise((resolve, reject) => db.all<T>(sql, params, (err, rows) => (err ? reject(err) : resolve(rows))));

function open(file: string, mode: number): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, mode, (err) => (err ? reject(err) : resolve(db)));
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'registry-sqlite-read-cache-'));
  try {
    const file = join(dir, 'registry.sqlite');
    const db = await openDatabase(`sqlite:${file}`);
    await migrateLatest(db);
    await db.close();
    const pending = pendingRows(1);
    const writer = await SqliteProofWriter.open(file);
    for (let i = 0; i < PROOFS; i += 500) await writer.write(pending(Math.min(500, PROOFS - i)));
    const readers = await Promise.all(SETTINGS.map(() => open(file, sqlite3.OPEN_READONLY)));
    const key = (await all<{ id: number }>(readers[0]!, 'select wallet_id as id from proofs limit 1'))[0]!.id;
    for (const [i, s] of SETTINGS.entries()) await all(readers[i]!, s.pragma);
    const scan = "select count(*) as n from proofs where wallet_id = ? and search_text like '%zq%'";
    const perRow = async (reader: sqlite3.Database): Promise<number> => {
      const t0 = process.hrtime.bigint();
      await all(reader, scan, [key]);
      return Number(process.hrtime.bigint() - t0) / 1000 / PROOFS;
    };
    const warm = SETTINGS.map(() => [] as number[]);
    const afterCommit = SETTINGS.map(() => [] as number[]);
    for (const reader of readers) await perRow(reader);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, reader] of readers.entries()) {
        await writer.write(pending(1));
        afterCommit[i]!.push(await perRow(reader));
        warm[i]!.push(await perRow(reader));
      }
    }
    console.log(`# ${PROOFS.toLocaleString('en')} proofs, ${ROUNDS} rounds; µs a proof's row, median (min–max)`);
    console.log('| reader | warm | after another connection commits |');
    console.log('| --- | ---: | ---: |');
    const fmt = (xs: number[]) => `${median(xs).toFixed(2)} (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;
    for (const [i, s] of SETTINGS.entries()) console.log(`| ${s.label} | ${fmt(warm[i]!)} | ${fmt(afterCommit[i]!)} |`);
    await Promise.all(readers.map((r) => new Promise((resolve) => r.close(resolve))));
    await writer.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
