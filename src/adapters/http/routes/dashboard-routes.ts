import * as E from 'fp-ts/lib/Either.js';
import type { GetActivitySeries, SeriesFailure } from '../../../application/dashboard/get-activity-series.js';
import type { GetKeyUsage } from '../../../application/dashboard/get-key-usage.js';
import { toRfc3339 } from '../../../domain/protocol/datetime.js';
import { ErrorBody } from '../codecs/common.codecs.js';
import * as c from '../codecs/dashboard.codecs.js';
import { WalletParams } from '../codecs/fleet.codecs.js';
import { KeyIdParams } from '../codecs/identity.codecs.js';
import { HttpError } from '../http-error.js';
import { route, type AnyRoute } from '../route.js';

const ERROR_TEXT: Record<number, string> = {
  400: 'Malformed query string (a broken percent-escape, a parameter given twice, or one the route does not take).',
  401: 'Missing, invalid or expired credential, or no X-Wallet-Address.',
  403: "Another wallet's address, a wallet mismatch, or a token balance below the minimum.",
  404: 'No such API key for this wallet.',
  422: 'A parameter out of range, an empty window, or more than 1,000 buckets; detail names the problem.',
  429: 'Rate limited; see Retry-After.',
  503: 'A dependency is down; see Retry-After.',
};
const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, { description: ERROR_TEXT[s] ?? 'error', body: ErrorBody }]));
const AUTHED = [401, 403, 429, 503];

function seriesProblem(e: SeriesFailure): HttpError {
  switch (e._tag) {
    case 'NotYourWallet':
      return new HttpError(403, 'statistics are only available for your own wallet', { code: 'forbidden_wallet' });
    case 'EmptyWindow':
      return new HttpError(422, 'to must be later than from', { code: 'validation_error', path: 'to' });
    case 'TooManyPoints':
      return new HttpError(422, `the window holds ${e.points} buckets; at most ${e.max} (use bucket=day or a shorter window)`, { code: 'too_many_points', path: 'from' });
  }
}

/** GET /v1/stats/wallet/{addr}/series: the charts of the dashboard's overview. */
export function seriesRoutes(d: { readonly series: GetActivitySeries }): AnyRoute[] {
  return [
    route({
      method: 'get',
      path: '/v1/stats/wallet/{addr}/series',
      operationId: 'getWalletSeries',
      tag: 'statistics',
      summary: "The caller's proofs, refused submissions and active devices per hour or day",
      description:
        'Every bucket of the window is present, zeros included, oldest first; at most 1,000 buckets. Buckets are UTC hours or days. Without from and to: the last 24 hours by hour, or the last 30 days by day, the current bucket included. Proofs count by created_at; refused submissions (invalid) by when they were refused.',
      auth: 'jwt',
      params: WalletParams,
      query: c.SeriesQuery,
      responses: { 200: { description: 'The series.', body: c.SeriesResponse }, ...errors(400, 422, ...AUTHED) },
      handle: async ({ params, query, principal }) => {
        const result = await d.series.execute({
          caller: principal!.wallet,
          wallet: params.addr,
          bucket: query.bucket ?? 'hour',
          ...(query.from !== undefined ? { fromMs: query.from } : {}),
          ...(query.to !== undefined ? { toMs: query.to } : {}),
        });
        if (E.isLeft(result)) throw seriesProblem(result.left);
        const { window, points } = result.right;
        return {
          status: 200,
          body: {
            wallet_address: params.addr,
            bucket: window.size,
            from: toRfc3339(window.fromMs),
            to: toRfc3339(window.toMs),
            points: points.map((p) => ({ t: toRfc3339(p.startMs), proofs: p.proofs, invalid: p.invalid, devices_active: p.devicesActive })),
          },
        };
      },
    }),
  ];
}

/** GET /v1/keys/{key_id}/usage: one key's daily requests and errors. */
export function keyUsageRoutes(d: { readonly usage: GetKeyUsage }): AnyRoute[] {
  return [
    route({
      method: 'get',
      path: '/v1/keys/{key_id}/usage',
      operationId: 'getApiKeyUsage',
      tag: 'identity',
      summary: "One API key's requests and errors per UTC day",
      description: 'One row per UTC day of the last `days` days (today included), oldest first, zeros included. Errors are requests answered with a status ≥ 400.',
      auth: 'jwt',
      params: KeyIdParams,
      query: c.KeyUsageQuery,
      responses: { 200: { description: 'The usage.', body: c.KeyUsageResponse }, ...errors(400, 404, 422, ...AUTHED) },
      handle: async ({ params, query, principal }) => {
        const days = query.days ?? 30;
        const result = await d.usage.execute({ wallet: principal!.wallet, keyId: params.key_id, days });
        if (E.isLeft(result)) throw new HttpError(404, `API key ${params.key_id} not found`, { code: 'not_found' });
        return {
          status: 200,
          body: {
            key_id: params.key_id,
            days,
            items: result.right.map((r) => ({ day: toRfc3339(r.dayMs).slice(0, 10), request_count: r.requests, error_count: r.errors })),
          },
        };
      },
    }),
  ];
}

export interface DashboardSettings {
  readonly localLedger: boolean;
  readonly chainId: string;
  readonly mint: string;
  readonly minimumBalance: number;
  readonly tokenTtlS: number;
}

/** GET /v1/dashboard/config: what the sign-in page needs to know before any credential. */
export function dashboardConfigRoutes(s: DashboardSettings): AnyRoute[] {
  const body = {
    balance_source: s.localLedger ? 'local_ledger' : 'solana_rpc',
    development_wallet: s.localLedger,
    chain_id: s.chainId,
    access_token_mint: s.mint,
    minimum_balance: s.minimumBalance,
    token_ttl_s: s.tokenTtlS,
    fund_command: s.localLedger ? `node bin/proof-registry.js ledger set <wallet> ${s.minimumBalance}` : null,
  };
  return [
    route({
      method: 'get',
      path: '/v1/dashboard/config',
      operationId: 'getDashboardConfig',
      tag: 'operations',
      summary: 'Settings the dashboard needs before sign-in',
      description: 'Where balances come from, whether a development wallet may be offered (only on the local ledger, never with a Solana RPC), the minimum balance and the token lifetime. No credential.',
      auth: 'none',
      responses: { 200: { description: 'The settings.', body: c.DashboardConfigResponse } },
      handle: async () => ({ status: 200, body, headers: { 'Cache-Control': 'no-cache' } }),
    }),
  ];
}
