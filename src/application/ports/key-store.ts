/** An API key as stored: never the key itself, only its SHA-256. */
export interface ApiKeyRecord {
  readonly keyId: string;
  readonly wallet: string;
  readonly name: string;
  /** The first characters of the key, shown so a user can tell keys apart. */
  readonly prefix: string;
  /** Lower-case hex SHA-256 of the whole key text. */
  readonly keyHash: string;
  readonly createdAtMs: number;
  readonly lastUsedAtMs: number | null;
  readonly requestCount: number;
  readonly errorCount: number;
}

/** Requests made with one key since the last flush. */
export interface KeyUsageDelta {
  readonly keyId: string;
  readonly requests: number;
  readonly errors: number;
  readonly lastUsedAtMs: number;
}

/**
 * A wallet's API keys. Creating and deleting a key announces it (`key.created`,
 * `key.deleted`) in the same transaction.
 */
export interface KeyStore {
  /** Stores a new key (with zero usage). Key ids and hashes are unique. */
  create(record: ApiKeyRecord): Promise<void>;
  findByHash(keyHash: string): Promise<ApiKeyRecord | null>;
  /** The wallet's keys, oldest first. */
  listByWallet(wallet: string): Promise<ApiKeyRecord[]>;
  countByWallet(wallet: string): Promise<number>;
  /** Deletes the wallet's key at `atMs`; false when the wallet has no key with that id. */
  delete(wallet: string, keyId: string, atMs: number): Promise<boolean>;
  /** Adds usage to the counters (and moves last_used_at forward only); deleted keys are skipped. */
  addUsage(deltas: readonly KeyUsageDelta[]): Promise<void>;
}
