import { toRfc3339 } from '../../../domain/protocol/datetime.js';
import * as E from 'fp-ts/lib/Either.js';
import type { GetProof } from '../../../application/proofs/get-proof.js';
import type { ScoreProof } from '../../../application/proofs/score-proof.js';
import type { SearchFailure, SearchInput, SearchProofs, SearchResult } from '../../../application/proofs/search-proofs.js';
import type * as t from 'io-ts';
import type { SubmitProof } from '../../../application/proofs/submit-proof.js';
import type { VerifyBatch } from '../../../application/proofs/verify-batch.js';
import type { VerifyEnvelope } from '../../../application/proofs/verify-envelope.js';
import type { ProofProtocol } from '../../../application/proofs/proof-protocol.js';
import type { CursorQuery } from '../../../application/proofs/proof-cursor.js';
import { toUtcRfc3339 } from '../../../domain/protocol/datetime.js';
import type { ProofRecord, ProofSummary } from '../../../domain/proof/proof-record.js';
import * as c from '../codecs/proof.codecs.js';
import { orProblem } from '../http-error.js';
import type { HttpMetrics } from '../http-metrics.js';
import { receivedBody } from '../received-body.js';
import { route, type AnyRoute, type Reply } from '../route.js';
import { AUTHED, errorResponses } from './error-responses.js';
import { submitCounted, verifyBatchCounted, verifyCounted } from './proof-calls.js';
import { proofProblem } from './proof-problems.js';

export interface ProofRouteDeps {
  readonly submit: SubmitProof;
  readonly get: GetProof;
  readonly search: SearchProofs;
  readonly verify: VerifyEnvelope;
  readonly verifyBatch: VerifyBatch;
  readonly score: ScoreProof;
  readonly protocol: ProofProtocol;
  readonly metrics: HttpMetrics;
  readonly batchBodyLimitBytes: number;
  readonly maxBatch: number;
}

const errors = errorResponses({
  404: 'No such proof for this wallet.',
  422: 'Validation or verification failed, or a search body member that is not a filter; detail names the member.',
});

