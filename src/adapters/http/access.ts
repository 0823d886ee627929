import type { Context } from 'koa';
import type { Authenticator, Principal } from '../../application/ports/authenticator.js';
import type { RateLimiter } from '../../application/ports/rate-limiter.js';
import { authProblem } from './auth-problems.js';
import { HttpError } from './http-error.js';

/** Who may call, and how often: what the identity slice gives the HTTP edge. */
export interface HttpAccess {
  readonly authenticator: Authenticator;
  readonly rateLimiter?: RateLimiter;
  /** Told about every response to an authenticated request (API-key usage figures). */
  readonly onAuthenticatedResponse?: (principal: Principal, status: number) => void;
}

export async function authenticate(ctx: Context, auth: 'api_key' | 'jwt', options: HttpAccess): Promise<Principal> {
  const result = await options.authenticator.authenticate({
    authorization: ctx.get('authorization') || undefined,
    walletHeader: ctx.get('x-wallet-address') || undefined,
    accepts: auth === 'jwt' ? ['jwt'] : ['api_key', 'jwt'],
  });
  if (result._tag === 'Left') {
    // Failed credentials count against the client's IP, so guessing keys is rate limited too.
    await limit(ctx, options, `ip:${ctx.ip}`, 'api');
    throw authProblem(result.left);
  }
  // Known before the limit is applied, so a rate-limited request still counts in the key's usage.
  ctx.state.principal = result.right;
  await limit(ctx, options, result.right.keyId ? `key:${result.right.keyId}` : `wallet:${result.right.wallet}`, 'api');
  return result.right;
}

export async function limit(ctx: Context, options: Pick<HttpAccess, 'rateLimiter'>, key: string, bucket: 'api' | 'sign_in'): Promise<void> {
  if (!options.rateLimiter) return;
  const decision = await options.rateLimiter.consume(key, bucket);
  ctx.set({
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetS),
  });
  if (!decision.allowed) {
    throw new HttpError(429, `rate limit exceeded: ${decision.limit} requests per window; retry in ${decision.resetS} s`, { code: 'rate_limited' }, { 'Retry-After': String(decision.resetS) });
  }
}
