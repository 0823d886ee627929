import type { AnyRoute } from '../adapters/http/route.js';
import type { ThreadedProofWriter } from '../adapters/sql/threaded-proof-writer.js';
import type { WorkerPool } from '../adapters/workers/worker-pool.js';
import type { BatchVerifier } from '../application/ports/batch-verifier.js';
import type { ProofChecker } from '../application/ports/proof-checker.js';
import type { ProofStore } from '../application/ports/proof-store.js';
import type { ProofRejectionLog } from '../application/ports/usage-series.js';
import type { ProofProtocol } from '../application/proofs/proof-protocol.js';
import type { ExportProofs } from '../application/proofs/export-proofs.js';
import type { GetProof } from '../application/proofs/get-proof.js';
import type { RejectionTally } from '../application/proofs/rejection-tally.js';
import type { ScoreProof } from '../application/proofs/score-proof.js';
import type { SearchProofs } from '../application/proofs/search-proofs.js';
import type { SubmitProof } from '../application/proofs/submit-proof.js';
import type { VerifyBatch } from '../application/proofs/verify-batch.js';
import type { VerifyEnvelope } from '../application/proofs/verify-envelope.js';
import type { ProofScorer } from '../application/ports/proof-scorer.js';
import type { WalletStatsStore } from '../application/ports/wallet-stats.js';
import { token } from './token.js';

/** The proofs slice: the protocol, where proofs are checked and written, and the proof use cases. */
export const PROOFS = {
  /** The protocol on this thread, with the configured limits (the verify workers build theirs alike). */
  Protocol: token<ProofProtocol>('proofs.Protocol'),
  /** The same, every check timed into proof_verification_seconds: what the routes and use cases use. */
  MeasuredProtocol: token<ProofProtocol>('proofs.MeasuredProtocol'),
  /** The verify worker threads, shared by the checker and the batch verifier. */
  VerifyPool: token<WorkerPool>('proofs.VerifyPool'),
  /** Where submissions are checked: on the verify workers. */
  Checker: token<ProofChecker>('proofs.Checker'),
  BatchVerifier: token<BatchVerifier>('proofs.BatchVerifier'),
  /** The writer thread (WRITER_THREAD) where another connection can reach the data; else null. */
  WriterThread: token<ThreadedProofWriter | null>('proofs.WriterThread'),
  Store: token<ProofStore>('proofs.Store'),
  /** Refused submissions per wallet and hour, as written. */
  RejectionLog: token<ProofRejectionLog>('proofs.RejectionLog'),
  /** The same, counted in memory by SubmitProof and written on a timer, before a read and on stop. */
  Rejections: token<RejectionTally>('proofs.Rejections'),
  SubmitProof: token<SubmitProof>('proofs.SubmitProof'),
  GetProof: token<GetProof>('proofs.GetProof'),
  SearchProofs: token<SearchProofs>('proofs.SearchProofs'),
  ExportProofs: token<ExportProofs>('proofs.ExportProofs'),
  VerifyBatch: token<VerifyBatch>('proofs.VerifyBatch'),
  VerifyEnvelope: token<VerifyEnvelope>('proofs.VerifyEnvelope'),
  /** Scores each accepted proof once, as it is received (the statistics' scores). */
  Scorer: token<ProofScorer>('proofs.Scorer'),
  /** Each wallet's statistics, moved by stored proofs and verification calls; read by the fleet's statistics. */
  WalletStats: token<WalletStatsStore>('proofs.WalletStats'),
  ScoreProof: token<ScoreProof>('proofs.ScoreProof'),
  Routes: token<readonly AnyRoute[]>('proofs.Routes'),
} as const;
