import { floorTo } from '../../domain/stats/buckets.js';
import { BufferedTally } from '../dashboard/buffered-tally.js';
import type { KeyDayUsage, KeyEndpointDayUsage, KeyUsageHistory } from '../ports/usage-series.js';

/**
 * Requests made with each API key, by UTC day (status ≥ 400 is an error), for the per-key
 * chart. Counted wherever the key's usage totals are, and written with them.
 */
export class KeyDayTally extends BufferedTally<KeyDayUsage> {
  constructor(history: Pick<KeyUsageHistory, 'add'>) {
    super(
      (r) => `${r.keyId} ${r.dayMs}`,
      (a, b) => ({ ...a, requests: a.requests + b.requests, errors: a.errors + b.errors }),
      (rows) => history.add(rows),
    );
  }

  record(keyId: string, status: number, atMs: number): void {
    this.add({ keyId, dayMs: floorTo(atMs, 'day'), requests: 1, errors: status >= 400 ? 1 : 0 });
  }
}

/**
 * The same, per endpoint (method and route template, never the path itself: a device's id in
 * a path would make one row per device). Requests that matched no route are not counted here.
 */
export class KeyEndpointTally extends BufferedTally<KeyEndpointDayUsage> {
  constructor(history: Pick<KeyUsageHistory, 'addByEndpoint'>) {
    super(
      (r) => `${r.keyId} ${r.dayMs} ${r.endpoint}`,
      (a, b) => ({ ...a, requests: a.requests + b.requests, errors: a.errors + b.errors }),
      (rows) => history.addByEndpoint(rows),
    );
  }

  record(keyId: string, endpoint: string, status: number, atMs: number): void {
    this.add({ keyId, dayMs: floorTo(atMs, 'day'), endpoint, requests: 1, errors: status >= 400 ? 1 : 0 });
  }
}
