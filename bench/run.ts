import { cpus } from 'node:os';
import { benchBatchVerify } from './batch-verify.js';
import { settle } from './child-server.js';
import { benchFleetOverview } from './fleet-overview.js';
import { fleetProofBodies } from './fleet-proofs.js';
import { benchLog } from './log.js';
import { dropPostgresDatabase as dropDatabase, freshPostgresDatabase as freshDatabase } from './provision.js';
import { benchReadersAndWriters, printReadersAndWriters } from './readers-and-writers.js';
import { benchSubmissions, printSubmissions } from './submissions.js';
import { benchSynchronous, printSynchronous } from './synchronous.js';
import { benchTwoInstances, type TwoInstanceFigures } from './two-instances.js';
import { benchWebhooks, printWebhooks, webhookOptionsFromEnv } from './webhooks.js';

/**
 * `npm run bench`: submission throughput and latency of POST /v1/proofs on SQLite and
 * PostgreSQL against two ceilings of this machine (a bare node:http server that only parses
 * and verifies, and the same plus a durable grouped insert), two instances on one PostgreSQL,
 * the transparency log, writes beside readers, batch verification against raw Ed25519, the
 * fleet overview at 5,000 devices, and what a webhook endpoint costs the submissions and how
 * late its deliveries arrive. Servers run in their own process; autocannon drives them from
 * this one. BENCH_PARTS picks some of them (comma-separated, in this order: batch,
 * submissions, synchronous, two-instances, log, readers, fleet, webhooks; default all).
 */
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
/**
 * Clients of the closed-loop loads (autocannon connections, each sending its next request as
 * the answer to the last arrives). The maximum rate is measured at each count, both servers at
 * the same count, and a server's maximum is its best of them: a server whose requests pass
 * through several threads has more of them in flight at its best than a one-thread server
 * does. The 500 req/s loads use the first.
 */
const CONNECTION_COUNTS = (process.env.BENCH_CONNECTIONS ?? '32,64').split(',').map(Number);
const CONNECTIONS = CONNECTION_COUNTS[0]!;
/** Maximum-rate rounds: each gives every server DURATION_S / ROUNDS seconds. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PG_BENCH_DB = 'proof_registry_bench';
const PARTS = ['batch', 'submissions', 'synchronous', 'two-instances', 'log', 'readers', 'fleet', 'webhooks'] as const;
const chosen = new Set((process.env.BENCH_PARTS ?? PARTS.join(',')).split(',').map((p) => p.trim()));
const unknown = [...chosen].filter((p) => !(PARTS as readonly string[]).includes(p));
if (unknown.length > 0) throw new Error(`BENCH_PARTS: unknown ${unknown.join(', ')} (parts: ${PARTS.join(', ')})`);
const want = (part: (typeof PARTS)[number]) => chosen.has(part);

const freshPostgresDatabase = () => freshDatabase(PG_BENCH_DB);
const dropPostgresDatabase = () => dropDatabase(PG_BENCH_DB);

/** Before each measurement: the previous one's aftermath must not be measured in it. */
async function quietMachine(before: string): Promise<void> {
  if (!(await settle())) console.warn(`warning: the machine was still busy before ${before}`);
}

