import test from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { migrateLatest, openDatabase } from '../../../src/adapters/sql/index.js';
import { EXPORT_CAP } from '../../../src/application/ports/proof-store.js';
import { startTestRegistry, type TestRegistry } from '../../support/registry.js';

/**
 * An export of 100,000 proofs streams: the server (in this process) holds a page at a time,
 * never the export. The proofs are written straight into the table (signing and verifying
 * 100,000 envelopes would take minutes and prove nothing here), one more than the cap, so the
 * export is also capped and continued.
 */
const wallet = 'MemoryWallet1111111111111111111111111111111';
const TOTAL = EXPORT_CAP + 1;
const BASE_MS = Date.parse('2026-10-01T00:00:00Z');
const proofId = (i: number) => i.toString(16).padStart(64, '0');
const SIGNER = 'AAAAC3NzaC1lZDI1NTE5AAAAIGxvbmcta2V5LWZvci10ZXN0cw==';

// A full collection before each sample measures what is held, not garbage not yet collected.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;

let dir: string;
let registry: TestRegistry;

test.before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'proof-export-'));
  const url = `sqlite:${path.join(dir, 'export.sqlite')}`;
  const db = await openDatabase(url);
  await migrateLatest(db);
  await db.knex('wallets').insert({ address: wallet });
  // One statement, in SQLite's own code: a proof a second from October 1st, every proof id its number in hex.
  await db.knex.raw(
    `insert into proofs (wallet_id, wallet, proof_id, task_id, robot_id, run_id, signer_public_key_b64, created_at, created_at_ms, received_at_ms, event_count, topics, search_text, envelope)
     with recursive n(i) as (select 0 union all select i + 1 from n where i < ?)
     select (select id from wallets where address = ?), ?, printf('%064x', i), printf('assembly-north-cell-%03d-station-%d', i % 997, i % 7), printf('robot-arm-%02d-line-b', i % 50), printf('run-%06d', i / 100),
       ?, strftime('%Y-%m-%dT%H:%M:%SZ', ? / 1000 + i, 'unixepoch'), ? + i * 1000, ? + i * 1000 + 500, 2, '["nav/pose","safety/state"]', 'task-' || (i % 997), '{}'
     from n`,
    [TOTAL - 1, wallet, wallet, SIGNER, BASE_MS, BASE_MS, BASE_MS],
  );
  await db.close();
  // The jobs that poll in the background (events, devices, the log) are slowed down: the heap measured is the export's.
  registry = await startTestRegistry({ env: { DATABASE_URL: url, LOG_CHECKPOINT_INTERVAL_MS: '3600000', EVENT_POLL_MS: '60000', DEVICE_SWEEP_MS: '3600000' } });
});
test.after.always(async () => {
  await registry?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Reads an export without keeping it (bytes in, nothing decoded): its headers, bytes and lines, its first and last bytes. */
async function drain(pathAndQuery: string) {
  const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
    http.get(registry.url + pathAndQuery, { headers: { authorization: `Bearer test:${wallet}`, 'x-wallet-address': wallet } }, resolve).on('error', reject),
  );
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.statusMessage}`);
  let bytes = 0;
  let lines = 0;
  let head = Buffer.alloc(0);
  let tail = Buffer.alloc(0);
  for await (const chunk of res as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    if (head.length < 400) head = Buffer.concat([head, chunk.subarray(0, 400)]);
    // A copy: a view would keep the whole chunk.
    tail = Buffer.from(Buffer.concat([tail, chunk.subarray(-400)]).subarray(-400));
  }
  return { headers: res.headers, bytes, lines, head: head.toString('utf8'), tail: tail.toString('utf8') };
}

test('an export of 100,000 proofs streams with a flat heap, the count exact, and its continuation holds the rest', async (t) => {
  // What a first export compiles and caches (code, statements, the connection) is not what an export holds.
  await drain('/v1/proofs/export?format=csv&order=asc&limit=2000');
  gc();
  const baseline = process.memoryUsage().heapUsed;
  // Every 50 ms the young generation is collected, and every tenth time the whole heap: what is left is what something holds.
  let peak = baseline;
  let samples = 0;
  const sampler = setInterval(() => {
    const full = ++samples % 10 === 0;
    gc({ type: full ? 'major' : 'minor' });
    if (full) peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, 50);
  let first;
  try {
    first = await drain('/v1/proofs/export?format=csv&order=asc');
  } finally {
    clearInterval(sampler);
  }
  gc();
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  const growth = peak - baseline;
  t.log(`${first.bytes} bytes streamed; peak heap growth ${growth} bytes (baseline ${baseline}, ${Math.floor(samples / 10)} full samples)`);
  // One line per proof after the header, in time order: the first and the cap-th proof.
  t.is(first.lines, EXPORT_CAP + 1);
  t.is(first.headers['x-export-count'], String(EXPORT_CAP));
  t.true(first.head.startsWith(`proof_id,created_at,received_at,task_id,robot_id,run_id,signer_public_key_b64,topics,event_count\r\n${proofId(0)},`));
  t.true(first.tail.includes(`\r\n${proofId(EXPORT_CAP - 1)},`));
  t.false(first.tail.includes(proofId(EXPORT_CAP)));
  t.true(first.bytes > 25_000_000);
  t.true(growth < first.bytes / 4, `heap grew by ${growth} bytes for ${first.bytes} streamed`);
  // The proof past the cap is the continuation's, and the only one.
  const link = /^<([^>]+)>; rel="next"$/.exec(String(first.headers.link ?? ''));
  t.truthy(link);
  const rest = await drain(link![1]!);
  t.is(rest.lines, 2);
  t.true(rest.tail.includes(`\r\n${proofId(EXPORT_CAP)},`));
  t.is(rest.headers.link, undefined);
});
