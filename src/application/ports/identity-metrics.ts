export type GateDecision = 'allowed' | 'denied' | 'grace' | 'unavailable';
export type BalanceLookupResult = 'hit' | 'miss' | 'coalesced' | 'stale' | 'unavailable';

/** What identity reports for monitoring; the Prometheus adapter implements it. */
export interface IdentityMetrics {
  /** A refused credential or sign-in, by reason (snake_case failure tag). */
  authFailure(reason: string): void;
  gateDecision(decision: GateDecision): void;
  balanceLookup(result: BalanceLookupResult): void;
}

export const NO_IDENTITY_METRICS: IdentityMetrics = {
  authFailure: () => undefined,
  gateDecision: () => undefined,
  balanceLookup: () => undefined,
};
