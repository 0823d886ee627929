/**
 * Which instance runs a job that must run on one at a time (the offline sweep, the webhook
 * fan-out, retention): taken when free, expired or already the holder's, for `ttlMs`.
 */
export interface JobLease {
  acquire(job: string, holder: string, nowMs: number, ttlMs: number): Promise<boolean>;
  release(job: string, holder: string): Promise<void>;
}
