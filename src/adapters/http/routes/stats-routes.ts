import type { GetWalletStats } from '../../../application/fleet/get-wallet-stats.js';
import { StatsResponse, WalletParams } from '../codecs/fleet.codecs.js';
import { orProblem } from '../http-error.js';
import { route, type AnyRoute } from '../route.js';
import { AUTHED, errorResponses } from './error-responses.js';
import { statsBody } from './fleet-bodies.js';
import { fleetProblem } from './fleet-problems.js';

export interface StatsRouteDeps {
  readonly stats: GetWalletStats;
}

const errors = errorResponses({ 403: 'Another wallet\'s address, a wallet mismatch, or a token balance below the minimum.' });

export function statsRoutes(d: StatsRouteDeps): AnyRoute[] {
  return [
    route({
      method: 'get',
      path: '/v1/stats/wallet/{addr}',
      operationId: 'getWalletStats',
      tag: 'statistics',
      summary: 'Statistics of the caller\'s own wallet',
      description:
        'Proof counts (total, created in the last 24 hours and 7 days, first and last created_at), devices by status, group count, the average score of the latest 100 proofs (scored now under the default policy), and API-key request and error totals. Another wallet\'s address gives 403.',
      auth: 'jwt',
      params: WalletParams,
      responses: { 200: { description: 'The statistics.', body: StatsResponse }, ...errors(...AUTHED) },
      handle: async ({ params, principal }) => {
        const stats = orProblem(await d.stats.execute({ caller: principal!.wallet, wallet: params.addr }), fleetProblem);
        return { status: 200, body: statsBody(stats) };
      },
    }),
  ];
}