export function proofRoutes(d: ProofRouteDeps): AnyRoute[] {
  const maxDepth = d.protocol.limits.maxDepth;
  return [
    route({
      method: 'post',
      path: '/v1/proofs',
      operationId: 'submitProof',
      tag: 'proofs',
      summary: 'Submit a proof',
      description:
        'Verifies the envelope (in the verification order of docs/protocol.md) and stores it for the wallet. Resubmitting a proof the wallet already has returns the same proof_id and leaves the stored copy untouched. The envelope is checked and stored as the exact text sent (the spelling of its numbers, its escapes), so an envelope hashed in the ACTO form verifies as sent.',
      auth: 'api_key',
      scope: 'proofs:write',
      body: c.SubmitBody,
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
        return { status: 200, body: { proof_id: record.proofId, duplicate: !stored, received_at: iso(record.receivedAtMs), ...logIndexOf(record) } };
      },
    }),
    route({
      method: 'get',
      path: '/v1/proofs',
      operationId: 'listProofs',
      heavyRead: true,
      tag: 'proofs',
      summary: 'List proofs, newest first',
      description:
        'Takes every filter of POST /v1/proofs/search as a query parameter (created_after and created_before as RFC 3339 date-times), order included; without order, newest created_at first.',
      auth: 'api_key',
      scope: 'proofs:read',
      query: c.ListQuery,
      responses: { 200: { description: 'A page of proofs (without envelopes).', body: c.ProofListResponse }, ...errors(400, 422, ...AUTHED) },
      handle: async ({ query, principal }) => page(await search(d.search, principal.wallet, query)),
    }),
    route({
      method: 'get',
      path: '/v1/proofs/{proof_id}',
      operationId: 'getProof',
      tag: 'proofs',
      summary: 'Get a proof with its envelope',
      auth: 'api_key',
      scope: 'proofs:read',
      params: c.ProofIdParams,
      responses: { 200: { description: 'The stored proof.', body: c.ProofRecordResponse }, ...errors(404, ...AUTHED) },
      handle: async ({ params, principal }) => {
        const found = orProblem(await d.get.execute({ wallet: principal.wallet, proofId: params.proof_id, withText: true }), proofProblem);
        return recordReply({ ...summaryBody(found), ...logIndexOf(found) }, found);
      },
    }),
    route({
      method: 'post',
      path: '/v1/proofs/search',
      operationId: 'searchProofs',
      heavyRead: true,
      tag: 'proofs',
      summary: 'Search proofs',
      description:
        'Filters combine with AND. created_after is inclusive, created_before exclusive; topic matches proofs with an event of that topic; text is a case-insensitive substring of task, robot and run ids and meta values. Default order desc (newest created_at first); sort_field orders by task_id, robot_id or payload_hash instead. Pages continue with next_cursor at any depth, or start offset matches in (up to 10,000, with total).',
      auth: 'api_key',
      scope: 'proofs:read',
      body: c.SearchBody,
      responses: { 200: { description: 'A page of matching proofs.', body: c.ProofListResponse }, ...errors(400, 413, 415, 422, ...AUTHED) },
      handle: async ({ body, principal }) => page(await search(d.search, principal.wallet, body)),
    }),
    route({
      method: 'post',
      path: '/v1/verify',
      operationId: 'verifyProof',
      tag: 'verification',
      summary: 'Verify an envelope without storing it',
      auth: 'api_key',
      scope: 'verify',
      body: c.VerifyBody,
      rawBody: true,
      responses: { 200: { description: 'The verdict; valid or not.', body: c.VerifyResponse }, ...errors(400, 413, 415, 422, ...AUTHED) },
      handle: async ({ body, principal, rawBody }) => ({ status: 200, body: await verifyCounted(d, { body, wallet: principal?.wallet, rawBody, maxDepth }) }),
    }),
    route({
      method: 'post',
      path: '/v1/verify/batch',
      operationId: 'verifyBatch',
      tag: 'verification',
      summary: 'Verify up to 1,000 envelopes',
      description: 'Results are in input order; an invalid envelope gets its own result and never fails the batch. Large batches are spread over all cores.',
      auth: 'api_key',
      scope: 'verify',
      body: c.batchBody(d.maxBatch),
      bodyLimitBytes: d.batchBodyLimitBytes,
      rawBody: true,
      responses: { 200: { description: 'One result per envelope.', body: c.BatchResponse }, ...errors(400, 413, 415, 422, ...AUTHED) },
      handle: async ({ body, principal, rawBody }) => ({
        status: 200,
        body: await verifyBatchCounted(d, { body, wallet: principal?.wallet, rawBody, maxDepth }),
      }),
    }),
    route({
      method: 'post',
      path: '/v1/score',
      operationId: 'scoreProof',
      tag: 'scoring',
      summary: 'Score a stored proof or an envelope',
      description: 'Deterministic for the same proof and clock. The policy is described in docs/fleet-and-scoring.md.',
      auth: 'api_key',
      scope: 'verify',
      body: c.ScoreBody,
      rawBody: true,
      responses: { 200: { description: 'The score with its components and reasons.', body: c.ScoreResponse }, ...errors(400, 404, 413, 415, 422, ...AUTHED) },
      handle: async ({ body, principal, rawBody }) => {
        const wallet = principal.wallet;
        const received = receivedBody(rawBody, maxDepth).envelope();
        const input = 'proof_id' in body ? { wallet, proofId: body.proof_id } : { wallet, envelope: body.envelope, ...(received ? { received } : {}) };
        const score = orProblem(await d.score.execute(input), proofProblem);
        return { status: 200, body: score };
      },
    }),
  ];
}

const iso = toRfc3339;

type SearchRequest = t.TypeOf<typeof c.SearchBody> | t.TypeOf<typeof c.ListQuery>;

