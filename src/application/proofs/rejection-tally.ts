import { floorTo } from '../../domain/stats/buckets.js';
import { BufferedTally } from '../dashboard/buffered-tally.js';
import type { HourRejections, ProofRejectionLog, SubmissionRefusals } from '../ports/usage-series.js';

/** Proof submissions refused, by wallet and UTC hour, for the "invalid submissions" chart. */
export class RejectionTally extends BufferedTally<HourRejections> implements SubmissionRefusals {
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
