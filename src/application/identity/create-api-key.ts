import * as E from 'fp-ts/lib/Either.js';
import { API_KEY_SECRET_BYTES, displayPrefix, formatApiKey } from '../../domain/identity/api-key.js';
import { normalizeName, type InvalidText } from '../../domain/fleet/names.js';
import { encodeBase58 } from '../../domain/identity/base58.js';
import { checkGrant, type InvalidKeyGrant, type RequestedGrant } from '../../domain/identity/key-grant.js';
import { bytesToHex, utf8 } from '../../domain/protocol/encoding.js';
import type { Clock } from '../ports/clock.js';
import type { RandomSource, SecretHasher } from '../ports/identity-crypto.js';
import type { ApiKeyRecord, KeyStore } from '../ports/key-store.js';

export type TooManyKeys = { readonly _tag: 'TooManyKeys'; readonly max: number };

export interface CreatedKey {
  readonly record: ApiKeyRecord;
  /** The key itself: returned once, here, and stored nowhere. */
  readonly key: string;
}

/** The stored form of a key: hex SHA-256 of its text. */
export const hashApiKey = (hasher: SecretHasher, key: string): string => bytesToHex(hasher.sha256(utf8(key)));

export interface CreateKeyInput extends RequestedGrant {
  readonly wallet: string;
  readonly name: string;
}

/**
 * Creates an API key for the wallet, holding the scopes, robots and lifetime asked for (all
 * scopes, any robot, no expiry when not asked); only its hash is stored. Nothing is created
 * when any part of the request is wrong.
 */
export class CreateApiKey {
  constructor(
    private readonly keys: KeyStore,
    private readonly random: RandomSource,
    private readonly hasher: SecretHasher,
    private readonly clock: Clock,
    private readonly maxKeysPerWallet = 100,
  ) {}

  /** The name follows the rule of device and group names: trimmed, 1 to 100 characters, no control characters. */
  async execute(input: CreateKeyInput): Promise<E.Either<TooManyKeys | InvalidText | InvalidKeyGrant, CreatedKey>> {
    const name = normalizeName(input.name);
    if (E.isLeft(name)) return name;
    const now = this.clock.nowMs();
    const grant = checkGrant(input, now);
    if (E.isLeft(grant)) return grant;
    if ((await this.keys.countByWallet(input.wallet)) >= this.maxKeysPerWallet) {
      return E.left({ _tag: 'TooManyKeys', max: this.maxKeysPerWallet });
    }
    const key = formatApiKey(this.random.bytes(API_KEY_SECRET_BYTES));
    const record: ApiKeyRecord = {
      // A public id, unrelated to the secret: it appears in URLs and logs.
      keyId: `key_${encodeBase58(this.random.bytes(16))}`,
      wallet: input.wallet,
      name: name.right,
      prefix: displayPrefix(key),
      keyHash: hashApiKey(this.hasher, key),
      createdAtMs: now,
      lastUsedAtMs: null,
      requestCount: 0,
      errorCount: 0,
      ...grant.right,
      disabledAtMs: null,
    };
    await this.keys.create(record);
    return E.right({ record, key });
  }
}
