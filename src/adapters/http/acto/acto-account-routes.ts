import * as t from 'io-ts';
import type { GetWalletStats } from '../../../application/fleet/get-wallet-stats.js';
import type { GetActivitySeries } from '../../../application/dashboard/get-activity-series.js';
import type { CheckAccess } from '../../../application/identity/check-access.js';
import { toRfc3339 } from '../../../domain/protocol/datetime.js';
import { WalletParams } from '../codecs/fleet.codecs.js';
import { orProblem } from '../http-error.js';
import { route, type AnyRoute } from '../route.js';
import { dashboardProblem } from '../routes/dashboard-problems.js';
import { AUTHED, errorResponses } from '../routes/error-responses.js';
import { fleetProblem } from '../routes/fleet-problems.js';
import { identityProblem } from '../routes/identity-problems.js';
import * as c from './acto.codecs.js';

export interface ActoAccountRouteDeps {
  readonly stats: GetWalletStats;
  readonly series: GetActivitySeries;
  readonly checkAccess: CheckAccess;
}

const errors = errorResponses({ 403: 'Another wallet\'s address, a wallet mismatch, or a token balance below the minimum.' });

/** Days of activity_timeline: ACTO's default window. */
const TIMELINE_DAYS = 30;

/** The ACTO SDK's statistics and access calls. */
export function actoAccountRoutes(d: ActoAccountRouteDeps): AnyRoute[] {
  return [
    route({
      method: 'get',
      path: '/acto/v1/stats/wallet/{addr}',
      operationId: 'actoWalletStats',
      tag: 'acto statistics',
      summary: 'Statistics of the caller\'s own wallet (ACTOClient.get_wallet_stats)',
      description: `Proofs submitted, first and last activity (created_at of the first and latest proof), proofs by robot, the average score of the latest proofs, and activity_timeline: proofs per UTC day over the last ${TIMELINE_DAYS} days. Another wallet's address gives 403.`,
      auth: 'api_key',
      params: WalletParams,
      responses: { 200: { description: 'The statistics.', body: c.StatsResponse }, ...errors(...AUTHED) },
      handle: async ({ params, principal }) => {
        const stats = orProblem(await d.stats.execute({ caller: principal!.wallet, wallet: params.addr }), fleetProblem);
        const nowMs = stats.generatedAtMs;
        const series = orProblem(
          await d.series.execute({ caller: principal!.wallet, wallet: params.addr, bucket: 'day', fromMs: nowMs - (TIMELINE_DAYS - 1) * 86_400_000, toMs: nowMs + 1 }),
          dashboardProblem,
        );
        return {
          status: 200,
          body: {
            wallet_address: stats.wallet,
            total_proofs_submitted: stats.proofs.total,
            ...(stats.score.average !== null ? { average_reputation_score: stats.score.average } : {}),
            first_activity: stats.proofs.firstAtMs === null ? null : toRfc3339(stats.proofs.firstAtMs),
            last_activity: stats.proofs.lastAtMs === null ? null : toRfc3339(stats.proofs.lastAtMs),
            activity_timeline: series.points.map((p) => ({ date: toRfc3339(p.startMs).slice(0, 10), proof_count: p.proofs })),
          },
        };
      },
    }),
    route({
      method: 'post',
      path: '/acto/v1/access/check',
      operationId: 'actoCheckAccess',
      tag: 'acto access',
      summary: 'Whether an owner holds at least `minimum` of a mint (ACTOClient.check_access)',
      description: 'Answered through the registry\'s own balance source and cache, as the token gate is; rpc_url is ignored.',
      auth: 'api_key',
      body: c.AccessCheckBody,
      responses: { 200: { description: 'The answer.', body: c.AccessCheckResponse }, ...errors(400, 413, 415, 422, ...AUTHED) },
      handle: async ({ body, principal }) => ({ status: 200, body: orProblem(await d.checkAccess.execute({ wallet: principal!.wallet, owner: body.owner, mint: body.mint, minimum: body.minimum }), identityProblem) }),
    }),
  ];
}

/** `GET /acto/health` and `GET /acto/openapi.json`: no credential, as the SDK calls them. */
export function actoOperationRoutes(openapi: () => unknown): AnyRoute[] {
  return [
    route({
      method: 'get',
      path: '/acto/health',
      operationId: 'actoHealth',
      tag: 'acto operations',
      summary: 'Liveness (ACTOClient.health)',
      auth: 'none',
      responses: { 200: { description: 'Healthy.', body: c.Health } },
      handle: async () => ({ status: 200, body: { ok: true, service: 'proof-registry', version: 'acto' } }),
    }),
    route({
      method: 'get',
      path: '/acto/openapi.json',
      operationId: 'actoOpenapi',
      tag: 'acto operations',
      summary: 'The ACTO personality as an OpenAPI 3.1 document',
      auth: 'none',
      responses: { 200: { description: 'The OpenAPI document of /acto.', body: t.UnknownRecord } },
      handle: async () => ({ status: 200, body: openapi() }),
    }),
  ];
}
