import type { GetWalletStats } from '../../../application/fleet/get-wallet-stats.js';
import { StatsQuery, StatsResponse, WalletParams } from '../codecs/fleet.codecs.js';
import { orProblem } from '../http-error.js';
import { route, type AnyRoute } from '../route.js';
import { AUTHED, errorResponses } from './error-responses.js';
import { statsBody } from './fleet-bodies.js';
import { fleetProblem } from './fleet-problems.js';

export interface StatsRouteDeps {
  readonly stats: GetWalletStats;
}

const errors = errorResponses({ 403: "Another wallet's address, a wallet mismatch, or a token balance below the minimum." });

export function statsRoutes(d: StatsRouteDeps): AnyRoute[] {
  return [
    route({
      method: 'get',
      path: '/v1/stats/wallet/{addr}',
      operationId: 'getWalletStats',
      heavyRead: true,
      tag: 'statistics',
      summary: "Statistics of the caller's own wallet",
      description:
        "Proof counts (total, created in the last 24 hours and 7 days, first and last created_at), devices by status, group count, scores (each proof scored once under the default policy as it was received: the latest 100 proofs' min, max and average, and the average of every proof), API-key request and error totals; proofs accepted, verification calls (POST /v1/verify and /v1/verify/batch, one per envelope) passed and failed, first and last activity, the 10 robots and tasks with the most proofs, and a timeline of proofs and verifications per UTC day over `days` (1–365, default 30; every day present). Figures are kept as proofs are stored and calls answered, so a request reads a few rows, never the wallet's proofs. Another wallet's address gives 403.",
      auth: 'jwt',
      params: WalletParams,
      query: StatsQuery,
      responses: { 200: { description: 'The statistics.', body: StatsResponse }, ...errors(400, 422, ...AUTHED) },
      handle: async ({ params, query, principal }) => {
        const stats = orProblem(
          await d.stats.execute({ caller: principal.wallet, wallet: params.addr, ...(query.days !== undefined ? { days: query.days } : {}) }),
          fleetProblem,
        );
        return { status: 200, body: statsBody(stats) };
      },
    }),
  ];
}