function printTwoInstances(two: TwoInstanceFigures): void {
  console.log(
    `\n| two registry instances on one PostgreSQL (Redis ${two.redis ?? 'none'}), ${CONNECTIONS} connections each, at once | req/s | p50 ms | p99 ms | non-2xx+errors |`,
  );
  console.log('| --- | ---: | ---: | ---: | ---: |');
  two.instances.forEach((f, i) =>
    console.log(`| instance ${i + 1} | ${fmt(f.requestsPerSec)} | ${fmt(f.p50Ms, 1)} | ${fmt(f.p99Ms, 1)} | ${f.non2xx + f.errors} |`),
  );
  console.log(`| both | ${fmt(two.aggregatePerSec)} | | | |`);
  console.log(
    `\nAfter the run: ${fmt(two.acknowledged)} proofs acknowledged, ${fmt(two.stored)} rows stored for the wallet, ${two.missing} acknowledged and missing, ${two.duplicates} stored twice.`,
  );
  if (two.missing > 0 || two.duplicates > 0) throw new Error('two instances: an acknowledged proof is missing or stored twice');
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const pct = (a: number, b: number, digits = 0) => `${fmt((100 * a) / b, digits)}%`;

async function main(): Promise<void> {
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; ${DURATION_S} s per run, maximum rates at ${CONNECTION_COUNTS.join(' and ')} connections; parts: ${[...chosen].join(', ')}`,
  );
  const submissionOptions = { durationS: DURATION_S, connectionCounts: CONNECTION_COUNTS, rounds: ROUNDS };
  // First, before this process holds the HTTP runs' request bodies and autocannon's state:
  // the pool's main thread is this process's, and it checks every envelope up to its signature.
  if (want('batch')) await quietMachine('batch verification');
  const batch = want('batch') ? await benchBatchVerify() : null;
  const submissions = want('submissions') ? await benchSubmissions(submissionOptions) : null;
  if (want('synchronous')) await quietMachine('SQLite with synchronous full and normal');
  const synchronousOptions = { rounds: ROUNDS, sliceS: DURATION_S / ROUNDS, connections: CONNECTION_COUNTS.at(-1)! };
  const synchronous = want('synchronous') ? await benchSynchronous(synchronousOptions) : null;

  if (want('two-instances')) {
    // Two instances on one PostgreSQL database, at once, each with its own proofs.
    const twoBodies = [fleetProofBodies(DURATION_S * 5_000, 'bench-two-a'), fleetProofBodies(DURATION_S * 5_000, 'bench-two-b')] as const;
    const twoUrl = await freshPostgresDatabase();
    await quietMachine('two instances on PostgreSQL');
    const two = await benchTwoInstances(twoUrl, [twoBodies[0], twoBodies[1]], CONNECTIONS, DURATION_S);
    await dropPostgresDatabase();
    printTwoInstances(two);
  }

  if (want('log')) {
    await quietMachine('the transparency log');
    // Printed here, before the tables below: log on and off in turns, inclusion proofs at 1,000,000 leaves, checkpoint latency.
    await benchLog({ rounds: ROUNDS, sliceS: DURATION_S / ROUNDS, connections: CONNECTIONS, treeSize: 1_000_000 });
  }

  if (want('readers')) await quietMachine('PostgreSQL writes beside readers');
  const readersAndWriters = want('readers') ? await benchReadersAndWriters() : null;
  const fleet = want('fleet') ? { sqlite: await benchFleetOverview('sqlite'), postgres: await benchFleetOverview('postgres') } : null;

  // Submissions with one webhook endpoint against none, in turns, and the deliveries' latency at 500/s.
  const webhookOptions = webhookOptionsFromEnv();
  if (want('webhooks')) await quietMachine('events and webhooks');
  const webhooks = want('webhooks') ? await benchWebhooks(webhookOptions) : null;

  if (submissions) printSubmissions(submissions, submissionOptions);
  if (synchronous) printSynchronous(synchronous, synchronousOptions);
  if (readersAndWriters) printReadersAndWriters(readersAndWriters);
  if (batch) {
    console.log('\n| batch verify (1,000 × 2 KB) | envelopes/s | vs raw Ed25519 |');
    console.log('| --- | ---: | --- |');
    console.log(`| raw node:crypto Ed25519 verify, all cores | ${fmt(batch.rawVerifyPerSec)} | 100% |`);
    console.log(`| raw libsodium Ed25519 verify, all cores | ${fmt(batch.rawSodiumPerSec)} | ${pct(batch.rawSodiumPerSec, batch.rawVerifyPerSec)} |`);
    console.log(`| inline (one thread) | ${fmt(batch.inlinePerSec)} | ${pct(batch.inlinePerSec, batch.rawVerifyPerSec)} |`);
    console.log(`| worker pool (all cores) | ${fmt(batch.poolPerSec)} | ${pct(batch.poolPerSec, batch.rawVerifyPerSec)} |`);
  }
  if (fleet) {
    console.log('\n| GET /v1/fleet, 5,000 devices, 200,000 proofs | p50 ms | p99 ms |');
    console.log('| --- | ---: | ---: |');
    for (const [name, f] of [
      ['SQLite', fleet.sqlite],
      ['PostgreSQL', fleet.postgres],
    ] as const)
      console.log(`| ${name} | ${fmt(f.overview.p50Ms, 1)} | ${fmt(f.overview.p99Ms, 1)} |`);
  }
  if (webhooks) printWebhooks(webhooks, webhookOptions);
}

await main();
