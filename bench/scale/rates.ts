import { authHeaders } from '../../test/support/test-authenticator.js';
import { machineTimes, type ChildServer } from '../child-server.js';
import { fleetProof } from '../fleet-proofs.js';
import { load } from '../http-load.js';
import { BIG } from '../scale-data.js';
import { RATE_SLICE_S, RATE_ROUNDS, RATE_CONNECTIONS, SUSTAINED_S, SUSTAINED_SLICE_S } from './config.js';
import { type Target, walCounters } from './target.js';

// The submission rates of the scale bench: a loaded server against an empty one, in turns or sustained.
/**
 * One slice of submissions at the maximum rate, fresh proofs for the big wallet, printed as a
 * line. On PostgreSQL the line also gives the WAL the slice wrote a proof (the server's
 * counters, so whatever else wrote meanwhile counts too), the checkpoints that began during
 * it and any vacuum under way: a B-tree page's first change after a checkpoint writes the
 * whole page to the WAL (a full-page image).
 */
export async function rateSlice(
  label: string,
  server: ChildServer,
  db: Target,
  seconds: number,
  bodiesPerSecond: number,
  connections: number,
): Promise<{ requestsPerSec: number; p99Ms: number; proofs: number }> {
  const bodies = Array.from({ length: seconds * bodiesPerSecond }, () => JSON.stringify({ envelope: fleetProof('scale') }));
  const before = await walCounters(db);
  const [cpu0, machine0] = [server.cpuSeconds(), machineTimes()];
  const figures = await load({ url: server.url, path: '/v1/proofs', headers: authHeaders(BIG), bodies, connections, durationS: seconds });
  const [cpu1, machine1] = [server.cpuSeconds(), machineTimes()];
  if (figures.non2xx > 0 || figures.errors > 0) throw new Error(`${label}: ${figures.non2xx} non-2xx and ${figures.errors} errors`);
  const after = await walCounters(db);
  const proofs = Math.max(1, Math.round(figures.requestsPerSec * seconds));
  // The server's CPU a request (all its threads) and how busy the machine was: a server that
  // leaves the machine idle is waiting, not working, and more clients would raise its rate.
  const cpu =
    cpu0 !== null && cpu1 !== null && machine0 && machine1
      ? `; server ${Math.round(((cpu1 - cpu0) / proofs) * 1e6)} µs CPU a request, machine ${Math.round(((machine1.busy - machine0.busy) / (machine1.total - machine0.total)) * 100)}% busy`
      : '';
  const wal =
    before && after
      ? `; WAL a proof ${Math.round((after.bytes - before.bytes) / proofs).toLocaleString('en')} bytes, ${((after.records - before.records) / proofs).toFixed(1)} records, ` +
        `${((after.fpi - before.fpi) / proofs).toFixed(2)} full-page images; checkpoints begun ${after.checkpoints - before.checkpoints}` +
        (before.vacuuming || after.vacuuming ? `; vacuum running: ${before.vacuuming || '-'} → ${after.vacuuming || '-'}` : '')
      : '';
  console.log(`  ${label}: ${Math.round(figures.requestsPerSec)}/s, p99 ${figures.p99Ms} ms${cpu}${wal}`);
  return { requestsPerSec: figures.requestsPerSec, p99Ms: figures.p99Ms, proofs };
}

export interface Rates {
  readonly empty: number;
  readonly loaded: number;
  readonly ratio: number;
  readonly emptyP99: number;
  readonly loadedP99: number;
}

/**
 * Submission rate over HTTP, the empty database and the loaded one in turns, in short rounds,
 * at each of RATE_CONNECTIONS: by count, and each server at its best count.
 */
export async function submissionRates(empty: ChildServer, loaded: ChildServer, db: Target): Promise<{ byCount: Map<number, Rates>; best: Rates }> {
  const byCount = new Map<number, Rates>();
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  for (const connections of RATE_CONNECTIONS) {
    const rates = { empty: [] as number[], loaded: [] as number[], emptyP99: [] as number[], loadedP99: [] as number[] };
    for (let round = 0; round < RATE_ROUNDS; round++) {
      const order: Array<['empty' | 'loaded', ChildServer]> =
        round % 2 === 0
          ? [
              ['empty', empty],
              ['loaded', loaded],
            ]
          : [
              ['loaded', loaded],
              ['empty', empty],
            ];
      for (const [name, server] of order) {
        const figures = await rateSlice(`${connections} connections, round ${round + 1}, ${name}`, server, db, RATE_SLICE_S, 6_000, connections);
        rates[name].push(figures.requestsPerSec);
        rates[`${name}P99`].push(figures.p99Ms);
      }
    }
    const e = mean(rates.empty);
    const l = mean(rates.loaded);
    byCount.set(connections, {
      empty: Math.round(e),
      loaded: Math.round(l),
      ratio: Math.round((l / e) * 100) / 100,
      emptyP99: Math.max(...rates.emptyP99),
      loadedP99: Math.max(...rates.loadedP99),
    });
  }
  const bestOf = (name: 'empty' | 'loaded') => [...byCount.values()].reduce((a, b) => (b[name] > a[name] ? b : a));
  const [e, l] = [bestOf('empty'), bestOf('loaded')];
  return {
    byCount,
    best: { empty: e.empty, loaded: l.loaded, ratio: Math.round((l.loaded / e.empty) * 100) / 100, emptyP99: e.emptyP99, loadedP99: l.loadedP99 },
  };
}

/**
 * SCALE_SUSTAINED_S: each server alone at its maximum rate for that long, the loaded one
 * first, each from a checkpoint of its own (PostgreSQL), in slices of 30 s. The slices' WAL
 * shows the full-page images of the first changes to each B-tree page after the checkpoint
 * die away as the pages are written again: the rate of a whole checkpoint cycle, which the
 * short rounds of submissionRates (at whatever point of the cycle they fall) do not give.
 */
export async function sustainedRates(
  empty: ChildServer,
  loaded: ChildServer,
  emptyDb: Target,
  loadedDb: Target,
): Promise<{ empty: number; loaded: number; ratio: number }> {
  const totals = { empty: 0, loaded: 0 };
  for (const [name, server, db] of [
    ['loaded', loaded, loadedDb],
    ['empty', empty, emptyDb],
  ] as const) {
    if (db.dialect === 'postgres') await db.db.knex.raw('checkpoint');
    let proofs = 0;
    for (let elapsed = 0; elapsed < SUSTAINED_S; elapsed += SUSTAINED_SLICE_S) {
      proofs += (await rateSlice(`${name}, ${elapsed}–${elapsed + SUSTAINED_SLICE_S} s`, server, db, SUSTAINED_SLICE_S, 2_500, RATE_CONNECTIONS[0]!)).proofs;
    }
    totals[name] = proofs / SUSTAINED_S;
  }
  return { empty: Math.round(totals.empty), loaded: Math.round(totals.loaded), ratio: Math.round((totals.loaded / totals.empty) * 100) / 100 };
}
