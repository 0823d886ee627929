import type * as t from 'io-ts';
import { MAX_OFFSET, TOTAL_CAP } from '../../../application/ports/proof-store.js';
import type { SearchInput } from '../../../application/proofs/search-proofs.js';
import * as v1 from '../codecs/proof.codecs.js';
import { orProblem } from '../http-error.js';
import { receivedBody } from '../received-body.js';
import { route, type AnyRoute } from '../route.js';
import { AUTHED, errorResponses } from '../routes/error-responses.js';
import { submitCounted, verifyBatchCounted, verifyCounted } from '../routes/proof-calls.js';
import { proofProblem } from '../routes/proof-problems.js';
import { recordReply, summaryBody, type ProofRouteDeps } from '../routes/proof-routes.js';
import * as c from './acto.codecs.js';
import { reasonOf } from './acto-bodies.js';

/** The same use cases and limits as /v1's proof routes: /acto holds no rule of its own. */
export type ActoProofRouteDeps = ProofRouteDeps;

const errors = errorResponses({
  404: 'No such proof for this wallet.',
  422: 'Validation or verification failed; detail says why (the SDK raises ValidationError).',
});

/** The ACTO SDK's proof, verification and scoring calls, over the same use cases as /v1. */
export function actoProofRoutes(d: ActoProofRouteDeps): AnyRoute[] {
  const maxDepth = d.protocol.limits.maxDepth;
  return [
    route({
      method: 'post',
      path: '/acto/v1/proofs',
      operationId: 'actoSubmitProof',
      tag: 'acto proofs',
      summary: 'Submit a proof (ACTOClient.submit_proof)',
      description: 'As POST /v1/proofs: verified (JCS form, then the ACTO form, on the text as sent), stored once per wallet; proof_id is the payload_hash.',
      auth: 'api_key',
      scope: 'proofs:write',
      body: v1.SubmitBody,
      rawBody: true,
      responses: { 200: { description: 'Stored, or already stored.', body: c.SubmitResponse }, ...errors(400, 413, 415, 422, ...AUTHED) },
      handle: async ({ body, principal, rawBody, ctx }) => {
        const { record, stored } = await submitCounted(d, {
          body,
          wallet: principal.wallet,
          robotIds: principal.grant.robotIds,
          rawBody,
          parsed: ctx.request.body,
          maxDepth,
        });
        return { status: 200, body: { proof_id: record.proofId, duplicate: !stored } };
      },
    }),
    route({
      method: 'get',
      path: '/acto/v1/proofs',
      operationId: 'actoListProofs',
      heavyRead: true,
      tag: 'acto proofs',
      summary: 'List proofs, newest first (ACTOClient.list_proofs)',
      auth: 'api_key',
      scope: 'proofs:read',
      query: c.ListQuery,
      responses: { 200: { description: 'The newest proofs (without envelopes).', body: c.ProofListResponse }, ...errors(400, 422, ...AUTHED) },
      handle: async ({ query, principal }) => {
        const page = orProblem(await d.search.execute({ wallet: principal.wallet, query: { order: 'desc', limit: query.limit ?? 50 } }), proofProblem);
        return { status: 200, body: { items: page.items.map(summaryBody), next_cursor: page.nextCursor } };
      },
    }),
    route({
      method: 'get',
      path: '/acto/v1/proofs/{proof_id}',
      operationId: 'actoGetProof',
      tag: 'acto proofs',
      summary: 'Get a proof with its envelope (ACTOClient.get_proof)',
      auth: 'api_key',
      scope: 'proofs:read',
      params: v1.ProofIdParams,
      responses: { 200: { description: 'The stored proof.', body: c.ProofResponse }, ...errors(404, ...AUTHED) },
      handle: async ({ params, principal }) => {
        const found = orProblem(await d.get.execute({ wallet: principal.wallet, proofId: params.proof_id, withText: true }), proofProblem);
        return recordReply(summaryBody(found), found);
      },
    }),
    route({
      method: 'post',
      path: '/acto/v1/proofs/search',
      operationId: 'actoSearchProofs',
      heavyRead: true,
      tag: 'acto proofs',
      summary: 'Search proofs by offset (ACTOClient.search_proofs)',
      description: `Filters combine with AND (search_text: a case-insensitive substring of task, robot and run ids and meta values), sorted by sort_field in sort_order, the proof id breaking ties. Pages by offset (0–${MAX_OFFSET}); total counts the matches up to ${TOTAL_CAP} (total_exact false beyond); next_cursor continues with POST /v1/proofs/search for deeper pages.`,
      auth: 'api_key',
      scope: 'proofs:read',
      body: c.SearchBody,
      responses: { 200: { description: 'A page of matching proofs.', body: c.SearchResponse }, ...errors(400, 413, 415, 422, ...AUTHED) },
      handle: async ({ body, principal }) => {
        const limit = body.limit ?? 50;
        const offset = body.offset ?? 0;
        const found = orProblem(await d.search.execute({ wallet: principal.wallet, query: { ...searchFilters(body), limit, offset } }), proofProblem);
        // An offset search always counts (up to TOTAL_CAP; beyond, total says that many and exact is false).
        const total = found.total ?? { count: offset + found.items.length + (found.hasMore ? 1 : 0), exact: false };
        return {
          status: 200,
          body: {
            items: found.items.map(summaryBody),
            total: total.count,
            total_exact: total.exact,
            limit,
            offset,
            has_more: found.hasMore,
            next_cursor: found.nextCursor,
          },
        };
      },
    }),
    route({
      method: 'post',
      path: '/acto/v1/verify',
      operationId: 'actoVerify',
      tag: 'acto verification',
      summary: 'Verify an envelope without storing it (ACTOClient.verify)',
      description: 'reason is "ok" when valid, else why not; the members of POST /v1/verify come too.',
      auth: 'api_key',
      scope: 'verify',
      body: v1.VerifyBody,
      rawBody: true,
      responses: { 200: { description: 'The verdict; valid or not.', body: c.VerifyResponse }, ...errors(400, 413, 415, 422, ...AUTHED) },
      handle: async ({ body, principal, rawBody }) => {
        const report = await verifyCounted(d, { body, wallet: principal?.wallet, rawBody, maxDepth });
        return { status: 200, body: { ...report, reason: reasonOf(report), payload_hash: report.proof_id } };
      },
    }),
    route({
      method: 'post',
      path: '/acto/v1/verify/batch',
      operationId: 'actoVerifyBatch',
      tag: 'acto verification',
      summary: 'Verify many envelopes (ACTOClient.verify_batch)',
      auth: 'api_key',
      scope: 'verify',
      body: v1.batchBody(d.maxBatch),
      bodyLimitBytes: d.batchBodyLimitBytes,
      rawBody: true,
      responses: { 200: { description: 'One result per envelope, in order.', body: c.BatchResponse }, ...errors(400, 413, 415, 422, ...AUTHED) },
      handle: async ({ body, principal, rawBody }) => {
        const result = await verifyBatchCounted(d, { body, wallet: principal?.wallet, rawBody, maxDepth });
        const results = result.results.map((r) => ({ ...r, reason: reasonOf(r), payload_hash: r.proof_id }));
        return { status: 200, body: { ...result, results } };
      },
    }),
    route({
      method: 'post',
      path: '/acto/v1/score',
      operationId: 'actoScore',
      tag: 'acto scoring',
      summary: 'Score an envelope (ACTOClient.score)',
      description: 'As POST /v1/score; breakdown holds the components.',
      auth: 'api_key',
      scope: 'verify',
      body: v1.SubmitBody,
      rawBody: true,
      responses: { 200: { description: 'The score with its breakdown.', body: c.ScoreResponse }, ...errors(400, 413, 415, 422, ...AUTHED) },
      handle: async ({ body, principal, rawBody }) => {
        const received = receivedBody(rawBody, maxDepth).envelope();
        const score = orProblem(await d.score.execute({ wallet: principal.wallet, envelope: body.envelope, ...(received ? { received } : {}) }), proofProblem);
        return { status: 200, body: { ...score, breakdown: score.components } };
      },
    }),
  ];
}

function searchFilters(b: t.TypeOf<typeof c.SearchBody>): Omit<SearchInput, 'limit' | 'offset'> {
  return {
    order: b.sort_order ?? 'desc',
    sort: b.sort_field ?? 'created_at',
    ...(b.task_id !== undefined ? { taskId: b.task_id } : {}),
    ...(b.robot_id !== undefined ? { robotId: b.robot_id } : {}),
    ...(b.run_id !== undefined ? { runId: b.run_id } : {}),
    ...(b.signer_public_key !== undefined ? { signerPublicKeyB64: b.signer_public_key } : {}),
    ...(b.created_after !== undefined ? { createdAfterMs: b.created_after } : {}),
    ...(b.created_before !== undefined ? { createdBeforeMs: b.created_before } : {}),
    ...(b.search_text !== undefined ? { text: b.search_text } : {}),
  };
}
