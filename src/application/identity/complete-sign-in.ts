import * as E from 'fp-ts/lib/Either.js';
import { parseSignInMessage } from '../../domain/identity/sign-in-message.js';
import { walletPublicKey } from '../../domain/identity/wallet-address.js';
import type { SignatureVerifier } from '../../domain/protocol/crypto.js';
import { decodeBase64Strict, utf8 } from '../../domain/protocol/encoding.js';
import type { Clock } from '../ports/clock.js';
import type { IdentityMetrics } from '../ports/identity-metrics.js';
import type { NonceStore } from '../ports/nonce-store.js';
import type { TokenIssuer } from '../ports/token-issuer.js';
import { failureReason } from './failure-reason.js';
import type { InvalidWalletAddress } from './start-sign-in.js';
import type { GateFailure, TokenGate } from './token-gate.js';

export type SignInFailure =
  | InvalidWalletAddress
  /** Not a message in the layout this service issues. */
  | { readonly _tag: 'MalformedChallenge' }
  /** No challenge with this nonce was issued (or it was forgotten long after expiry). */
  | { readonly _tag: 'UnknownChallenge' }
  /** The text differs from what was issued, or it was issued to another wallet. */
  | { readonly _tag: 'ChallengeMismatch' }
  | { readonly _tag: 'ChallengeExpired' }
  /** The nonce was already used: a replay, or the loser of two racing verifications. */
  | { readonly _tag: 'ChallengeAlreadyUsed' }
  | { readonly _tag: 'InvalidSignature'; readonly detail: string }
  | GateFailure;

export interface SignInResult {
  readonly accessToken: string;
  readonly expiresInS: number;
  readonly wallet: string;
}

/**
 * Checks a signed challenge and issues a dashboard token. The order matters for security:
 * the challenge must be one we issued to this wallet, byte for byte, unexpired and unused;
 * the signature must be the wallet key's over exactly those bytes; the wallet must pass the
 * token gate; and only then is the nonce consumed, atomically, so two racing requests with
 * the same signature get one token between them.
 */
export class CompleteSignIn {
  constructor(
    private readonly nonces: NonceStore,
    private readonly verifier: SignatureVerifier,
    private readonly gate: TokenGate,
    private readonly tokens: TokenIssuer,
    private readonly clock: Clock,
    private readonly metrics: Pick<IdentityMetrics, 'authFailure'>,
  ) {}

  async execute(input: { wallet: string; signatureB64: string; challenge: string }): Promise<E.Either<SignInFailure, SignInResult>> {
    const result = await this.check(input);
    if (E.isLeft(result)) this.metrics.authFailure(`sign_in_${failureReason(result.left._tag)}`);
    return result;
  }

  private async check(input: { wallet: string; signatureB64: string; challenge: string }): Promise<E.Either<SignInFailure, SignInResult>> {
    const publicKey = walletPublicKey(input.wallet);
    if (publicKey === null) return E.left({ _tag: 'InvalidWalletAddress', wallet: input.wallet });
    const fields = parseSignInMessage(input.challenge);
    if (fields === null) return E.left({ _tag: 'MalformedChallenge' });
    const issued = await this.nonces.find(fields.nonce);
    if (issued === null) return E.left({ _tag: 'UnknownChallenge' });
    // The stored text is the authority: domain, URI, times and address are all covered by it.
    if (issued.message !== input.challenge || issued.wallet !== input.wallet) return E.left({ _tag: 'ChallengeMismatch' });
    if (issued.consumedAtMs !== null) return E.left({ _tag: 'ChallengeAlreadyUsed' });
    if (this.clock.nowMs() >= issued.expiresAtMs) return E.left({ _tag: 'ChallengeExpired' });

    const signature = decodeBase64Strict(input.signatureB64);
    if (signature === null || signature.length !== 64) {
      return E.left({ _tag: 'InvalidSignature', detail: 'signature must be the base64 of a 64-byte Ed25519 signature' });
    }
    if (!this.verifier.verify(publicKey, utf8(input.challenge), signature)) {
      return E.left({ _tag: 'InvalidSignature', detail: 'signature does not verify with the wallet key over the challenge' });
    }

    const gate = await this.gate.admit(input.wallet);
    if (E.isLeft(gate)) return gate;

    if (!(await this.nonces.consume(fields.nonce, this.clock.nowMs()))) {
      // Lost a race with another verification of the same challenge, or it expired meanwhile.
      const now = await this.nonces.find(fields.nonce);
      return E.left({ _tag: now !== null && now.consumedAtMs === null ? 'ChallengeExpired' : 'ChallengeAlreadyUsed' });
    }
    const issuedToken = this.tokens.issue(input.wallet);
    return E.right({ accessToken: issuedToken.token, expiresInS: issuedToken.expiresInS, wallet: input.wallet });
  }
}
