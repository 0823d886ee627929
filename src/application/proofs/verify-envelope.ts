import type { ReceivedEnvelope } from '../../domain/protocol/acto-hashes.js';
import type { ProofProtocol } from './proof-protocol.js';
import type { WalletStatsStore } from '../ports/wallet-stats.js';
import type { Clock } from '../ports/clock.js';
import { toReport, type VerificationReport } from './verify-proof.js';

/** Verifies one envelope; stores nothing but the call, counted in the caller's statistics. */
export class VerifyEnvelope {
  constructor(
    private readonly protocol: ProofProtocol,
    private readonly stats?: { readonly store: Pick<WalletStatsStore, 'recordVerifications'>; readonly clock: Clock },
  ) {}

  /** `received`: the same envelope as received, numbers' text kept, so the ACTO form is judged exactly. */
  async execute(envelope: unknown, wallet?: string, received?: ReceivedEnvelope): Promise<VerificationReport> {
    const report = toReport(this.protocol.check(envelope, received));
    if (wallet !== undefined && this.stats)
      await this.stats.store.recordVerifications(wallet, this.stats.clock.nowMs(), report.valid ? 1 : 0, report.valid ? 0 : 1);
    return report;
  }
}
