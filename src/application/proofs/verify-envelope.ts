import type { ProofProtocol } from '../proof-protocol.js';
import type { WalletStatsStore } from '../ports/wallet-stats.js';
import type { Clock } from '../ports/clock.js';
import { toReport, type VerificationReport } from '../verify-proof.js';

/** Verifies one envelope; stores nothing but the call, counted in the caller's statistics. */
export class VerifyEnvelope {
  constructor(
    private readonly protocol: ProofProtocol,
    private readonly stats?: { readonly store: Pick<WalletStatsStore, 'recordVerifications'>; readonly clock: Clock },
  ) {}

  async execute(envelope: unknown, wallet?: string): Promise<VerificationReport> {
    const report = toReport(this.protocol.check(envelope));
    if (wallet !== undefined && this.stats) await this.stats.store.recordVerifications(wallet, this.stats.clock.nowMs(), report.valid ? 1 : 0, report.valid ? 0 : 1);
    return report;
  }
}
