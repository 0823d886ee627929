import { performance } from 'node:perf_hooks';
import { openDatabase } from '../src/adapters/sql/database.js';
import { KnexProofStore } from '../src/adapters/sql/knex-proof-store.js';
import type { ProofQuery } from '../src/application/ports/proof-store.js';

/**
 * The statements one search sends and the time of each, on a database the scale bench kept
 * (`SCALE_KEEP=1 npm run bench:scale`), the store's own code on this thread:
 *
 *   URL=sqlite:/var/tmp/scale/scale-big-…/registry.sqlite WALLET=… QUERY='{"text":"lyon"}' npx tsx bench/search-steps.ts
 *
 * QUERY: the ProofQuery as JSON (limit 50 unless given). The search runs RUNS times (default
 * 5); the last run's statements are printed with their times (each statement's SQL cut to
 * 160 characters, SQL_CHARS to change), and the wall time of each run. SCHEMA: the PostgreSQL schema.
 */
const URL = process.env.URL;
const WALLET = process.env.WALLET;
if (!URL || !WALLET) throw new Error('URL= a database the scale bench kept, WALLET= a wallet of it');
const query = { limit: 50, ...(JSON.parse(process.env.QUERY ?? '{"text":"lyon"}') as Partial<ProofQuery>) } as ProofQuery;
const RUNS = Number(process.env.RUNS ?? 5);

const db = await openDatabase(URL, { schema: process.env.SCHEMA, poolSize: 2 });
const store = new KnexProofStore(db);
const started = new Map<string, number>();
let steps: Array<{ sql: string; ms: number; rows: number }> = [];
// Searches read on the read connections.
const reads = db.reader ?? db.knex;
reads.on('query', (q: { __knexQueryUid: string }) => started.set(q.__knexQueryUid, performance.now()));
reads.on('query-response', (response: unknown, q: { __knexQueryUid: string; sql: string }) => {
  const rows = Array.isArray(response) ? response.length : ((response as { rows?: unknown[] })?.rows?.length ?? 0);
  steps.push({ sql: q.sql.replace(/\s+/g, ' '), ms: performance.now() - (started.get(q.__knexQueryUid) ?? 0), rows });
});
try {
  const walls: number[] = [];
  let items = 0;
  for (let i = 0; i < RUNS; i++) {
    steps = [];
    const t0 = performance.now();
    const page = await store.search(WALLET, query);
    walls.push(performance.now() - t0);
    items = page.items.length;
  }
  console.log(`${JSON.stringify(query)}: ${items} items; runs ${walls.map((w) => w.toFixed(1)).join(', ')} ms\n`);
  console.log('| ms | rows | statement |\n| ---: | ---: | --- |');
  for (const s of steps) console.log(`| ${s.ms.toFixed(2)} | ${s.rows} | \`${s.sql.slice(0, Number(process.env.SQL_CHARS ?? 160))}\` |`);
} finally {
  await db.close();
}