/** Runs a list or a search; newest first unless asked (order and sort_order are the same member). */
async function search(use: SearchProofs, wallet: string, q: SearchRequest): Promise<E.Either<SearchFailure, SearchPage>> {
  const conflict = orderConflict(q);
  if (conflict) return E.left(conflict);
  const query: SearchInput = { ...filterQuery(q), limit: q.limit ?? 50, ...(q.offset !== undefined ? { offset: q.offset } : {}) };
  const result = await use.execute({ wallet, query });
  return E.map((r: SearchResult) => ({ ...r, limit: query.limit, ...(q.offset !== undefined && { offset: q.offset }) }))(result);
}

/** The members every list, search and export of proofs takes. */
export type FilterRequest = Omit<t.TypeOf<typeof c.ListQuery>, 'limit' | 'offset'>;

/** order and sort_order are the same member: both may be sent only when they agree. */
export function orderConflict(q: FilterRequest): SearchFailure | null {
  return q.order !== undefined && q.sort_order !== undefined && q.order !== q.sort_order
    ? { _tag: 'InvalidRange', detail: 'order and sort_order are the same member; send one, or the same value in both' }
    : null;
}

/** A request's filters, order and cursor as the use cases take them; newest first unless asked. */
export function filterQuery(q: FilterRequest): CursorQuery & { readonly cursor?: string } {
  return {
    order: q.order ?? q.sort_order ?? 'desc',
    ...(q.sort_field !== undefined ? { sort: q.sort_field } : {}),
    ...(q.task_id !== undefined ? { taskId: q.task_id } : {}),
    ...(q.robot_id !== undefined ? { robotId: q.robot_id } : {}),
    ...(q.run_id !== undefined ? { runId: q.run_id } : {}),
    ...(q.signer_public_key_b64 !== undefined ? { signerPublicKeyB64: q.signer_public_key_b64 } : {}),
    ...(q.created_after !== undefined ? { createdAfterMs: q.created_after } : {}),
    ...(q.created_before !== undefined ? { createdBeforeMs: q.created_before } : {}),
    ...(q.topic !== undefined ? { topic: q.topic } : {}),
    ...(q.text !== undefined ? { text: q.text } : {}),
    ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
  };
}

/** A proof as lists show it (also the recent proofs of a device). */
export function summaryBody(s: ProofSummary) {
  return {
    proof_id: s.proofId,
    task_id: s.taskId,
    robot_id: s.robotId,
    run_id: s.runId,
    // Signed with any offset; shown in UTC (the envelope keeps the text as signed).
    created_at: toUtcRfc3339(s.createdAt),
    received_at: iso(s.receivedAtMs),
    signer_public_key_b64: s.signerPublicKeyB64,
    // Only proofs that verified are ever stored.
    verified: true,
    topics: s.topics,
    event_count: s.eventCount,
  };
}

/**
 * A stored proof with its envelope as the very text stored, which is the text the submitter
 * sent: re-serialised, `56.0` would come back as `56` and `-0.0` as `0`, and an envelope hashed
 * in the ACTO form would no longer verify from what it answers.
 */
export function recordReply(summary: object, r: Pick<ProofRecord, 'envelope' | 'envelopeJson'>): Reply {
  if (r.envelopeJson === undefined) return { status: 200, body: { ...summary, envelope: r.envelope } };
  const head = JSON.stringify(summary);
  return {
    status: 200,
    body: `${head.slice(0, -1)}${head === '{}' ? '' : ','}"envelope":${r.envelopeJson}}`,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  };
}

type SearchPage = SearchResult & { readonly limit: number; readonly offset?: number };

function page(result: E.Either<SearchFailure, SearchPage>) {
  const r = orProblem(result, proofProblem);
  return {
    status: 200,
    body: {
      items: r.items.map(summaryBody),
      next_cursor: r.nextCursor,
      has_more: r.hasMore,
      // An offset page says where it is in the whole, as offset-paging clients expect.
      ...(r.offset !== undefined && r.total !== undefined && { total: r.total.count, total_exact: r.total.exact, limit: r.limit, offset: r.offset }),
    },
  };
}

/** `log_index`, the same for every copy of a proof, where the store keeps the log. */
export const logIndexOf = (r: Pick<ProofRecord, 'logIndex'>) => (r.logIndex === undefined ? {} : { log_index: r.logIndex });
