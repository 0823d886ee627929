/** The log's Ed25519 key, as the checkpoint publisher uses it: a name, a public key and signing. */
export interface CheckpointSigner {
  /** The note key name (the log's origin, docs/log.md). */
  readonly keyName: string;
  /** The 32-byte Ed25519 public key. */
  readonly publicKey: Uint8Array;
  /** The 64-byte Ed25519 signature of `message`. */
  sign(message: Uint8Array): Promise<Uint8Array>;
}
