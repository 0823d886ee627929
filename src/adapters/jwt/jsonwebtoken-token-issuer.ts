import { randomUUID } from 'node:crypto';
import * as E from 'fp-ts/lib/Either.js';
import jwt from 'jsonwebtoken';
import type { Clock } from '../../application/ports/clock.js';
import type { IssuedToken, TokenClaims, TokenIssuer } from '../../application/ports/token-issuer.js';
import { isWalletAddress } from '../../domain/identity/wallet-address.js';

export interface JwtSettings {
  /** HS256 key; at least 32 bytes of entropy. */
  readonly secret: string;
  readonly ttlS: number;
  /** `iss` and `aud`: the service's public origin, so a token of another service is refused. */
  readonly issuer: string;
  readonly audience: string;
}

/**
 * Dashboard tokens with jsonwebtoken. Verification pins the algorithm to HS256, so `alg: none`
 * and algorithm-confusion tokens (RS256 with the secret as a "public key") are refused, and
 * checks `iss`, `aud`, `exp` against the Clock port with no tolerance. `sub` is the wallet.
 */
export class JsonwebtokenTokenIssuer implements TokenIssuer {
  constructor(
    private readonly settings: JwtSettings,
    private readonly clock: Clock,
  ) {
    if (Buffer.byteLength(settings.secret) < 32) throw new Error('the JWT secret must be at least 32 bytes');
  }

  issue(wallet: string): IssuedToken {
    const iat = Math.floor(this.clock.nowMs() / 1000);
    const jti = randomUUID();
    const token = jwt.sign({ iat, exp: iat + this.settings.ttlS }, this.settings.secret, {
      algorithm: 'HS256',
      issuer: this.settings.issuer,
      audience: this.settings.audience,
      subject: wallet,
      jwtid: jti,
    });
    return { token, expiresInS: this.settings.ttlS, jti };
  }

  verify(token: string): E.Either<'InvalidToken' | 'ExpiredToken', TokenClaims> {
    let payload: jwt.JwtPayload | string;
    try {
      payload = jwt.verify(token, this.settings.secret, {
        algorithms: ['HS256'],
        issuer: this.settings.issuer,
        audience: this.settings.audience,
        clockTimestamp: Math.floor(this.clock.nowMs() / 1000),
        clockTolerance: 0,
        complete: false,
      });
    } catch (err) {
      return E.left(err instanceof jwt.TokenExpiredError ? 'ExpiredToken' : 'InvalidToken');
    }
    // A token this service signed always has these; anything else is not one of ours.
    if (typeof payload === 'string') return E.left('InvalidToken');
    const { sub, jti, exp, iat } = payload;
    if (typeof sub !== 'string' || !isWalletAddress(sub) || typeof jti !== 'string' || typeof exp !== 'number' || typeof iat !== 'number') {
      return E.left('InvalidToken');
    }
    return E.right({ wallet: sub, jti, expiresAtMs: exp * 1000 });
  }
}
