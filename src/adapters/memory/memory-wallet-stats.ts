import type { DayActivity, NamedCount, WalletActivity, WalletStatsStore, WalletTotals } from '../../application/ports/wallet-stats.js';
import { NO_TOTALS } from '../../application/ports/wallet-stats.js';
import type { ProofRecord } from '../../domain/proof/proof-record.js';
import { byteOrder } from '../random-ids.js';
import type { StoredProofListener } from './memory-proof-store.js';

const DAY_MS = 86_400_000;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

interface WalletFigures {
  totals: Mutable<WalletTotals>;
  tasks: Map<string, number>;
  robots: Map<string, number>;
  days: Map<number, { proofs: number; verifications: number }>;
}

/**
 * In-memory WalletStatsStore, moved by each stored proof as the SQL writers move theirs: give
 * it to a MemoryProofStore as its listener (with `alsoTell` for a MemoryFleet). Passes the
 * same contract suite as the SQL store.
 */
export class MemoryWalletStats implements WalletStatsStore, StoredProofListener {
  private readonly wallets = new Map<string, WalletFigures>();

  constructor(private readonly alsoTell?: StoredProofListener) {}

  proofStored(record: ProofRecord): void {
    this.alsoTell?.proofStored(record);
    const f = this.figures(record.wallet);
    f.totals.proofsSubmitted++;
    if (record.score !== undefined && record.score !== null) {
      f.totals.scoredProofs++;
      f.totals.scoreSum += record.score;
    }
    this.active(f, record.receivedAtMs);
    f.tasks.set(record.taskId, (f.tasks.get(record.taskId) ?? 0) + 1);
    if (record.robotId !== null) f.robots.set(record.robotId, (f.robots.get(record.robotId) ?? 0) + 1);
    this.day(f, record.receivedAtMs).proofs++;
  }

  async recordVerifications(wallet: string, atMs: number, successful: number, failed: number): Promise<void> {
    if (successful + failed === 0) return;
    const f = this.figures(wallet);
    f.totals.verificationsSuccessful += successful;
    f.totals.verificationsFailed += failed;
    this.active(f, atMs);
    this.day(f, atMs).verifications += successful + failed;
  }

  async countTasks(wallet: string): Promise<number> {
    return this.wallets.get(wallet)?.tasks.size ?? 0;
  }

  async read(wallet: string, q: { top: number; fromDayMs: number; toDayMs: number }): Promise<WalletActivity> {
    const f = this.wallets.get(wallet);
    if (!f) return { totals: NO_TOTALS, topRobots: [], topTasks: [], days: [] };
    const top = (m: Map<string, number>): NamedCount[] =>
      [...m.entries()]
        .map(([name, count]) => ({ name, count }))
        .sort((a, b) => b.count - a.count || byteOrder(a.name, b.name))
        .slice(0, q.top);
    const days: DayActivity[] = [...f.days.entries()]
      .filter(([dayMs]) => dayMs >= q.fromDayMs && dayMs <= q.toDayMs)
      .sort(([a], [b]) => a - b)
      .map(([dayMs, d]) => ({ dayMs, ...d }));
    return { totals: { ...f.totals }, topRobots: top(f.robots), topTasks: top(f.tasks), days };
  }

  private figures(wallet: string): WalletFigures {
    let f = this.wallets.get(wallet);
    if (!f) this.wallets.set(wallet, (f = { totals: { ...NO_TOTALS }, tasks: new Map(), robots: new Map(), days: new Map() }));
    return f;
  }

  private active(f: WalletFigures, atMs: number): void {
    f.totals.firstActivityMs = Math.min(f.totals.firstActivityMs ?? atMs, atMs);
    f.totals.lastActivityMs = Math.max(f.totals.lastActivityMs ?? atMs, atMs);
  }

  private day(f: WalletFigures, atMs: number): { proofs: number; verifications: number } {
    const dayMs = atMs - (atMs % DAY_MS);
    let d = f.days.get(dayMs);
    if (!d) f.days.set(dayMs, (d = { proofs: 0, verifications: 0 }));
    return d;
  }
}
