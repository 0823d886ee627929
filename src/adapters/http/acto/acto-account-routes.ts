import * as t from 'io-ts';
import type { GetWalletStats } from '../../../application/fleet/get-wallet-stats.js';
import type { CheckAccess } from '../../../application/identity/check-access.js';
import { toRfc3339 } from '../../../domain/protocol/datetime.js';
import { WalletParams } from '../codecs/fleet.codecs.js';
import { orProblem } from '../http-error.js';
import { route, type AnyRoute } from '../route.js';
import { AUTHED, errorResponses } from '../routes/error-responses.js';
import { fleetProblem } from '../routes/fleet-problems.js';
import { identityProblem } from '../routes/identity-problems.js';
import * as c from './acto.codecs.js';

export interface ActoAccountRouteDeps {
  readonly stats: GetWalletStats;
  readonly checkAccess: CheckAccess;
}

const errors = errorResponses({ 403: "Another wallet's address, a wallet mismatch, or a token balance below the minimum." });

/** The ACTO SDK's statistics and access calls. */
export function actoAccountRoutes(d: ActoAccountRouteDeps): AnyRoute[] {
  return [
    route({
      method: 'get',
      path: '/acto/v1/stats/wallet/{addr}',
      operationId: 'actoWalletStats',
      heavyRead: true,
      tag: 'acto statistics',
      summary: "Statistics of the caller's own wallet (ACTOClient.get_wallet_stats)",
      description:
        "As GET /v1/stats/wallet/{addr}: proofs accepted, verification calls passed and failed (counted as they are answered, on /v1 and /acto alike), first and last activity, the 10 robots and tasks with the most proofs, the average score of every proof, and activity_timeline: proofs and verifications per UTC day over the last 30 days. Another wallet's address gives 403.",
      auth: 'api_key',
      scope: 'stats:read',
      params: WalletParams,
      responses: { 200: { description: 'The statistics.', body: c.StatsResponse }, ...errors(...AUTHED) },
      handle: async ({ params, principal }) => {
        const s = orProblem(await d.stats.execute({ caller: principal.wallet, wallet: params.addr }), fleetProblem);
        const iso = (ms: number | null) => (ms === null ? null : toRfc3339(ms));
        const average = s.score.averageAll ?? s.score.average;
        return {
          status: 200,
          body: {
            wallet_address: s.wallet,
            total_proofs_submitted: s.proofsSubmitted,
            total_verifications: s.verifications.total,
            successful_verifications: s.verifications.successful,
            failed_verifications: s.verifications.failed,
            // Absent while there is nothing to rate (the SDK then reads its default, 0.0).
            ...(s.verifications.successRate !== null ? { verification_success_rate: s.verifications.successRate } : {}),
            ...(average !== null ? { average_reputation_score: average } : {}),
            first_activity: iso(s.activity.firstMs),
            last_activity: iso(s.activity.lastMs),
            proofs_by_robot: Object.fromEntries(s.topRobots.map((r) => [r.name, r.count])),
            proofs_by_task: Object.fromEntries(s.topTasks.map((r) => [r.name, r.count])),
            activity_timeline: s.timeline.map((day) => ({
              date: toRfc3339(day.dayMs).slice(0, 10),
              proof_count: day.proofs,
              verification_count: day.verifications,
            })),
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
      description: "Answered through the registry's own balance source and cache, as the token gate is; rpc_url is ignored.",
      auth: 'api_key',
      scope: 'any',
      body: c.AccessCheckBody,
      responses: { 200: { description: 'The answer.', body: c.AccessCheckResponse }, ...errors(400, 413, 415, 422, ...AUTHED) },
      handle: async ({ body, principal }) => ({
        status: 200,
        body: orProblem(await d.checkAccess.execute({ wallet: principal.wallet, owner: body.owner, mint: body.mint, minimum: body.minimum }), identityProblem),
      }),
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
