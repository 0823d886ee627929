import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The service's Prometheus metrics. One registry per app instance, so several apps in one
 * process (tests, embedding) never share or double-register series.
 */
export class HttpMetrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly proofsSubmitted = new Counter({
    name: 'proofs_submitted_total',
    help: 'Proof submissions by outcome (stored, duplicate, rejected) and rejection reason.',
    labelNames: ['outcome', 'reason'] as const,
    registers: [this.registry],
  });
  readonly verificationSeconds = new Histogram({
    name: 'proof_verification_seconds',
    help: 'Time to verify one envelope (shape, hashes, signature).',
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05],
    registers: [this.registry],
  });
  readonly storeSeconds = new Histogram({
    name: 'proof_store_seconds',
    help: 'Time from handing a verified proof to the store until it is committed or found stored already, the wait for its turn in a write transaction included.',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [this.registry],
  });
  readonly writeBatchProofs = new Histogram({
    name: 'proof_write_batch_proofs',
    help: 'Proofs per write transaction: submissions that arrive while one commits go in together.',
    buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500],
    registers: [this.registry],
  });
  readonly envelopesVerified = new Counter({
    name: 'envelopes_verified_total',
    help: 'Envelopes checked by /v1/verify and /v1/verify/batch, by result.',
    labelNames: ['valid'] as const,
    registers: [this.registry],
  });
  readonly databaseErrors = new Counter({
    name: 'database_errors_total',
    help: 'Requests that failed because the database did not answer or failed.',
    registers: [this.registry],
  });
  readonly healthReports = new Counter({
    name: 'fleet_health_reports_total',
    help: 'Device health reports received, by reported status (ok, degraded, error).',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  constructor(options: { defaultMetrics?: boolean } = {}) {
    if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry });
  }
}
