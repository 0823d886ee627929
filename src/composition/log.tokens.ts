import type { AnyRoute } from '../adapters/http/route.js';
import type { GetCheckpoint } from '../application/log/get-checkpoint.js';
import type { GetLogKey } from '../application/log/get-log-key.js';
import type { GetProofBundle } from '../application/log/get-proof-bundle.js';
import type { ListWitnesses } from '../application/log/list-witnesses.js';
import type { RequestCosignatures } from '../application/log/request-cosignatures.js';
import type { LogTree } from '../application/log/log-tree.js';
import type { MaintainLog } from '../application/log/maintain-log.js';
import type { ProveConsistency } from '../application/log/prove-consistency.js';
import type { ProveInclusion } from '../application/log/prove-inclusion.js';
import type { ReadEntryBundle } from '../application/log/read-entry-bundle.js';
import type { ReadTile } from '../application/log/read-tile.js';
import type { CheckpointSigner } from '../application/ports/checkpoint-signer.js';
import type { CheckpointStore } from '../application/ports/checkpoint-store.js';
import type { LogCosignatures } from '../application/ports/log-cosignatures.js';
import type { LogLease } from '../application/ports/log-lease.js';
import type { LogTileStore } from '../application/ports/log-tile-store.js';
import type { SequencedLeaves } from '../application/ports/sequenced-leaves.js';
import type { Sha256 } from '../domain/log/sha256.js';
import type { WitnessPolicy } from '../domain/log/verify-bundle.js';
import { token } from './token.js';

/** The transparency log slice: its stores, its key, its upkeep and its public routes. */
export const LOG = {
  Sha256: token<Sha256>('log.Sha256'),
  Leaves: token<SequencedLeaves>('log.Leaves'),
  Tiles: token<LogTileStore>('log.Tiles'),
  Checkpoints: token<CheckpointStore>('log.Checkpoints'),
  Lease: token<LogLease>('log.Lease'),
  Signer: token<CheckpointSigner>('log.Signer'),
  Tree: token<LogTree>('log.Tree'),
  /** LOG_WITNESS_POLICY_FILE, parsed (no witnesses when unset). */
  WitnessPolicy: token<WitnessPolicy>('log.WitnessPolicy'),
  /** The cosignatures the witnesses returned, per checkpoint size, and each witness's state. */
  Cosignatures: token<LogCosignatures>('log.Cosignatures'),
  /** Asks the witnesses to cosign the latest checkpoint (after each advance, off the signing path). */
  RequestCosignatures: token<RequestCosignatures>('log.RequestCosignatures'),
  ListWitnesses: token<ListWitnesses>('log.ListWitnesses'),
  /** The upkeep, ticking on a timer from the time it is made (see log.module.ts). */
  Maintenance: token<MaintainLog>('log.Maintenance'),
  GetCheckpoint: token<GetCheckpoint>('log.GetCheckpoint'),
  GetKey: token<GetLogKey>('log.GetKey'),
  ProveInclusion: token<ProveInclusion>('log.ProveInclusion'),
  ProveConsistency: token<ProveConsistency>('log.ProveConsistency'),
  ReadTile: token<ReadTile>('log.ReadTile'),
  ReadEntryBundle: token<ReadEntryBundle>('log.ReadEntryBundle'),
  /** A proof of the wallet with its inclusion proof and checkpoint, as one bundle (GET /v1/proofs/{proof_id}/bundle). */
  GetProofBundle: token<GetProofBundle>('log.GetProofBundle'),
  Routes: token<readonly AnyRoute[]>('log.Routes'),
} as const;
