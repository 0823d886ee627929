import { toRfc3339 } from '../../../domain/protocol/datetime.js';
import type { CheckAccess } from '../../../application/identity/check-access.js';
import type { CompleteSignIn } from '../../../application/identity/complete-sign-in.js';
import type { SignOut } from '../../../application/identity/sign-out.js';
import type { StartSignIn } from '../../../application/identity/start-sign-in.js';
import * as c from '../codecs/identity.codecs.js';
import { orProblem } from '../http-error.js';
import { route, type AnyRoute } from '../route.js';
import { AUTHED, errorResponses } from './error-responses.js';
import { identityProblem } from './identity-problems.js';

export interface IdentityRouteDeps {
  readonly startSignIn: StartSignIn;
  readonly completeSignIn: CompleteSignIn;
  readonly checkAccess: CheckAccess;
  readonly signOut: SignOut;
}

const errors = errorResponses({
  400: 'Malformed JSON (a body that is not valid UTF-8, or a compressed one that does not inflate, included).',
  401: 'Missing, invalid or expired credential, or no X-Wallet-Address; for sign-in: an unknown, altered, expired or used challenge, or a bad signature.',
  403: 'Wallet mismatch, or token balance below the minimum (detail states both amounts).',
  503: 'The token balance cannot be checked right now; see Retry-After.',
});
const iso = toRfc3339;

export function identityRoutes(d: IdentityRouteDeps): AnyRoute[] {
  return [
    route({
      method: 'post',
      path: '/v1/auth/wallet/connect',
      operationId: 'walletConnect',
      tag: 'identity',
      summary: 'Start wallet sign-in: get a challenge to sign',
      description:
        'Returns a Sign-In-With-Solana message for the wallet. Sign its UTF-8 bytes with the wallet key (e.g. signMessage) and send the signature to /v1/auth/wallet/verify within 5 minutes. Each challenge works once. Rate limited per IP.',
      auth: 'none',
      ipRateLimit: 'sign_in',
      body: c.ConnectBody,
      responses: { 200: { description: 'The challenge.', body: c.ChallengeResponse }, ...errors(400, 415, 422, 429) },
      handle: async ({ body }) => {
        const { challenge, nonce, expiresAtMs } = orProblem(await d.startSignIn.execute({ wallet: body.wallet_address }), identityProblem);
        return { status: 200, body: { challenge, nonce, expires_at: iso(expiresAtMs) } };
      },
    }),
    route({
      method: 'post',
      path: '/v1/auth/wallet/verify',
      operationId: 'walletVerify',
      tag: 'identity',
      summary: 'Finish wallet sign-in: exchange the signed challenge for a dashboard token (JWT)',
      description:
        "The challenge must be the exact text issued to this wallet, unexpired and unused; the signature is base64 of the wallet's Ed25519 signature over it; the wallet must hold the minimum token balance. Returns an HS256 JWT (sub = wallet). Rate limited per IP.",
      auth: 'none',
      ipRateLimit: 'sign_in',
      body: c.VerifyBody,
      responses: { 200: { description: 'Signed in.', body: c.TokenResponse }, ...errors(400, 401, 403, 415, 422, 429, 503) },
      handle: async ({ body }) => {
        const signedIn = await d.completeSignIn.execute({ wallet: body.wallet_address, signatureB64: body.signature, challenge: body.challenge });
        const { accessToken, expiresInS, wallet } = orProblem(signedIn, identityProblem);
        return {
          status: 200,
          body: { access_token: accessToken, token_type: 'Bearer', expires_in: expiresInS, wallet_address: wallet },
          headers: { 'Cache-Control': 'no-store' },
        };
      },
    }),
    route({
      method: 'post',
      path: '/v1/auth/logout',
      operationId: 'signOut',
      tag: 'identity',
      summary: 'Sign out: revoke the dashboard token presented',
      description:
        'The token (JWT) of this request is refused from now on, by every instance on the same database, until it would have expired anyway. Other tokens of the wallet and its API keys are not affected: delete the keys (DELETE /v1/keys/{key_id}) and sign out each session to end all access.',
      auth: 'jwt',
      responses: { 204: { description: 'Signed out: the token is revoked.' }, ...errors(...AUTHED) },
      handle: async ({ principal }) => {
        orProblem(await d.signOut.execute({ token: principal.token ?? null }), identityProblem);
        return { status: 204 };
      },
    }),
    route({
      method: 'post',
      path: '/v1/access/check',
      operationId: 'checkAccess',
      tag: 'identity',
      summary: 'Check whether an owner holds at least `minimum` of a mint',
      description:
        'Any owner, mint and minimum; answered through the same balance source as the token gate, with a cache of its own. A wallet may look up ACCESS_CHECK_OWNERS_PER_MIN (100) different owners per minute, across all instances that share REDIS_URL; asking again about one of them is not counted.',
      auth: 'api_key',
      scope: 'any',
      body: c.AccessCheckBody,
      responses: { 200: { description: 'The answer.', body: c.AccessCheckResponse }, ...errors(400, 415, 422, ...AUTHED) },
      handle: async ({ body, principal }) => {
        const answer = await d.checkAccess.execute({ wallet: principal.wallet, owner: body.owner, mint: body.mint, minimum: body.minimum });
        return { status: 200, body: orProblem(answer, identityProblem) };
      },
    }),
  ];
}
