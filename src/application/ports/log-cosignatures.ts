/** What the log knows of one of its witnesses: the latest size it cosigned, and its latest failure. */
export interface WitnessRecord {
  readonly name: string;
  readonly lastCosignedSize: number | null;
  readonly lastCosignedAtMs: number | null;
  /** The latest request's failure; null once a request succeeds again. */
  readonly lastError: string | null;
}

/**
 * The cosignatures the log's witnesses returned, per checkpoint size (one line per witness and
 * size, the latest kept), and each witness's state: the size it last cosigned, its last error.
 */
export interface LogCosignatures {
  /** Keeps `line` as `witness`'s cosignature of the checkpoint of `treeSize` and records that size as the witness's latest. */
  record(witness: string, treeSize: number, line: string, atMs: number): Promise<void>;
  /** Records a failed request to `witness` (its cosignatures and size stay). */
  recordError(witness: string, error: string, atMs: number): Promise<void>;
  /** The cosignature lines held for the checkpoint of `treeSize`, in witness name order. */
  linesAt(treeSize: number): Promise<readonly string[]>;
  /** The state of every witness the log ever asked. */
  witnesses(): Promise<readonly WitnessRecord[]>;
}

/** One add-checkpoint request's answer (c2sp.org/tlog-witness): its status and body text. */
export interface WitnessReply {
  readonly status: number;
  readonly contentType: string | null;
  readonly body: string;
}

/** Sends an add-checkpoint body to a witness; rejects on a network failure or a timeout. */
export interface WitnessClient {
  addCheckpoint(url: string, body: string): Promise<WitnessReply>;
}
