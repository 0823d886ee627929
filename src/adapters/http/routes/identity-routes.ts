import { toRfc3339 } from '../../../domain/protocol/datetime.js';
import * as E from 'fp-ts/lib/Either.js';
import type { CreateApiKey } from '../../../application/identity/create-api-key.js';
import type { DeleteApiKey } from '../../../application/identity/delete-api-key.js';
import type { GetKeyUsage } from '../../../application/identity/get-key-usage.js';
import type { KeyPosition, ListApiKeys } from '../../../application/identity/list-api-keys.js';
import { errorRate } from '../../../domain/identity/api-key.js';
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
  readonly createKey: CreateApiKey;
  readonly listKeys: ListApiKeys;
  readonly deleteKey: DeleteApiKey;
  readonly keyUsage: GetKeyUsage;
  readonly checkAccess: CheckAccess;
  readonly signOut: SignOut;
}

const errors = errorResponses({
  400: 'Malformed JSON (a body that is not valid UTF-8, or a compressed one that does not inflate, included).',
  401: 'Missing, invalid or expired credential, or no X-Wallet-Address; for sign-in: an unknown, altered, expired or used challenge, or a bad signature.',
  403: 'Wallet mismatch, or token balance below the minimum (detail states both amounts).',
  404: 'No such key for this wallet.',
  409: 'The wallet already has as many API keys as it may (100): delete one first.',
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
        'The challenge must be the exact text issued to this wallet, unexpired and unused; the signature is base64 of the wallet\'s Ed25519 signature over it; the wallet must hold the minimum token balance. Returns an HS256 JWT (sub = wallet). Rate limited per IP.',
      auth: 'none',
      ipRateLimit: 'sign_in',
      body: c.VerifyBody,
      responses: { 200: { description: 'Signed in.', body: c.TokenResponse }, ...errors(400, 401, 403, 415, 422, 429, 503) },
      handle: async ({ body }) => {
        const signedIn = await d.completeSignIn.execute({ wallet: body.wallet_address, signatureB64: body.signature, challenge: body.challenge });
        const { accessToken, expiresInS, wallet } = orProblem(signedIn, identityProblem);
        return { status: 200, body: { access_token: accessToken, token_type: 'Bearer', expires_in: expiresInS, wallet_address: wallet }, headers: { 'Cache-Control': 'no-store' } };
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
        orProblem(await d.signOut.execute({ token: principal!.token ?? null }), identityProblem);
        return { status: 204 };
      },
    }),
    route({
      method: 'post',
      path: '/v1/keys',
      operationId: 'createApiKey',
      tag: 'identity',
      summary: 'Create an API key',
      description: 'The key is in this response only; the service keeps its SHA-256. Keys look like pr_live_… and carry a checksum.',
      auth: 'jwt',
      body: c.CreateKeyBody,
      responses: { 201: { description: 'Created; `key` is shown this once.', body: c.CreatedKeyResponse }, ...errors(400, 409, 415, 422, ...AUTHED) },
      handle: async ({ body, principal }) => {
        const { record, key } = orProblem(await d.createKey.execute({ wallet: principal!.wallet, name: body.name }), identityProblem);
        return {
          status: 201,
          body: { key_id: record.keyId, key, name: record.name, prefix: record.prefix, created_at: iso(record.createdAtMs) },
          headers: { 'Cache-Control': 'no-store' },
        };
      },
    }),
    route({
      method: 'get',
      path: '/v1/keys',
      operationId: 'listApiKeys',
      tag: 'identity',
      summary: "List the wallet's API keys with their usage",
      description: 'request_count counts every request made with the key; error_count those answered with a status ≥ 400; error_rate is their ratio.',
      auth: 'jwt',
      query: c.KeyListQuery,
      responses: { 200: { description: 'A page of keys, oldest first.', body: c.KeyListResponse }, ...errors(400, 422, ...AUTHED) },
      handle: async ({ principal, query }) => {
        const after = query.cursor === undefined ? undefined : decodeKeyCursor(query.cursor);
        if (after === null) throw identityProblem({ _tag: 'InvalidKeyCursor' });
        const result = await d.listKeys.execute({ wallet: principal!.wallet, limit: query.limit ?? DEFAULT_KEY_PAGE, ...(after ? { after } : {}) });
        const { items, next } = E.isRight(result) ? result.right : { items: [], next: null };
        return {
          status: 200,
          body: {
            items: items.map((k) => ({
              key_id: k.keyId,
              name: k.name,
              prefix: k.prefix,
              created_at: iso(k.createdAtMs),
              last_used_at: k.lastUsedAtMs === null ? null : iso(k.lastUsedAtMs),
              request_count: k.requestCount,
              error_count: k.errorCount,
              error_rate: errorRate(k),
            })),
            next_cursor: next === null ? null : encodeKeyCursor(next),
          },
        };
      },
    }),
    route({
      method: 'delete',
      path: '/v1/keys/{key_id}',
      operationId: 'deleteApiKey',
      tag: 'identity',
      summary: 'Delete an API key',
      description: 'The key is refused (401) from the next request on.',
      auth: 'jwt',
      params: c.KeyIdParams,
      responses: { 204: { description: 'Deleted.' }, ...errors(404, ...AUTHED) },
      handle: async ({ params, principal }) => {
        orProblem(await d.deleteKey.execute({ wallet: principal!.wallet, keyId: params.key_id }), identityProblem);
        return { status: 204 };
      },
    }),
    route({
      method: 'get',
      path: '/v1/keys/{key_id}/usage',
      operationId: 'getApiKeyUsage',
      tag: 'identity',
      summary: "One API key's requests and errors per UTC day",
      description: 'One row per UTC day of the last `days` days (today included), oldest first, zeros included. Errors are requests answered with a status ≥ 400.',
      auth: 'jwt',
      params: c.KeyIdParams,
      query: c.KeyUsageQuery,
      responses: { 200: { description: 'The usage.', body: c.KeyUsageResponse }, ...errors(400, 404, 422, ...AUTHED) },
      handle: async ({ params, query, principal }) => {
        const days = query.days ?? 30;
        const usage = orProblem(await d.keyUsage.execute({ wallet: principal!.wallet, keyId: params.key_id, days }), identityProblem);
        return {
          status: 200,
          body: { key_id: params.key_id, days, items: usage.map((r) => ({ day: iso(r.dayMs).slice(0, 10), request_count: r.requests, error_count: r.errors })) },
        };
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
      body: c.AccessCheckBody,
      responses: { 200: { description: 'The answer.', body: c.AccessCheckResponse }, ...errors(400, 415, 422, ...AUTHED) },
      handle: async ({ body, principal }) => {
        const answer = await d.checkAccess.execute({ wallet: principal!.wallet, owner: body.owner, mint: body.mint, minimum: body.minimum });
        return { status: 200, body: orProblem(answer, identityProblem) };
      },
    }),
  ];
}

const DEFAULT_KEY_PAGE = 50;

/** Key cursors are opaque to clients: base64url of the JSON [createdAtMs, keyId]. */
function encodeKeyCursor(p: KeyPosition): string {
  return Buffer.from(JSON.stringify([p.createdAtMs, p.keyId]), 'utf8').toString('base64url');
}

function decodeKeyCursor(text: string): KeyPosition | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(text)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return null;
    const [createdAtMs, keyId] = value as [unknown, unknown];
    return Number.isSafeInteger(createdAtMs) && typeof keyId === 'string' && keyId.length >= 1 && keyId.length <= 64 ? { createdAtMs: createdAtMs as number, keyId } : null;
  } catch {
    return null;
  }
}
