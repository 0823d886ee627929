import * as E from 'fp-ts/lib/Either.js';
import { nonceFromRandomBytes, SIGN_IN_STATEMENT, SIGN_IN_TTL_MS, signInDomain, signInMessageText, signInUri } from '../../domain/identity/sign-in-message.js';
import { isWalletAddress } from '../../domain/identity/wallet-address.js';
import type { Clock } from '../ports/clock.js';
import type { RandomSource } from '../ports/identity-crypto.js';
import type { NonceStore } from '../ports/nonce-store.js';

export type InvalidWalletAddress = { readonly _tag: 'InvalidWalletAddress'; readonly wallet: string };

export interface SignInSettings {
  /** PUBLIC_ORIGIN: its host is the message's domain, the origin its URI. */
  readonly origin: string;
  readonly chainId: string;
}

export interface Challenge {
  readonly challenge: string;
  readonly nonce: string;
  readonly expiresAtMs: number;
}

/** Challenges are kept this long past expiry, so a late replay is told "expired", not "unknown". */
const KEEP_EXPIRED_MS = 60 * 60_000;

/** Issues a Sign-In-With-Solana challenge for a wallet and remembers exactly what was issued. */
export class StartSignIn {
  constructor(
    private readonly nonces: NonceStore,
    private readonly random: RandomSource,
    private readonly clock: Clock,
    private readonly settings: SignInSettings,
  ) {}

  async execute(input: { wallet: string }): Promise<E.Either<InvalidWalletAddress, Challenge>> {
    if (!isWalletAddress(input.wallet)) return E.left({ _tag: 'InvalidWalletAddress', wallet: input.wallet });
    const now = this.clock.nowMs();
    const nonce = this.newNonce();
    const expiresAtMs = now + SIGN_IN_TTL_MS;
    const challenge = signInMessageText({
      domain: signInDomain(this.settings.origin),
      address: input.wallet,
      statement: SIGN_IN_STATEMENT,
      uri: signInUri(this.settings.origin),
      version: '1',
      chainId: this.settings.chainId,
      nonce,
      issuedAt: new Date(now).toISOString(),
      expirationTime: new Date(expiresAtMs).toISOString(),
    });
    await this.nonces.deleteExpired(now - KEEP_EXPIRED_MS);
    await this.nonces.save({ nonce, wallet: input.wallet, message: challenge, issuedAtMs: now, expiresAtMs });
    return E.right({ challenge, nonce, expiresAtMs });
  }

  private newNonce(): string {
    for (;;) {
      const nonce = nonceFromRandomBytes(this.random.bytes(48));
      if (nonce !== null) return nonce;
    }
  }
}
