import * as E from 'fp-ts/lib/Either.js';
import { isWellFormedApiKey, looksLikeApiKey } from '../../domain/identity/api-key.js';
import { constantTimeEqual } from '../../domain/identity/constant-time.js';
import { bytesToHex, hexToBytes, utf8 } from '../../domain/protocol/encoding.js';
import type { Authenticator, AuthFailure, AuthRequest, CredentialKind, Principal } from '../ports/authenticator.js';
import type { SecretHasher } from '../ports/identity-crypto.js';
import type { IdentityMetrics } from '../ports/identity-metrics.js';
import type { KeyStore } from '../ports/key-store.js';
import type { RevokedTokens } from '../ports/revoked-tokens.js';
import type { TokenIssuer } from '../ports/token-issuer.js';
import { failureReason } from './failure-reason.js';
import type { TokenGate } from './token-gate.js';

const BEARER = /^Bearer +(\S+) *$/i;
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

interface KeyDigest {
  readonly hash: Uint8Array;
  readonly hex: string;
}

/** Well-formed API keys whose digests are remembered (about 200 bytes each). */
const REMEMBERED_KEYS = 4_096;

/**
 * The real authenticator: the credential decides the wallet, the X-Wallet-Address header
 * must name the same wallet (it is never trusted on its own), and the wallet must pass the
 * token gate. Checks run cheapest first; each failure is a tag the HTTP edge maps to a status.
 */
export class WalletAuthenticator implements Authenticator {
  private readonly digests = new Map<string, KeyDigest>();

  constructor(
    private readonly keys: Pick<KeyStore, 'findByHash'>,
    private readonly hasher: SecretHasher,
    private readonly tokens: TokenIssuer,
    private readonly gate: TokenGate,
    private readonly metrics: Pick<IdentityMetrics, 'authFailure'>,
    /** Told when a valid API key is refused by a later check, so the key's error count includes it. */
    private readonly onKeyRefused?: (keyId: string, failure: AuthFailure) => void,
    /** Signed-out dashboard tokens; without it no token is ever refused as signed out. */
    private readonly revoked?: Pick<RevokedTokens, 'isRevoked'>,
  ) {}

  async authenticate(request: AuthRequest): Promise<E.Either<AuthFailure, Principal>> {
    const result = await this.check(request);
    if (E.isLeft(result)) this.metrics.authFailure(failureReason(result.left._tag));
    return result;
  }

  private async check(request: AuthRequest): Promise<E.Either<AuthFailure, Principal>> {
    const credential = BEARER.exec(request.authorization ?? '')?.[1];
    if (credential === undefined) return E.left({ _tag: 'MissingCredential' });
    const principal = await this.principalOf(credential, request.accepts);
    if (E.isLeft(principal)) return principal;

    const refusal = await this.refusalFor(principal.right, request.walletHeader);
    if (refusal === null) return principal;
    if (principal.right.keyId !== null) this.onKeyRefused?.(principal.right.keyId, refusal);
    return E.left(refusal);
  }

  private async refusalFor(principal: Principal, walletHeader: string | undefined): Promise<AuthFailure | null> {
    const header = walletHeader?.trim();
    if (!header) return { _tag: 'MissingWalletHeader' };
    // The header only confirms the credential's wallet; a different one is refused, never used.
    if (header !== principal.wallet) return { _tag: 'WalletMismatch' };
    const gate = await this.gate.admit(principal.wallet);
    return E.isLeft(gate) ? gate.left : null;
  }

  private async principalOf(credential: string, accepts: readonly CredentialKind[]): Promise<E.Either<AuthFailure, Principal>> {
    if (looksLikeApiKey(credential)) {
      if (!accepts.includes('api_key')) return E.left({ _tag: 'CredentialKindNotAllowed', allowed: accepts });
      // Format and checksum first: a mistyped key never reaches the store.
      const digest = this.digestOf(credential);
      if (digest === null) return E.left({ _tag: 'InvalidApiKey' });
      const { hash, hex } = digest;
      const record = await this.keys.findByHash(hex);
      // The lookup is by the hash of a 256-bit secret, so its timing says nothing useful; the
      // constant-time comparison makes the match itself independent of how a store compares.
      const stored = record ? hexToBytes(record.keyHash) : null;
      if (!record || stored === null || !constantTimeEqual(stored, hash)) return E.left({ _tag: 'InvalidApiKey' });
      return E.right({ wallet: record.wallet, kind: 'api_key', keyId: record.keyId });
    }
    if (!JWT_SHAPE.test(credential)) {
      return E.left(accepts.includes('api_key') ? { _tag: 'InvalidApiKey' } : { _tag: 'InvalidToken' });
    }
    if (!accepts.includes('jwt')) return E.left({ _tag: 'CredentialKindNotAllowed', allowed: accepts });
    const claims = this.tokens.verify(credential);
    if (E.isLeft(claims)) return E.left({ _tag: claims.left });
    // Only a token whose signature and lifetime hold is looked up: garbage costs no query.
    if (this.revoked && (await this.revoked.isRevoked(claims.right.jti))) return E.left({ _tag: 'RevokedToken' });
    return E.right({ wallet: claims.right.wallet, kind: 'jwt', keyId: null, token: { jti: claims.right.jti, expiresAtMs: claims.right.expiresAtMs } });
  }

  /**
   * The SHA-256 of a well-formed key (null for a malformed one), remembered for the keys seen
   * last: a device sends the same key with every proof, and the base58 and checksum checks and
   * the hash cost more than the rest of authentication. A pure function of the text, so
   * remembering it changes no answer: whether the key exists, or was revoked, is still asked of
   * the key store on every request.
   */
  private digestOf(credential: string): KeyDigest | null {
    const known = this.digests.get(credential);
    if (known !== undefined) return known;
    let digest: KeyDigest | null = null;
    if (isWellFormedApiKey(credential)) {
      const hash = this.hasher.sha256(utf8(credential));
      digest = { hash, hex: bytesToHex(hash) };
    }
    // Only well-formed keys are kept: garbage, however much of it, cannot push them out.
    if (digest !== null) {
      if (this.digests.size >= REMEMBERED_KEYS) this.digests.delete(this.digests.keys().next().value as string);
      this.digests.set(credential, digest);
    }
    return digest;
  }
}
