import * as E from 'fp-ts/lib/Either.js';
import type { Clock } from '../ports/clock.js';
import type { KeyStore } from '../ports/key-store.js';

export type KeyNotFound = { readonly _tag: 'KeyNotFound'; readonly keyId: string };

/** Deletes one of the wallet's keys; it is refused from the next request on. */
export class DeleteApiKey {
  constructor(
    private readonly keys: KeyStore,
    private readonly clock: Clock,
  ) {}

  async execute(input: { wallet: string; keyId: string }): Promise<E.Either<KeyNotFound, void>> {
    // Another wallet's key is indistinguishable from none.
    return (await this.keys.delete(input.wallet, input.keyId, this.clock.nowMs())) ? E.right(undefined) : E.left({ _tag: 'KeyNotFound', keyId: input.keyId });
  }
}
