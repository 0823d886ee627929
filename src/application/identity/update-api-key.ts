import * as E from 'fp-ts/lib/Either.js';
import { normalizeName, type InvalidText } from '../../domain/fleet/names.js';
import type { Clock } from '../ports/clock.js';
import type { ApiKeyRecord, KeyStore } from '../ports/key-store.js';
import type { KeyNotFound } from './delete-api-key.js';

/**
 * Renames, disables or enables one of the wallet's keys. A disabled key is refused (401) from
 * the next request on, on this instance at once and on others within the key cache's time;
 * enabling it restores it as it was (its scopes, robots and expiry never change).
 */
export class UpdateApiKey {
  constructor(
    private readonly keys: Pick<KeyStore, 'update'>,
    private readonly clock: Clock,
  ) {}

  async execute(input: { wallet: string; keyId: string; name?: string; enabled?: boolean }): Promise<E.Either<KeyNotFound | InvalidText, ApiKeyRecord>> {
    let name: string | undefined;
    if (input.name !== undefined) {
      const normalized = normalizeName(input.name);
      if (E.isLeft(normalized)) return normalized;
      name = normalized.right;
    }
    const change = { ...(name !== undefined ? { name } : {}), ...(input.enabled !== undefined ? { enabled: input.enabled } : {}) };
    // Another wallet's key is indistinguishable from none.
    const updated = await this.keys.update(input.wallet, input.keyId, change, this.clock.nowMs());
    return updated === null ? E.left({ _tag: 'KeyNotFound', keyId: input.keyId }) : E.right(updated);
  }
}
