import * as E from 'fp-ts/lib/Either.js';
import { isWellFormedApiKey, looksLikeApiKey } from '../../domain/identity/api-key.js';
import { constantTimeEqual } from '../../domain/identity/constant-time.js';
import { bytesToHex, hexToBytes, utf8 } from '../../domain/protocol/encoding.js';
import { FULL_GRANT, holdsScope, type Scope } from '../../domain/identity/key-grant.js';
import type { Authenticator, AuthFailure, AuthRequest, Principal } from '../ports/authenticator.js';
import type { Clock } from '../ports/clock.js';
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

export interface WalletAuthenticatorOptions {
  /** Told when a valid API key is refused by a later check, so the key's error count includes it. */
  readonly onKeyRefused?: (keyId: string, failure: AuthFailure, endpoint: string | undefined) => void;
  /** Signed-out dashboard tokens; without it no token is ever refused as signed out. */
  readonly revoked?: Pick<RevokedTokens, 'isRevoked'>;
}

/**
 * The real authenticator: the credential decides the wallet, the X-Wallet-Address header
 * must name the same wallet (it is never trusted on its own), and the wallet must pass the
 * token gate. A key must also be enabled, unexpired and hold the route's scope. Checks run
 * cheapest first; each failure is a tag the HTTP edge maps to a status.
 */
export class WalletAuthenticator implements Authenticator {
  private readonly digests = new Map<string, KeyDigest>();

  constructor(
    private readonly keys: Pick<KeyStore, 'findByHash'>,
    private readonly hasher: SecretHasher,
    private readonly tokens: TokenIssuer,
    private readonly gate: TokenGate,
    private readonly metrics: Pick<IdentityMetrics, 'authFailure'>,
    private readonly clock: Clock,
    private readonly options: WalletAuthenticatorOptions = {},
  ) {}

  async authenticate(request: AuthRequest): Promise<E.Either<AuthFailure, Principal>> {
    const result = await this.check(request);
    if (E.isLeft(result)) this.metrics.authFailure(failureReason(result.left._tag));
    return result;
  }

  private async check(request: AuthRequest): Promise<E.Either<AuthFailure, Principal>> {
    const credential = BEARER.exec(request.authorization ?? '')?.[1];
    if (credential === undefined) return E.left({ _tag: 'MissingCredential' });
    const principal = await this.principalOf(credential, request);
    if (E.isLeft(principal)) return principal;

    const refusal = await this.refusalFor(principal.right, request.walletHeader, request.scope);
    if (refusal === null) return principal;
    if (principal.right.keyId !== null) this.options.onKeyRefused?.(principal.right.keyId, refusal, request.endpoint);
    return E.left(refusal);
  }

  private async refusalFor(principal: Principal, walletHeader: string | undefined, scope: Scope | undefined): Promise<AuthFailure | null> {
    const header = walletHeader?.trim();
    if (!header) return { _tag: 'MissingWalletHeader' };
    // The header only confirms the credential's wallet; a different one is refused, never used.
    if (header !== principal.wallet) return { _tag: 'WalletMismatch' };
    // Before the gate: a key that may not call the route learns nothing of the wallet's balance.
    if (scope !== undefined && !holdsScope(principal.grant, scope)) return { _tag: 'InsufficientScope', scope };
    const gate = await this.gate.admit(principal.wallet);
    return E.isLeft(gate) ? gate.left : null;
  }

  private async principalOf(credential: string, request: AuthRequest): Promise<E.Either<AuthFailure, Principal>> {
    const accepts = request.accepts;
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
      // Said plainly, once the key is proved: its holder knows it existed, and learns why it
      // stopped. Still counted in the key's usage, so its owner sees a retired key being tried.
      const stopped: AuthFailure | null =
        record.disabledAtMs !== null
          ? { _tag: 'DisabledApiKey', disabledAtMs: record.disabledAtMs }
          : record.expiresAtMs !== null && record.expiresAtMs <= this.clock.nowMs()
            ? { _tag: 'ExpiredApiKey', expiredAtMs: record.expiresAtMs }
            : null;
      if (stopped !== null) {
        this.options.onKeyRefused?.(record.keyId, stopped, request.endpoint);
        return E.left(stopped);
      }
      return E.right({ wallet: record.wallet, kind: 'api_key', keyId: record.keyId, grant: { scopes: record.scopes, robotIds: record.robotIds } });
    }
    if (!JWT_SHAPE.test(credential)) {
      return E.left(accepts.includes('api_key') ? { _tag: 'InvalidApiKey' } : { _tag: 'InvalidToken' });
    }
    if (!accepts.includes('jwt')) return E.left({ _tag: 'CredentialKindNotAllowed', allowed: accepts });
    const claims = this.tokens.verify(credential);
    if (E.isLeft(claims)) return E.left({ _tag: claims.left });
    // Only a token whose signature and lifetime hold is looked up: garbage costs no query.
    if (this.options.revoked && (await this.options.revoked.isRevoked(claims.right.jti))) return E.left({ _tag: 'RevokedToken' });
    // The dashboard token is the wallet's owner signed in: it may do everything.
    return E.right({
      wallet: claims.right.wallet,
      kind: 'jwt',
      keyId: null,
      token: { jti: claims.right.jti, expiresAtMs: claims.right.expiresAtMs },
      grant: FULL_GRANT,
    });
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
