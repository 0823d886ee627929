import type { Context } from 'koa';
import type { Authenticator, Principal } from '../../application/ports/authenticator.js';
import type { RateBucket, RateLimiter } from '../../application/ports/rate-limiter.js';
import type { Scope } from '../../domain/identity/key-grant.js';
import { authProblem } from './auth-problems.js';
import { HttpError } from './http-error.js';

/** Who may call, and how often: what the identity slice gives the HTTP edge. */
export interface HttpAccess {
  readonly authenticator: Authenticator;
  readonly rateLimiter?: RateLimiter;
  /** Told about every response to an authenticated request (API-key usage figures). */
  readonly onAuthenticatedResponse?: (principal: Principal, status: number, endpoint: string | null) => void;
}

/** `endpoint`: the method and route template called, as a key's usage per endpoint counts it. */
export async function authenticate(ctx: Context, auth: 'api_key' | 'jwt', scope: Scope | undefined, endpoint: string, options: HttpAccess): Promise<Principal> {
  const result = await options.authenticator.authenticate({
    authorization: ctx.get('authorization') || undefined,
    walletHeader: ctx.get('x-wallet-address') || undefined,
    accepts: auth === 'jwt' ? ['jwt'] : ['api_key', 'jwt'],
    ...(scope !== undefined ? { scope } : {}),
    endpoint,
  });
  if (result._tag === 'Left') {
    // Failed credentials count against the client's IP, so guessing keys is rate limited too.
    await limit(ctx, options, `ip:${ctx.ip}`, 'api');
    throw authProblem(result.left);
  }
  // Known before the limit is applied, so a rate-limited request still counts in the key's usage.
  ctx.state.principal = result.right;
  const principal = result.right;
  // Per credential, then per wallet across all its credentials: a wallet's hundred keys share one limit.
  await limit(ctx, options, principal.keyId ? `key:${principal.keyId}` : `wallet:${principal.wallet}`, 'api');
  await limit(ctx, options, principal.wallet, 'wallet');
  return principal;
}

export async function limit(ctx: Context, options: Pick<HttpAccess, 'rateLimiter'>, key: string, bucket: RateBucket): Promise<void> {
  if (!options.rateLimiter) return;
  const decision = await options.rateLimiter.consume(key, bucket);
  // Of several limits, the headers show the one closest to refusing.
  const shown = Number(ctx.response.get('RateLimit-Remaining') || Infinity);
  if (decision.allowed && decision.remaining > shown) return;
  ctx.set({
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetS),
  });
  if (!decision.allowed) {
    throw new HttpError(
      429,
      `rate limit exceeded: ${decision.limit} requests per window; retry in ${decision.resetS} s`,
      { code: 'rate_limited' },
      { 'Retry-After': String(decision.resetS) },
    );
  }
}
