import type { KeyGrant } from '../../domain/identity/key-grant.js';

/** An API key as stored: never the key itself, only its SHA-256. */
export interface ApiKeyRecord extends KeyGrant {
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
  /** When the key stops working, or null: never. */
  readonly expiresAtMs: number | null;
  /** When its owner disabled it, or null while it is enabled. */
  readonly disabledAtMs: number | null;
}

/** What the owner may change on a key after it is made: its name, and whether it works. */
export interface KeyChange {
  readonly name?: string;
  readonly enabled?: boolean;
}

/** Requests made with one key since the last flush. */
export interface KeyUsageDelta {
  readonly keyId: string;
  readonly requests: number;
  readonly errors: number;
  readonly lastUsedAtMs: number;
}

/**
 * A wallet's API keys. Creating, changing and deleting a key announces it
 * (`key.created`, `key.updated`, `key.deleted`) in the same transaction.
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
  /**
   * Applies the change to the wallet's key at `atMs` and announces it (`key.updated`) when
   * anything changed; null when the wallet has no key with that id. Disabling a disabled key
   * keeps the time it was first disabled.
   */
  update(wallet: string, keyId: string, change: KeyChange, atMs: number): Promise<ApiKeyRecord | null>;
  /** Adds usage to the counters (and moves last_used_at forward only); deleted keys are skipped. */
  addUsage(deltas: readonly KeyUsageDelta[]): Promise<void>;
}
