import { ContainerModule } from 'inversify';
import { createProofProtocol } from '../adapters/crypto/proof-protocol-factory.js';
import { MeasuredProofChecker, MeasuredProofProtocol, MeasuredProofStore } from '../adapters/metrics/measured-proof-protocol.js';
import { proofExportRoutes } from '../adapters/http/routes/proof-export-routes.js';
import { proofRoutes } from '../adapters/http/routes/proof-routes.js';
import { KnexProofStore } from '../adapters/sql/knex-proof-store.js';
import { KnexProofRejectionLog } from '../adapters/sql/knex-proof-rejection-log.js';
import { ThreadedProofWriter } from '../adapters/sql/threaded-proof-writer.js';
import { startVerifyPool } from '../adapters/workers/verify-pool.js';
import { WorkerBatchVerifier } from '../adapters/workers/worker-batch-verifier.js';
import { WorkerProofChecker } from '../adapters/workers/worker-proof-checker.js';
import { ExportProofs } from '../application/proofs/export-proofs.js';
import { GetProof } from '../application/proofs/get-proof.js';
import { RejectionTally } from '../application/proofs/rejection-tally.js';
import { ScoreProof } from '../application/proofs/score-proof.js';
import { SearchProofs } from '../application/proofs/search-proofs.js';
import { SubmitProof } from '../application/proofs/submit-proof.js';
import { VerifyBatch } from '../application/proofs/verify-batch.js';
import { VerifyEnvelope } from '../application/proofs/verify-envelope.js';
import { defaultPolicyScorer } from '../application/proofs/default-policy-scorer.js';
import { KnexWalletStats } from '../adapters/sql/knex-wallet-stats.js';
import type { Config } from '../config.js';
import { helperNice } from './core.module.js';
import { CORE } from './core.tokens.js';
import { EVENTS } from './events.tokens.js';
import { PROOFS } from './proofs.tokens.js';
import type { Slice } from './slice.js';
import { provide } from './token.js';

const limitsOf = ({ maxDepth, maxEvents, maxBatch }: Config) => ({ maxDepth, maxEvents, maxBatch });

