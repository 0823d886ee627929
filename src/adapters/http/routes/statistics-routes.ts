import type { GetStatistics } from '../../../application/dashboard/get-statistics.js';
import { MAX_SPAN_DAYS } from '../../../domain/stats/statistics-window.js';
import { WalletParams } from '../codecs/fleet.codecs.js';
import { StatisticsQuery, StatisticsResponse } from '../codecs/statistics.codecs.js';
import { orProblem } from '../http-error.js';
import { route, type AnyRoute } from '../route.js';
import { statisticsProblem } from './dashboard-problems.js';
import { AUTHED, errorResponses } from './error-responses.js';
import { statisticsBody, statisticsCsv, statisticsFileName } from './statistics-body.js';

const errors = errorResponses({
  400: 'Malformed query string (a broken percent-escape, a parameter given twice, or one the route does not take).',
  403: "Another wallet's address, a wallet mismatch, or a token balance below the minimum.",
  422: `An unknown range or format, range given with from/to, from or to alone, to not later than from, or a window longer than ${MAX_SPAN_DAYS} days; detail names the problem.`,
});

/** GET /v1/stats/wallet/{addr}/report: the dashboard's statistics page, and its exports. */
export function statisticsRoutes(d: { readonly statistics: GetStatistics }): AnyRoute[] {
  return [
    route({
      method: 'get',
      path: '/v1/stats/wallet/{addr}/report',
      operationId: 'getWalletReport',
      heavyRead: true,
      tag: 'statistics',
      summary: "The caller's statistics over a range: proofs and refusals over time, top robots and tasks, weekday × hour, requests per endpoint",
      description: [
        `A named range (24h, 7d, 30d, 90d; default 7d) or a custom window from/to (RFC 3339, at most ${MAX_SPAN_DAYS} days). Buckets are UTC hours up to 48 hours, UTC days beyond; the window is widened to whole buckets and \`from\`/\`to\` say which.`,
        "Every figure is counted from the stored proofs, refusals and key usage: proofs by created_at, refusals by when they were refused; the robots and tasks with the most proofs (`top`, 1–50, default 10) and the rest summed as `other`; proofs by UTC weekday and hour; the requests of the wallet's current API keys per endpoint over the whole UTC days covering the window.",
        "`format=csv` answers the same figures as CSV (`section,key,metric,value`, docs/api.md), `format=json` as JSON, both as an attachment to save. Another wallet's address gives 403.",
      ].join(' '),
      auth: 'jwt',
      params: WalletParams,
      query: StatisticsQuery,
      responses: {
        200: {
          description: 'The statistics (text/csv with format=csv).',
          body: StatisticsResponse,
          mediaTypes: { 'text/csv': 'With format=csv: one figure a row, section,key,metric,value (docs/api.md).' },
        },
        ...errors(400, 422, ...AUTHED),
      },
      handle: async ({ params, query, principal }) => {
        const stats = orProblem(
          await d.statistics.execute({
            caller: principal.wallet,
            wallet: params.addr,
            top: query.top ?? 10,
            ...(query.range !== undefined ? { range: query.range } : {}),
            ...(query.from !== undefined ? { fromMs: query.from } : {}),
            ...(query.to !== undefined ? { toMs: query.to } : {}),
          }),
          statisticsProblem,
        );
        const attachment = (ext: 'csv' | 'json') => ({
          'Content-Disposition': `attachment; filename="${statisticsFileName(stats, ext)}"`,
          'Cache-Control': 'no-store',
        });
        if (query.format === 'csv')
          return { status: 200, body: statisticsCsv(stats), headers: { 'Content-Type': 'text/csv; charset=utf-8', ...attachment('csv') } };
        const body = statisticsBody(params.addr, stats);
        return { status: 200, body, ...(query.format === 'json' ? { headers: attachment('json') } : {}) };
      },
    }),
  ];
}
