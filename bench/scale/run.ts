import { statSync } from 'node:fs';
import type { ProofWriter } from '../../src/adapters/sql/proof-writer.js';
import type { ProofRecord } from '../../src/domain/proof/proof-record.js';
import { migrations } from '../../migrations/index.js';
import { startChildServer, type ChildServer } from '../child-server.js';
import { fleetProof } from '../fleet-proofs.js';
import { BIG, scaleRecord } from '../scale-data.js';
import { toRow } from '../../src/adapters/sql/proof-rows.js';
import { ScaleLoader } from '../scale-load.js';
import { SIZES, DIALECTS, RATE_SLICE_S, KEEP, RATE_ROUNDS, RATES_ONLY, ROUTES, RATE_CONNECTIONS, GAP, SUSTAINED_S } from './config.js';
import { migrateTimed, DEFER, beforeLoad, REMIGRATE, remigrateTimed } from './migrations.js';
import { type Target, prepare, integrateLog, vacuumsUpdatedTables, analyze, sizes, attach, proofCount, sampleOf, appliedNames } from './target.js';
import { routes, measureRoutes } from './routes.js';
import { submissionRates, sustainedRates } from './rates.js';

// The scale bench's run: each database loaded to each size and measured there, or measured as an earlier run kept it.
/** The tree size of the server's latest checkpoint, once it covers at least `size` leaves (its upkeep signs one within a second of starting). */
export async function publishedSize(server: ChildServer, size: number): Promise<number> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const res = await fetch(`${server.url}/v1/log/checkpoint`);
    const text = await res.text();
    const treeSize = res.status === 200 ? Number(text.split('\n')[1]) : 0;
    if (treeSize >= size) return treeSize;
    if (Date.now() > deadline) throw new Error(`no checkpoint of ${size} leaves or more within 120 s (last: ${res.status}, ${treeSize})`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

export async function startTimed(t: Target): Promise<{ server: ChildServer; startMs: number }> {
  const start = performance.now();
  const server = await startChildServer('./servers/scale-server.ts', { DATABASE_URL: t.url, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MIN: '1000000' });
  return { server, startMs: Math.round(performance.now() - start) };
}

export async function bench(dialects: ReadonlyArray<'sqlite' | 'postgres'>): Promise<void> {
  const loader = await ScaleLoader.start();
  try {
    // One database at a time, dropped once measured: two at 10 million would not fit the disk.
    for (const dialect of dialects) await benchOne(dialect, loader);
  } finally {
    await loader.close();
  }
}

export async function benchOne(dialect: 'sqlite' | 'postgres', loader: ScaleLoader): Promise<void> {
  // SCALE_RESUME: the big database (file or schema) of a load that was interrupted, loaded on from where it stopped.
  const resumed = process.env.SCALE_RESUME === undefined ? undefined : await attach(dialect, process.env.SCALE_RESUME);
  const run = { dialect, empty: await prepare(dialect, 'empty'), big: resumed ?? (await prepare(dialect, 'big')), migrated: false };
  try {
    console.log(`${dialect}: migrations on an empty database (ms): ${JSON.stringify(await migrateTimed(run.empty.db, migrations))}`);
    const sample: ProofRecord[] = [];
    let loaded = 0;
    if (resumed) {
      // The loader writes the proofs in order, a batch a statement, so the count is where it stopped.
      loaded = await proofCount(resumed.db);
      sample.push(...(await sampleOf(resumed.db)));
      console.log(`resuming the load of ${process.env.SCALE_RESUME} at ${loaded.toLocaleString('en')} proofs`);
    } else await migrateTimed(run.big.db, beforeLoad);
    const total = Math.max(...SIZES);
    for (const size of SIZES) {
      const vacuuming = await vacuumsUpdatedTables(run.big);
      const { seconds, cpuSeconds, writeSeconds } = await loader.load(run.big.writer, loaded, size, total, sample, vacuuming);
      const log = await integrateLog(run.big);
      const bytes = run.big.file !== undefined ? statSync(run.big.file).size : (await sizes(run.big)).total;
      console.log(
        `\n# ${dialect}, ${size.toLocaleString('en')} proofs\n\nloaded ${(size - loaded).toLocaleString('en')} proofs through the ${dialect} batch writer in ${seconds} s ` +
          `(${Math.round((size - loaded) / Math.max(1, seconds)).toLocaleString('en')}/s, made on ${loader.threads} threads; ${cpuSeconds} CPU s in this process, ${writeSeconds} s waiting for the writer); ` +
          `${Math.round(bytes / size).toLocaleString('en')} bytes per proof on disk${run.migrated ? ' (and the proofs the rate measurement sent)' : DEFER.length > 0 ? ` before ${DEFER.join(', ')}` : ''}` +
          `${vacuuming !== undefined ? '; autovacuum is off on this server, so the load vacuumed the tables it updates every 100,000 proofs' : ''}.\n` +
          `The transparency log: ${log.leaves.toLocaleString('en')} leaves integrated into its tiles in ${log.seconds} s (${log.steps} steps of the log's own IntegrateLeaves).`,
      );
      loaded = size;
      if (!KEEP) await measureAt(run, size, sample, new Set(beforeLoad.map((m) => m.name)));
    }
    if (KEEP) {
      const where = (t: Target) => t.file ?? t.schema!;
      const env =
        dialect === 'sqlite'
          ? `SCALE_SQLITE_BIG=${where(run.big)} SCALE_SQLITE_EMPTY=${where(run.empty)}`
          : `SCALE_PG_BIG=${where(run.big)} SCALE_PG_EMPTY=${where(run.empty)}`;
      console.log(`\nkept; measure with:\nSCALE_EXISTING=1 SCALE_DATABASES=${dialect} ${env} npm run bench:scale`);
      await Promise.all([run.empty.db.close(), run.big.db.close()]);
    }
  } finally {
    if (!KEEP) {
      await run.empty.drop();
      await run.big.drop();
    }
  }
}

export async function measureAt(
  run: { dialect: 'sqlite' | 'postgres'; empty: Target; big: Target; migrated: boolean },
  size: number,
  sample: readonly ProofRecord[],
  applied: ReadonlySet<string>,
): Promise<void> {
  const { dialect, big, empty } = run;
  console.log(`\n## ${dialect}, ${size.toLocaleString('en')} proofs\n`);
  if (!run.migrated) {
    console.log(`migrations over ${size.toLocaleString('en')} proofs (ms): ${JSON.stringify(await migrateTimed(big.db, migrations, applied))}`);
    run.migrated = true;
  }
  // At the largest size only (or on a kept database, when asked).
  if (REMIGRATE.length > 0 && (process.env.SCALE_EXISTING === '1' || size === Math.max(...SIZES))) {
    console.log(`rolled back and applied again over ${size.toLocaleString('en')} proofs (ms): ${JSON.stringify(await remigrateTimed(big.db, REMIGRATE))}`);
  }
  // SCALE_SKIP_SIZES=sqlite,…: sizes (and ANALYZE) already taken by an earlier attempt at these databases.
  if (!(process.env.SCALE_SKIP_SIZES ?? '').split(',').includes(dialect)) {
    await analyze(big);
    const bytes = await sizes(big);
    console.log(`bytes on disk: ${bytes.total.toLocaleString('en')}, ${Math.round(bytes.total / size).toLocaleString('en')} per proof\n`);
    console.log('| table or index | bytes per proof | share |\n| --- | ---: | ---: |');
    for (const [name, b] of bytes.parts.filter(([, b]) => b / bytes.total >= 0.005))
      console.log(`| ${name} | ${Math.round(b / size)} | ${Math.round((b / bytes.total) * 100)}% |`);
  }
  // The empty database of an earlier run may lack the migrations added since.
  await migrateTimed(empty.db, migrations, await appliedNames(empty.db));
  const [{ n: leafRows }] = (await big.db.knex('log_leaves').count({ n: '*' })) as [{ n: number | string }];
  const leaves = Number(leafRows);
  const e = await startTimed(empty);
  const l = await startTimed(big);
  try {
    console.log(`\nstart-up (spawn to listening): empty ${e.startMs} ms, ${size.toLocaleString('en')} proofs ${l.startMs} ms`);
    // The routes first: the rate's proofs become the big wallet's newest, none with the scale
    // data's words or topics, and a newest-first search would walk past them first.
    const published = await publishedSize(l.server, leaves);
    console.log(
      `\n| route (big wallet, about ${Math.round(0.6 * size).toLocaleString('en')} proofs; log of ${published.toLocaleString('en')} leaves) | p50 ms | p99 ms |\n| --- | ---: | ---: |`,
    );
    if (!RATES_ONLY) await measureRoutes(l.server, routes(sample, published));
    if (GAP > 0 && !RATES_ONLY) {
      const t0 = performance.now();
      await writeGap(big.writer, GAP);
      console.log(
        `\n${GAP.toLocaleString('en')} newest proofs for the big wallet, without the data's words or topics, written in ${Math.round(performance.now() - t0)} ms`,
      );
      console.log(`\n| search past ${GAP.toLocaleString('en')} newest proofs without its word or topic | p50 ms | p99 ms |\n| --- | ---: | ---: |`);
      await measureRoutes(
        l.server,
        routes(sample, published).filter(([label]) => /^search (text|task \+ text|topic|offset 0, (rare )?text)/.test(label)),
      );
    }
    if (ROUTES === undefined && SUSTAINED_S > 0) {
      const rate = await sustainedRates(e.server, l.server, empty, big);
      console.log(
        `\nsubmissions over HTTP for ${SUSTAINED_S} s each from a checkpoint (${RATE_CONNECTIONS[0]} connections): empty ${rate.empty}/s, loaded ${rate.loaded}/s: ratio ${rate.ratio}`,
      );
    } else if (ROUTES === undefined) {
      const { byCount, best } = await submissionRates(e.server, l.server, big);
      for (const [connections, rate] of byCount) {
        console.log(
          `\nsubmissions over HTTP (${connections} connections, ${RATE_ROUNDS} rounds of ${RATE_SLICE_S} s each, in turns): empty ${rate.empty}/s (p99 ≤ ${rate.emptyP99} ms), loaded ${rate.loaded}/s (p99 ≤ ${rate.loadedP99} ms): ratio ${rate.ratio}`,
        );
      }
      if (byCount.size > 1)
        console.log(`submissions over HTTP, each server at its best count: empty ${best.empty}/s, loaded ${best.loaded}/s: ratio ${best.ratio}`);
    }
  } finally {
    await e.server.stop();
    await l.server.stop();
  }
}

/** `n` of the bench fleet's proofs for the big wallet, through the store's batch writer. */
export async function writeGap(writer: ProofWriter, n: number): Promise<void> {
  for (let done = 0; done < n; done += 400) {
    const records = Array.from({ length: Math.min(400, n - done) }, () => scaleRecord({ wallet: BIG, envelope: fleetProof('gap') }));
    await writer.write(records.map((r) => ({ row: toRow(r), topics: r.topics })));
  }
}

export async function measureExisting(): Promise<void> {
  for (const dialect of DIALECTS) {
    const env = dialect === 'sqlite' ? ['SCALE_SQLITE_BIG', 'SCALE_SQLITE_EMPTY'] : ['SCALE_PG_BIG', 'SCALE_PG_EMPTY'];
    const big = await attach(dialect, process.env[env[0]!]!);
    const empty = await attach(dialect, process.env[env[1]!]!);
    try {
      const size = await proofCount(big.db);
      const sample = await sampleOf(big.db);
      // Whatever migrations the loading code lacked are applied and timed here.
      const applied = await appliedNames(big.db);
      const log = await integrateLog(big);
      console.log(`the transparency log: ${log.leaves.toLocaleString('en')} leaves integrated into its tiles in ${log.seconds} s (${log.steps} steps)`);
      await measureAt({ dialect, big, empty, migrated: migrations.every((m) => applied.has(m.name)) }, size, sample, applied);
    } finally {
      await big.drop();
      await empty.drop();
    }
  }
}
