import { Counter, Histogram, type Registry } from 'prom-client';
import type { BalanceLookupResult, GateDecision, IdentityMetrics } from '../../application/ports/identity-metrics.js';
import type { BalanceSourceFailure } from '../../application/ports/token-balance.js';
import type { SolanaRpcObserver } from '../solana/solana-token-balance.js';

/**
 * Identity metrics in Prometheus form, registered on the service's registry. The cache hit
 * ratio is `sum(rate(balance_cache_lookups_total{result="hit"}[5m])) /
 * sum(rate(balance_cache_lookups_total[5m]))`.
 */
export class PromIdentityMetrics implements IdentityMetrics, SolanaRpcObserver {
  private readonly failures: Counter<'reason'>;
  private readonly decisions: Counter<'decision'>;
  private readonly lookups: Counter<'result'>;
  private readonly rpcSeconds: Histogram<'method' | 'outcome'>;
  private readonly rpcErrors: Counter<'method' | 'kind'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.failures = new Counter({ name: 'auth_failures_total', help: 'Refused credentials and sign-ins, by reason.', labelNames: ['reason'], registers });
    this.decisions = new Counter({
      name: 'token_gate_decisions_total',
      help: 'Token gate decisions: allowed, denied (below minimum), grace (source down, recent pass honoured), unavailable (503).',
      labelNames: ['decision'],
      registers,
    });
    this.lookups = new Counter({
      name: 'balance_cache_lookups_total',
      help: 'Balance lookups by result: hit (fresh cache), miss (fetched), coalesced (shared an in-flight fetch), stale (grace), unavailable.',
      labelNames: ['result'],
      registers,
    });
    this.rpcSeconds = new Histogram({
      name: 'solana_rpc_duration_seconds',
      help: 'Solana JSON-RPC call latency by method and outcome.',
      labelNames: ['method', 'outcome'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.rpcErrors = new Counter({
      name: 'solana_rpc_errors_total',
      help: 'Failed Solana JSON-RPC calls by method and kind.',
      labelNames: ['method', 'kind'],
      registers,
    });
  }

  authFailure(reason: string): void {
    this.failures.inc({ reason });
  }

  gateDecision(decision: GateDecision): void {
    this.decisions.inc({ decision });
  }

  balanceLookup(result: BalanceLookupResult): void {
    this.lookups.inc({ result });
  }

  observe(method: string, outcome: 'ok' | BalanceSourceFailure, seconds: number): void {
    this.rpcSeconds.observe({ method, outcome }, seconds);
    if (outcome !== 'ok') this.rpcErrors.inc({ method, kind: outcome });
  }
}
