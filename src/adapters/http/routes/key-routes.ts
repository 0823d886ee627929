import * as E from 'fp-ts/lib/Either.js';
import type { CreateApiKey } from '../../../application/identity/create-api-key.js';
import type { DeleteApiKey } from '../../../application/identity/delete-api-key.js';
import type { GetKeyUsage, KeyUsage, KeyUsageDay } from '../../../application/identity/get-key-usage.js';
import type { KeyPosition, ListApiKeys } from '../../../application/identity/list-api-keys.js';
import type { UpdateApiKey } from '../../../application/identity/update-api-key.js';
import type { Clock } from '../../../application/ports/clock.js';
import type { ApiKeyRecord } from '../../../application/ports/key-store.js';
import { errorRate } from '../../../domain/identity/api-key.js';
import { scopesOf } from '../../../domain/identity/key-grant.js';
import { toRfc3339 } from '../../../domain/protocol/datetime.js';
import * as c from '../codecs/key.codecs.js';
import { csvRow } from '../csv.js';
import { HttpError, orProblem } from '../http-error.js';
import { route, type AnyRoute } from '../route.js';
import { AUTHED, errorResponses } from './error-responses.js';
import { identityProblem } from './identity-problems.js';

export interface KeyRouteDeps {
  readonly createKey: CreateApiKey;
  readonly listKeys: ListApiKeys;
  readonly updateKey: UpdateApiKey;
  readonly deleteKey: DeleteApiKey;
  readonly keyUsage: GetKeyUsage;
  /** For each key's status: expired is a matter of the time it is asked. */
  readonly clock: Clock;
}

const errors = errorResponses({
  404: 'No such key for this wallet.',
  409: 'The wallet already has as many API keys as it may (100): delete one first.',
  422: 'Validation failed; detail names the member: an unknown scope, an empty scope or robot list, more than 1,000 robots, an expiry in the past, or a bad name. Nothing is created or changed.',
});
const iso = toRfc3339;
const DEFAULT_KEY_PAGE = 50;

/** A key as every key route shows it: what it may do and whether it works now; never its secret or hash. */
export function keyJson(k: ApiKeyRecord, nowMs: number) {
  const expired = k.expiresAtMs !== null && k.expiresAtMs <= nowMs;
  return {
    key_id: k.keyId,
    name: k.name,
    prefix: k.prefix,
    created_at: iso(k.createdAtMs),
    scopes: scopesOf(k),
    robot_ids: k.robotIds,
    expires_at: k.expiresAtMs === null ? null : iso(k.expiresAtMs),
    enabled: k.disabledAtMs === null,
    disabled_at: k.disabledAtMs === null ? null : iso(k.disabledAtMs),
    status: k.disabledAtMs !== null ? ('disabled' as const) : expired ? ('expired' as const) : ('active' as const),
  };
}

const dayJson = (r: KeyUsageDay) => ({ day: iso(r.dayMs).slice(0, 10), request_count: r.requests, error_count: r.errors });

/** A key's usage as CSV: the totals per day (`*`), then each endpoint's, oldest day first. */
function keyUsageCsv(u: KeyUsage): string {
  const rows = (endpoint: string, days: readonly KeyUsageDay[]) =>
    days.map((r) => csvRow([endpoint, iso(r.dayMs).slice(0, 10), r.requests, r.errors])).join('');
  return csvRow(['endpoint', 'day', 'request_count', 'error_count']) + rows('*', u.days) + u.endpoints.map((e) => rows(e.endpoint, e.days)).join('');
}