const module = new ContainerModule(({ bind }) => {
  provide(bind, PROOFS.Protocol, [CORE.Config], (config) => createProofProtocol({ limits: limitsOf(config) }));
  provide(bind, PROOFS.MeasuredProtocol, [PROOFS.Protocol, CORE.Metrics], (protocol, metrics) => new MeasuredProofProtocol(protocol, metrics));

  // Verify workers, sized by VERIFY_WORKERS (0: one per core), judging as this thread's protocol does.
  provide(bind, PROOFS.VerifyPool, [CORE.Config, CORE.Lifecycle], async (config, lifecycle) => {
    const pool = await startVerifyPool({
      ...(config.verifyWorkers > 0 ? { size: config.verifyWorkers } : {}),
      protocol: { limits: limitsOf(config) },
      niceIncrement: helperNice(config),
    });
    lifecycle.onStop(() => pool.close());
    return pool;
  });
  // Submissions are checked on the verify workers, off the event loop.
  provide(
    bind,
    PROOFS.Checker,
    [PROOFS.VerifyPool, PROOFS.Protocol, CORE.Metrics],
    (pool, protocol, metrics) => new MeasuredProofChecker(new WorkerProofChecker(pool, protocol), metrics),
  );
  provide(bind, PROOFS.BatchVerifier, [PROOFS.VerifyPool, PROOFS.Protocol], (pool, protocol) => new WorkerBatchVerifier(pool, protocol));

  // The writer thread for databases a second connection can reach: an SQLite file or
  // PostgreSQL. `sqlite::memory:` lives in this connection only.
  provide(bind, PROOFS.WriterThread, [CORE.Config, CORE.Database, CORE.Logger, CORE.Lifecycle], async (config, database, logger, lifecycle) => {
    if (!config.writerThread) return null;
    const writer = await ThreadedProofWriter.forDatabase(database, {
      onDriverWarning: (detail) => logger.warn({ detail, thread: 'writer' }, 'database driver'),
      niceIncrement: helperNice(config),
      sequence: config.logEnabled,
    });
    if (writer) lifecycle.onStop(() => writer.close());
    return writer;
  });
  provide(
    bind,
    PROOFS.Store,
    [CORE.Database, PROOFS.WriterThread, CORE.Metrics, CORE.Config],
    (database, writer, metrics, config) =>
      new KnexProofStore(database, {
        ...(writer ? { writer } : {}),
        sequence: config.logEnabled,
        onBatch: (proofs) => metrics.writeBatchProofs.observe(proofs),
      }),
  );

  // Refused submissions are counted per wallet and hour for the "invalid submissions" series,
  // in memory on the request's path and written once a second.
  provide(bind, PROOFS.RejectionLog, [CORE.Database], (database) => new KnexProofRejectionLog(database));
  provide(bind, PROOFS.Rejections, [PROOFS.RejectionLog, CORE.Lifecycle], (log, lifecycle) => {
    const tally = new RejectionTally(log);
    lifecycle.flushEvery(1000, () => tally.flush(), 'writing refused-submission counts failed; will retry');
    return tally;
  });

  // Each accepted proof is scored once as it is received; its writer sums the score into the
  // wallet's statistics, which verification calls move too.
  provide(bind, PROOFS.Scorer, [], () => defaultPolicyScorer);
  provide(bind, PROOFS.WalletStats, [CORE.Database], (database) => new KnexWalletStats(database));
  provide(
    bind,
    PROOFS.SubmitProof,
    [PROOFS.Checker, PROOFS.Store, CORE.Metrics, CORE.Clock, PROOFS.Rejections, PROOFS.Scorer, EVENTS.Rejections],
    (checker, store, metrics, clock, rejections, scorer, announced) =>
      new SubmitProof(checker, new MeasuredProofStore(store, metrics), clock, rejections, scorer, announced),
  );
  provide(bind, PROOFS.GetProof, [PROOFS.Store], (store) => new GetProof(store));
  provide(bind, PROOFS.SearchProofs, [PROOFS.Store], (store) => new SearchProofs(store));
  provide(bind, PROOFS.ExportProofs, [PROOFS.Store], (store) => new ExportProofs(store));
  provide(
    bind,
    PROOFS.VerifyBatch,
    [PROOFS.BatchVerifier, PROOFS.WalletStats, CORE.Clock],
    (verifier, store, clock) => new VerifyBatch(verifier, { store, clock }),
  );
  provide(
    bind,
    PROOFS.VerifyEnvelope,
    [PROOFS.MeasuredProtocol, PROOFS.WalletStats, CORE.Clock],
    (protocol, store, clock) => new VerifyEnvelope(protocol, { store, clock }),
  );
  provide(bind, PROOFS.ScoreProof, [PROOFS.MeasuredProtocol, PROOFS.Store, CORE.Clock], (protocol, store, clock) => new ScoreProof(protocol, store, clock));

  provide(
    bind,
    PROOFS.Routes,
    [
      PROOFS.SubmitProof,
      PROOFS.GetProof,
      PROOFS.SearchProofs,
      PROOFS.ExportProofs,
      PROOFS.VerifyEnvelope,
      PROOFS.VerifyBatch,
      PROOFS.ScoreProof,
      PROOFS.MeasuredProtocol,
      CORE.Metrics,
      CORE.Config,
      CORE.Clock,
    ],
    (submit, get, search, exportProofs, verify, verifyBatch, score, protocol, metrics, config, clock) => [
      // Before GET /v1/proofs/{proof_id}, which would take "export" for a proof id.
      ...proofExportRoutes({ exportProofs, clock }),
      ...proofRoutes({
        submit,
        get,
        search,
        verify,
        verifyBatch,
        score,
        protocol,
        metrics,
        batchBodyLimitBytes: config.batchBodyLimitBytes,
        maxBatch: config.maxBatch,
      }),
    ],
  );
});

/** Submitting, reading, searching, verifying and scoring proofs. */
export const proofsSlice: Slice = { name: 'proofs', module, routes: PROOFS.Routes };
