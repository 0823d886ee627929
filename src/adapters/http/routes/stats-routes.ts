import * as E from 'fp-ts/lib/Either.js';
import type { GetWalletStats } from '../../../application/fleet/get-wallet-stats.js';
import { ErrorBody } from '../codecs/common.codecs.js';
import { StatsResponse, WalletParams } from '../codecs/fleet.codecs.js';
import { route, type AnyRoute } from '../route.js';
import { statsBody } from './fleet-bodies.js';
import { fleetProblem } from './fleet-routes.js';

export interface StatsRouteDeps {
  readonly stats: GetWalletStats;
}

const error = (description: string) => ({ description, body: ErrorBody });

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
      responses: {
        200: { description: 'The statistics.', body: StatsResponse },
        401: error('Missing, invalid or expired credential, or no X-Wallet-Address.'),
        403: error('Another wallet\'s address, a wallet mismatch, or a token balance below the minimum.'),
        429: error('Rate limited; see Retry-After.'),
        503: error('A dependency is down; see Retry-After.'),
      },
      handle: async ({ params, principal }) => {
        const stats = await d.stats.execute({ caller: principal!.wallet, wallet: params.addr });
        if (E.isLeft(stats)) throw fleetProblem(stats.left);
        return { status: 200, body: statsBody(stats.right) };
      },
    }),
  ];
}
