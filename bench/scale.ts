import { pathToFileURL } from 'node:url';
import { SIZES, DIALECTS, REQUESTS, WARMUP } from './scale/config.js';
import { bench, measureExisting } from './scale/run.js';

/**
 * `npm run bench:scale`: what the registry costs as its data grows. Not run in CI. This file is
 * the entry; the parts are in scale/: config.ts (the knobs below), target.ts (the databases),
 * migrations.ts, routes.ts (the read routes), rates.ts (submission rates) and run.ts.
 *
 * For each database (SCALE_DATABASES, default sqlite,postgres), one at a time and dropped once
 * measured, it loads proofs through the store's own batch writer (not HTTP; the proofs made
 * on worker threads, scale-load.ts) up to each size of SCALE_SIZES (default 1,000,000 and
 * 10,000,000), and at each size measures, with the same code in one run:
 * - the HTTP submission rate against an empty database of the same kind, in turns;
 * - p50/p99 of sequential requests: get by id, list and search with each filter and order,
 *   text and topic of several frequencies, sorts, offsets, a deep cursor page, the fleet
 *   overview, wallet statistics and the series;
 * - bytes on disk per proof and per table or index; start-up time; migration 010's time
 *   over the rows already there (the first size only: it runs once).
 *
 * The data (scale-data.ts): 50 wallets, one holding 60% of the proofs; 500 robots each signing
 * with its own key (2% of proofs without a robot id); 2,000 tasks; 30 topics of very different
 * frequencies; one event per topic for 95% of proofs and 5–16 events for the rest (envelopes
 * of about 0.8 KB on average); meta with a site among 40, a shift and an operator, and one proof
 * in 100,000 with a rare word; created_at over 90 days, arriving in order. Deterministic: the
 * same sizes give the same proofs.
 *
 * SCALE_EXISTING=1 measures databases an interrupted run left instead of loading new ones:
 * SCALE_SQLITE_BIG / SCALE_SQLITE_EMPTY (files), SCALE_PG_BIG / SCALE_PG_EMPTY (schemas).
 *
 * SCALE_KEEP=1 only loads: it keeps the databases, measures nothing and prints the line that
 * measures them later with SCALE_EXISTING=1 (load on a busy machine, measure on a quiet one).
 *
 * SCALE_DIR: where SQLite files go (default the temp directory). SCALE_WORKERS: threads making
 * proofs (default one per core). SCALE_REQUESTS: requests per
 * route (default 100, after 10 warm-up ones). SCALE_RATE_S: seconds per submission slice;
 * SCALE_RATE_CONNECTIONS: the connection counts of the submission rates (default 16; the
 * sustained runs take the first).
 * SCALE_ROUTES: a regular expression; only the routes whose label it finds are measured, and
 * the submission rates are not (to compare a few routes before and after a change).
 * SCALE_DEFER, SCALE_REMIGRATE: which migrations are timed over the loaded rows (see beforeLoad, in
 * scale/migrations.ts).
 * SCALE_GAP=N: after the routes, N proofs for the big wallet, newer than all and holding none
 * of the data's words or topics (a fleet's proofs after a site went quiet), are written
 * through the batch writer, and the text and topic searches are measured again: a
 * newest-first search walks past them before its first match.
 * SCALE_RATES_ONLY=1 measures the submission rates and not the routes; SCALE_RATE_ROUNDS sets
 * their rounds (default 3). SCALE_SUSTAINED_S=N measures them instead with each server alone
 * for N seconds from a checkpoint (sustainedRates, in scale/rates.ts).
 */

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && process.env.SCALE_EXISTING === '1') {
  await measureExisting();
  process.exit(0);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(`# bench:scale, ${new Date().toISOString()}: sizes ${SIZES.join(', ')}, ${REQUESTS} sequential requests per route after ${WARMUP} warm-up ones`);
  await bench(DIALECTS);
  // Knex pools and the verify protocol's workers would keep the process alive.
  process.exit(0);
}
