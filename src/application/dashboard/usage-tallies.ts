import { DAY_MS, floorTo } from '../../domain/stats/buckets.js';
import type { HourRejections, KeyDayUsage, KeyUsageHistory, ProofRejectionLog } from '../ports/usage-series.js';
import { BufferedTally } from './buffered-tally.js';

/** Requests made with each API key, by UTC day (status ≥ 400 is an error), for the per-key chart. */
export class KeyDayTally extends BufferedTally<KeyDayUsage> {
  constructor(history: Pick<KeyUsageHistory, 'add'>) {
    super(
      (r) => `${r.keyId} ${r.dayMs}`,
      (a, b) => ({ ...a, requests: a.requests + b.requests, errors: a.errors + b.errors }),
      (rows) => history.add(rows),
    );
  }

  record(keyId: string, status: number, atMs: number): void {
    this.add({ keyId, dayMs: Math.floor(atMs / DAY_MS) * DAY_MS, requests: 1, errors: status >= 400 ? 1 : 0 });
  }
}

/** Proof submissions refused, by wallet and UTC hour, for the "invalid submissions" chart. */
export class RejectionTally extends BufferedTally<HourRejections> {
  constructor(log: Pick<ProofRejectionLog, 'add'>) {
    super(
      (r) => `${r.wallet} ${r.hourMs}`,
      (a, b) => ({ ...a, count: a.count + b.count }),
      (rows) => log.add(rows),
    );
  }

  record(wallet: string, atMs: number): void {
    this.add({ wallet, hourMs: floorTo(atMs, 'hour'), count: 1 });
  }
}
