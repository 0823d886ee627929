import type { ReceivedEnvelope } from '../../domain/protocol/acto-hashes.js';
import type { BatchVerifier } from '../ports/batch-verifier.js';
import type { Clock } from '../ports/clock.js';
import type { WalletStatsStore } from '../ports/wallet-stats.js';
import type { VerificationReport } from './verify-proof.js';

export interface BatchResult {
  readonly results: ReadonlyArray<VerificationReport & { readonly index: number }>;
  readonly total: number;
  readonly valid_count: number;
  readonly invalid_count: number;
}

/**
 * Verifies up to the batch limit of envelopes; stores nothing but the calls: each envelope
 * counts as one verification in the caller's statistics (`wallet`), passed or failed.
 */
export class VerifyBatch {
  constructor(
    private readonly verifier: BatchVerifier,
    private readonly stats?: { readonly store: Pick<WalletStatsStore, 'recordVerifications'>; readonly clock: Clock },
  ) {}

  /** `received`: each envelope as received, numbers' text kept (see BatchVerifier). */
  async execute(envelopes: readonly unknown[], wallet?: string, received?: (index: number) => ReceivedEnvelope): Promise<BatchResult> {
    const reports = await this.verifier.verifyMany(envelopes, received);
    const results = reports.map((r, index) => ({ index, ...r }));
    const valid = results.filter((r) => r.valid).length;
    if (wallet !== undefined && this.stats) await this.stats.store.recordVerifications(wallet, this.stats.clock.nowMs(), valid, results.length - valid);
    return { results, total: results.length, valid_count: valid, invalid_count: results.length - valid };
  }
}
