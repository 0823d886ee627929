import { Readable } from 'node:stream';
import * as E from 'fp-ts/lib/Either.js';
import type { Clock } from '../../../application/ports/clock.js';
import type { ExportProofs } from '../../../application/proofs/export-proofs.js';
import { EXPORT_CAP } from '../../../application/ports/proof-store.js';
import * as c from '../codecs/proof.codecs.js';
import { orProblem } from '../http-error.js';
import { route, type AnyRoute } from '../route.js';
import { readInSlots } from '../slots.js';
import { AUTHED, errorResponses } from './error-responses.js';
import { EXPORT_MEDIA_TYPES, exportText, type ExportFormat } from './proof-export-lines.js';
import { proofProblem } from './proof-problems.js';
import { filterQuery, orderConflict } from './proof-routes.js';

export interface ProofExportRouteDeps {
  readonly exportProofs: ExportProofs;
  readonly clock: Clock;
}

const errors = errorResponses({ 422: 'A filter, the cursor, the format or the limit is not valid; detail names the member. Nothing of the export is sent.' });

export function proofExportRoutes(d: ProofExportRouteDeps): AnyRoute[] {
  return [
    route({
      method: 'get',
      path: '/v1/proofs/export',
      operationId: 'exportProofs',
      heavyRead: true,
      tag: 'proofs',
      summary: 'Export the proofs of a search as CSV or JSON Lines',
      description: `Takes every filter and order of GET /v1/proofs, and answers up to limit (at most ${EXPORT_CAP}) matching proofs, streamed as they are read. When more proofs match, the Link header (rel="next") and X-Next-Cursor say where the next export starts, before the body begins. CSV fields that a spreadsheet would run as a formula start with an apostrophe (docs/api.md#exporting-proofs).`,
      auth: 'api_key',
      scope: 'proofs:read',
      query: c.ExportQuery,
      responses: {
        200: {
          description: 'The proofs, one per line, in the list order.',
          mediaTypes: {
            [EXPORT_MEDIA_TYPES.csv]:
              'RFC 4180 CSV with a header line: proof_id, created_at, received_at, task_id, robot_id, run_id, signer_public_key_b64, topics (a JSON array), event_count.',
            [EXPORT_MEDIA_TYPES.jsonl]: 'One JSON object per line, as a GET /v1/proofs item.',
          },
          headers: {
            'Content-Disposition': 'attachment; filename="proofs-YYYY-MM-DD.csv" (or .jsonl), the date in UTC.',
            Link: 'Present when more proofs match: <the same request with cursor set>; rel="next".',
            'X-Next-Cursor': 'The cursor of the next export of the same list; absent when this one reaches its end.',
            'X-Export-Limit': 'The most proofs this export answers.',
            'X-Export-Count': 'How many proofs it held when it began; proofs stored meanwhile inside its range come too.',
          },
        },
        ...errors(400, 422, ...AUTHED),
      },
      handle: async ({ query, principal, ctx }) => {
        const format: ExportFormat = query.format ?? (/application\/x-ndjson/i.test(ctx.get('Accept')) ? 'jsonl' : 'csv');
        const conflict = orderConflict(query);
        const planned = orProblem(
          conflict
            ? E.left(conflict)
            : await d.exportProofs.execute({ wallet: principal.wallet, query: { ...filterQuery(query), ...(query.limit ? { limit: query.limit } : {}) } }),
          proofProblem,
        );
        const acquire = ctx.state.readSlot as (() => Promise<() => void>) | undefined;
        const pages = acquire ? readInSlots(planned.pages, acquire) : planned.pages;
        const body = Readable.from(exportText(pages, format), { objectMode: false });
        // Once the answer has begun no status can tell a failed read: the connection is cut, so the client sees a broken transfer, not a short file.
        body.once('error', () => ctx.res.destroy());
        const next: Record<string, string> =
          planned.nextCursor === null ? {} : { Link: `<${nextUrl(ctx.URL, planned.nextCursor)}>; rel="next"`, 'X-Next-Cursor': planned.nextCursor };
        const day = new Date(d.clock.nowMs()).toISOString().slice(0, 10);
        return {
          status: 200,
          body,
          headers: {
            'Content-Type': EXPORT_MEDIA_TYPES[format],
            'Content-Disposition': `attachment; filename="proofs-${day}.${format}"`,
            'X-Export-Limit': String(planned.limit),
            'X-Export-Count': String(planned.planned),
            ...next,
          },
        };
      },
    }),
  ];
}

/** The same export with the next cursor: path and query only, as the client sent them otherwise. */
function nextUrl(url: URL, cursor: string): string {
  const params = new URLSearchParams(url.search);
  params.set('cursor', cursor);
  return `${url.pathname}?${params.toString()}`;
}
