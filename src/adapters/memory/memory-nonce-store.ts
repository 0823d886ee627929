import type { NonceStore, SignInChallenge, StoredChallenge } from '../../application/ports/nonce-store.js';

/** In-memory NonceStore; JavaScript's single thread makes `consume` atomic. */
export class MemoryNonceStore implements NonceStore {
  private readonly byNonce = new Map<string, StoredChallenge>();

  async save(challenge: SignInChallenge): Promise<void> {
    if (this.byNonce.has(challenge.nonce)) throw new Error('duplicate sign-in nonce');
    this.byNonce.set(challenge.nonce, { ...challenge, consumedAtMs: null });
  }

  async find(nonce: string): Promise<StoredChallenge | null> {
    const found = this.byNonce.get(nonce);
    return found ? { ...found } : null;
  }

  async consume(nonce: string, nowMs: number): Promise<boolean> {
    const found = this.byNonce.get(nonce);
    if (!found || found.consumedAtMs !== null || nowMs >= found.expiresAtMs) return false;
    this.byNonce.set(nonce, { ...found, consumedAtMs: nowMs });
    return true;
  }

  async deleteExpired(beforeMs: number): Promise<number> {
    let n = 0;
    for (const [nonce, c] of this.byNonce) {
      if (c.expiresAtMs < beforeMs) {
        this.byNonce.delete(nonce);
        n++;
      }
    }
    return n;
  }
}
