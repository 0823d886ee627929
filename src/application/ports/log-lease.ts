/**
 * Who integrates the log and signs its checkpoints: one instance at a time, for a while. The
 * log stays correct without it (integrating is a compare-and-set on the tree size, publishing
 * takes only a larger checkpoint), so the lease only keeps several instances from doing the
 * same work, and lets another take over when the holder stops renewing it (crash, kill -9).
 */
export interface LogLease {
  /** Takes or renews the lease for `holder` until `nowMs + ttlMs`; false while another holds it. */
  acquire(holder: string, nowMs: number, ttlMs: number): Promise<boolean>;
  /** Gives the lease up if `holder` has it, so another instance need not wait for it to expire. */
  release(holder: string): Promise<void>;
}
