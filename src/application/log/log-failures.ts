/** Why a log query has no answer; each maps to one status at the edge (404 or 422). */
export type LogQueryFailure =
  /** The leaf has no index yet, or is not covered by the latest checkpoint (404). */
  | { readonly _tag: 'NotInLog' }
  /** Sizes outside what the latest checkpoint allows (422), with the rule broken. */
  | { readonly _tag: 'TreeSizeOutOfRange'; readonly detail: string }
  /** No such tile or entry bundle under the latest checkpoint (404). */
  | { readonly _tag: 'TileNotFound' }
  /** Nothing published yet (404, or 503 while the log starts). */
  | { readonly _tag: 'NoCheckpoint' };

/**
 * Why the log did not move forward. Each is a fault to report loudly, not a user error:
 * `TreeBehindCheckpoint` and `InconsistentWithPublished` mean the stored tree is not the one
 * already published (a restore from an old backup, a damaged store), and signing it would
 * fork the log, so nothing is signed.
 */
export type LogMaintenanceFailure =
  | { readonly _tag: 'IntegrationRaced'; readonly fromSize: number }
  | { readonly _tag: 'TreeBehindCheckpoint'; readonly treeSize: number; readonly checkpointSize: number }
  | { readonly _tag: 'InconsistentWithPublished'; readonly checkpointSize: number; readonly treeSize: number };
