import type { GetActivitySeries } from '../../../application/dashboard/get-activity-series.js';
import { toRfc3339 } from '../../../domain/protocol/datetime.js';
import * as c from '../codecs/dashboard.codecs.js';
import { WalletParams } from '../codecs/fleet.codecs.js';
import { orProblem } from '../http-error.js';
import { route, type AnyRoute } from '../route.js';
import { dashboardProblem } from './dashboard-problems.js';
import { AUTHED, errorResponses } from './error-responses.js';

const errors = errorResponses({
  400: 'Malformed query string (a broken percent-escape, a parameter given twice, or one the route does not take).',
  403: "Another wallet's address, a wallet mismatch, or a token balance below the minimum.",
  422: 'A parameter out of range, an empty window, or more than 1,000 buckets; detail names the problem.',
});

/** GET /v1/stats/wallet/{addr}/series: the charts of the dashboard's overview. */
export function seriesRoutes(d: { readonly series: GetActivitySeries }): AnyRoute[] {
  return [
    route({
      method: 'get',
      path: '/v1/stats/wallet/{addr}/series',
      operationId: 'getWalletSeries',
      heavyRead: true,
      tag: 'statistics',
      summary: "The caller's proofs, refused submissions and active devices per hour or day",
      description:
        'Every bucket of the window is present, zeros included, oldest first; at most 1,000 buckets. Buckets are UTC hours or days. Without from and to: the last 24 hours by hour, or the last 30 days by day, the current bucket included. Proofs count by created_at; refused submissions (invalid) by when they were refused.',
      auth: 'jwt',
      params: WalletParams,
      query: c.SeriesQuery,
      responses: { 200: { description: 'The series.', body: c.SeriesResponse }, ...errors(400, 422, ...AUTHED) },
      handle: async ({ params, query, principal }) => {
        const { window, points } = orProblem(
          await d.series.execute({
            caller: principal.wallet,
            wallet: params.addr,
            bucket: query.bucket ?? 'hour',
            ...(query.from !== undefined ? { fromMs: query.from } : {}),
            ...(query.to !== undefined ? { toMs: query.to } : {}),
          }),
          dashboardProblem,
        );
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
      description:
        'Where balances come from, whether a development wallet may be offered (only on the local ledger, never with a Solana RPC), the minimum balance and the token lifetime. No credential.',
      auth: 'none',
      responses: { 200: { description: 'The settings.', body: c.DashboardConfigResponse } },
      handle: async () => ({ status: 200, body, headers: { 'Cache-Control': 'no-cache' } }),
    }),
  ];
}