export function keyRoutes(d: KeyRouteDeps): AnyRoute[] {
  return [
    route({
      method: 'post',
      path: '/v1/keys',
      operationId: 'createApiKey',
      tag: 'identity',
      summary: 'Create an API key',
      description:
        'The key is in this response only; the service keeps its SHA-256. Keys look like pr_live_… and carry a checksum. A key holds the scopes asked for (all when `scopes` is left out), may be bound to robots (`robot_ids`: it then submits proofs and reports health only for them) and may expire (`expires_at`).',
      auth: 'jwt',
      body: c.CreateKeyBody,
      responses: { 201: { description: 'Created; `key` is shown this once.', body: c.CreatedKeyResponse }, ...errors(400, 409, 415, 422, ...AUTHED) },
      handle: async ({ body, principal }) => {
        const created = await d.createKey.execute({
          wallet: principal.wallet,
          name: body.name,
          ...(body.scopes !== undefined ? { scopes: body.scopes } : {}),
          ...(body.robot_ids !== undefined ? { robotIds: body.robot_ids } : {}),
          ...(body.expires_at !== undefined ? { expiresAtMs: body.expires_at } : {}),
        });
        const { record, key } = orProblem(created, identityProblem);
        return { status: 201, body: { ...keyJson(record, d.clock.nowMs()), key }, headers: { 'Cache-Control': 'no-store' } };
      },
    }),
    route({
      method: 'get',
      path: '/v1/keys',
      operationId: 'listApiKeys',
      tag: 'identity',
      summary: "List the wallet's API keys with their grants and usage",
      description:
        'request_count counts every request made with the key (those refused because it is disabled, expired or lacks a scope included); error_count those answered with a status ≥ 400; error_rate is their ratio.',
      auth: 'jwt',
      query: c.KeyListQuery,
      responses: { 200: { description: 'A page of keys, oldest first.', body: c.KeyListResponse }, ...errors(400, 422, ...AUTHED) },
      handle: async ({ principal, query }) => {
        const after = query.cursor === undefined ? undefined : decodeKeyCursor(query.cursor);
        if (after === null) throw identityProblem({ _tag: 'InvalidKeyCursor' });
        const result = await d.listKeys.execute({ wallet: principal.wallet, limit: query.limit ?? DEFAULT_KEY_PAGE, ...(after ? { after } : {}) });
        const { items, next } = E.isRight(result) ? result.right : { items: [], next: null };
        const now = d.clock.nowMs();
        return {
          status: 200,
          body: {
            items: items.map((k) => ({
              ...keyJson(k, now),
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
      method: 'patch',
      path: '/v1/keys/{key_id}',
      operationId: 'updateApiKey',
      tag: 'identity',
      summary: 'Rename, disable or enable an API key',
      description:
        'A disabled key is refused (401, code disabled_api_key) from the next request on this instance, and on every other instance within API_KEY_CACHE_TTL_S; enabling it restores it as it was. Scopes, robots and expiry never change: make a new key for a new grant.',
      auth: 'jwt',
      params: c.KeyIdParams,
      body: c.UpdateKeyBody,
      responses: { 200: { description: 'The key as it now is.', body: c.KeyResponse }, ...errors(400, 404, 415, 422, ...AUTHED) },
      handle: async ({ params, body, principal }) => {
        if (body.name === undefined && body.enabled === undefined) throw new HttpError(422, 'give name or enabled (or both)', { code: 'validation_error' });
        const updated = await d.updateKey.execute({
          wallet: principal.wallet,
          keyId: params.key_id,
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
        });
        return { status: 200, body: keyJson(orProblem(updated, identityProblem), d.clock.nowMs()) };
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
        orProblem(await d.deleteKey.execute({ wallet: principal.wallet, keyId: params.key_id }), identityProblem);
        return { status: 204 };
      },
    }),
    route({
      method: 'get',
      path: '/v1/keys/{key_id}/usage',
      operationId: 'getApiKeyUsage',
      tag: 'identity',
      summary: "One API key's requests and errors per UTC day, in total and per endpoint",
      description:
        'One row per UTC day of the last `days` days (today included), oldest first, zeros included; `endpoints` gives the same per endpoint (method and route template) the key called in the window, most requests first. Errors are requests answered with a status ≥ 400.',
      auth: 'jwt',
      params: c.KeyIdParams,
      query: c.KeyUsageQuery,
      responses: {
        200: {
          description: 'The usage (text/csv with format=csv).',
          body: c.KeyUsageResponse,
          mediaTypes: { 'text/csv': 'With format=csv: endpoint,day,request_count,error_count, one row per endpoint and UTC day, `*` for all endpoints.' },
        },
        ...errors(400, 404, 422, ...AUTHED),
      },
      handle: async ({ params, query, principal }) => {
        const days = query.days ?? 30;
        const usage = orProblem(await d.keyUsage.execute({ wallet: principal.wallet, keyId: params.key_id, days }), identityProblem);
        const file = (ext: 'csv' | 'json') => ({
          'Content-Disposition': `attachment; filename="key-usage-${params.key_id}-${days}d.${ext}"`,
          'Cache-Control': 'no-store',
        });
        if (query.format === 'csv') return { status: 200, body: keyUsageCsv(usage), headers: { 'Content-Type': 'text/csv; charset=utf-8', ...file('csv') } };
        return {
          status: 200,
          body: {
            key_id: params.key_id,
            days,
            items: usage.days.map(dayJson),
            endpoints: usage.endpoints.map((e) => ({ endpoint: e.endpoint, request_count: e.requests, error_count: e.errors, items: e.days.map(dayJson) })),
          },
          ...(query.format === 'json' ? { headers: file('json') } : {}),
        };
      },
    }),
  ];
}

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
    return Number.isSafeInteger(createdAtMs) && typeof keyId === 'string' && keyId.length >= 1 && keyId.length <= 64
      ? { createdAtMs: createdAtMs as number, keyId }
      : null;
  } catch {
    return null;
  }
}
