import { toRfc3339 } from '../../../domain/protocol/datetime.js';
import * as E from 'fp-ts/lib/Either.js';
import type { GetProof } from '../../../application/proofs/get-proof.js';
import type { ScoreProof } from '../../../application/proofs/score-proof.js';
import type { SearchFailure, SearchInput, SearchProofs } from '../../../application/proofs/search-proofs.js';
import type * as t from 'io-ts';
import type { SubmitProof } from '../../../application/proofs/submit-proof.js';
import type { VerifyBatch } from '../../../application/proofs/verify-batch.js';
import type { VerifyEnvelope } from '../../../application/proofs/verify-envelope.js';
import type { ProofProtocol } from '../../../application/proof-protocol.js';
import { toUtcRfc3339 } from '../../../domain/protocol/datetime.js';
import type { ProofRecord, ProofSummary } from '../../../domain/proof/proof-record.js';
import * as c from '../codecs/proof.codecs.js';
import { orProblem } from '../http-error.js';
import type { HttpMetrics } from '../http-metrics.js';
import { memberTextReader } from '../member-text.js';
import { route, type AnyRoute } from '../route.js';
import { AUTHED, errorResponses } from './error-responses.js';
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
const envelopeText = memberTextReader('envelope');

export function proofRoutes(d: ProofRouteDeps): AnyRoute[] {
  return [
    route({
      method: 'post',
      path: '/v1/proofs',
      operationId: 'submitProof',
      tag: 'proofs',
      summary: 'Submit a proof',
      description: 'Verifies the envelope (in the verification order of docs/protocol.md) and stores it for the wallet. Resubmitting a proof the wallet already has returns the same proof_id and leaves the stored copy untouched. When the body is just {"envelope": …} (no other member, no \\u escape), the envelope is stored as the exact text sent; otherwise as the parsed value, serialized.',
      auth: 'api_key',
      body: c.SubmitBody,
      rawBody: true,
      responses: { 200: { description: 'Stored, or already stored.', body: c.SubmitResponse }, ...errors(400, 413, 415, 422, ...AUTHED) },
      handle: async ({ body, principal, rawBody, ctx }) => {
        // The envelope's own text, when the body is just `{"envelope": …}`: the event loop need
        // not serialize it again for the verify worker, and it is stored as it was sent.
        const envelopeJson = envelopeText(rawBody, ctx.request.body);
        const result = await d.submit.execute({ wallet: principal!.wallet, envelope: body.envelope, ...(envelopeJson !== undefined ? { envelopeJson } : {}) });
        if (E.isLeft(result)) {
          d.metrics.proofsSubmitted.inc({ outcome: 'rejected', reason: result.left._tag });
          throw proofProblem(result.left);
        }
        const { record, stored } = result.right;
        d.metrics.proofsSubmitted.inc({ outcome: stored ? 'stored' : 'duplicate', reason: '' });
        return { status: 200, body: { proof_id: record.proofId, duplicate: !stored, received_at: iso(record.receivedAtMs) } };
      },
    }),
    route({
      method: 'get',
      path: '/v1/proofs',
      operationId: 'listProofs',
      tag: 'proofs',
      summary: 'List proofs, newest first',
      description: 'Takes every filter of POST /v1/proofs/search as a query parameter (created_after and created_before as RFC 3339 date-times), order included; without order, newest created_at first.',
      auth: 'api_key',
      query: c.ListQuery,
      responses: { 200: { description: 'A page of proofs (without envelopes).', body: c.ProofListResponse }, ...errors(400, 422, ...AUTHED) },
      handle: async ({ query, principal }) => page(await d.search.execute({ wallet: principal!.wallet, query: searchQuery(query) })),
    }),
    route({
      method: 'get',
      path: '/v1/proofs/{proof_id}',
      operationId: 'getProof',
      tag: 'proofs',
      summary: 'Get a proof with its envelope',
      auth: 'api_key',
      params: c.ProofIdParams,
      responses: { 200: { description: 'The stored proof.', body: c.ProofRecordResponse }, ...errors(404, ...AUTHED) },
      handle: async ({ params, principal }) => {
        const found = orProblem(await d.get.execute({ wallet: principal!.wallet, proofId: params.proof_id }), proofProblem);
        return { status: 200, body: recordBody(found) };
      },
    }),
    route({
      method: 'post',
      path: '/v1/proofs/search',
      operationId: 'searchProofs',
      tag: 'proofs',
      summary: 'Search proofs',
      description: 'Filters combine with AND. created_after is inclusive, created_before exclusive; topic matches proofs with an event of that topic; text is a case-insensitive substring of task, robot and run ids and meta values. Default order desc (newest created_at first).',
      auth: 'api_key',
      body: c.SearchBody,
      responses: { 200: { description: 'A page of matching proofs.', body: c.ProofListResponse }, ...errors(400, 413, 415, 422, ...AUTHED) },
      handle: async ({ body, principal }) => page(await d.search.execute({ wallet: principal!.wallet, query: searchQuery(body) })),
    }),
    route({
      method: 'post',
      path: '/v1/verify',
      operationId: 'verifyProof',
      tag: 'verification',
      summary: 'Verify an envelope without storing it',
      auth: 'api_key',
      body: c.VerifyBody,
      responses: { 200: { description: 'The verdict; valid or not.', body: c.VerifyResponse }, ...errors(400, 413, 415, 422, ...AUTHED) },
      handle: async ({ body, principal }) => {
        // Counted in the caller's statistics, valid or not.
        const report = await d.verify.execute(body.envelope, principal?.wallet);
        d.metrics.envelopesVerified.inc({ valid: String(report.valid) });
        return { status: 200, body: report };
      },
    }),
    route({
      method: 'post',
      path: '/v1/verify/batch',
      operationId: 'verifyBatch',
      tag: 'verification',
      summary: 'Verify up to 1,000 envelopes',
      description: 'Results are in input order; an invalid envelope gets its own result and never fails the batch. Large batches are spread over all cores.',
      auth: 'api_key',
      body: c.batchBody(d.maxBatch),
      bodyLimitBytes: d.batchBodyLimitBytes,
      responses: { 200: { description: 'One result per envelope.', body: c.BatchResponse }, ...errors(400, 413, 415, 422, ...AUTHED) },
      handle: async ({ body, principal }) => {
        const result = await d.verifyBatch.execute(body.envelopes, principal?.wallet);
        d.metrics.envelopesVerified.inc({ valid: 'true' }, result.valid_count);
        d.metrics.envelopesVerified.inc({ valid: 'false' }, result.invalid_count);
        return { status: 200, body: result };
      },
    }),
    route({
      method: 'post',
      path: '/v1/score',
      operationId: 'scoreProof',
      tag: 'scoring',
      summary: 'Score a stored proof or an envelope',
      description: 'Deterministic for the same proof and clock. The policy is described in docs/fleet-and-scoring.md.',
      auth: 'api_key',
      body: c.ScoreBody,
      responses: { 200: { description: 'The score with its components and reasons.', body: c.ScoreResponse }, ...errors(400, 404, 413, 415, 422, ...AUTHED) },
      handle: async ({ body, principal }) => {
        const wallet = principal!.wallet;
        const score = orProblem(await d.score.execute('proof_id' in body ? { wallet, proofId: body.proof_id } : { wallet, envelope: body.envelope }), proofProblem);
        return { status: 200, body: score };
      },
    }),
  ];
}

const iso = toRfc3339;

/** A list's or a search's filters as the use case takes them; newest first unless asked. */
function searchQuery(q: t.TypeOf<typeof c.SearchBody> | t.TypeOf<typeof c.ListQuery>): SearchInput {
  return {
    order: q.order ?? 'desc',
    limit: q.limit ?? 50,
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

const recordBody = (r: ProofRecord) => ({ ...summaryBody(r), envelope: r.envelope });

function page(result: E.Either<SearchFailure, { items: readonly ProofSummary[]; nextCursor: string | null }>) {
  const { items, nextCursor } = orProblem(result, proofProblem);
  return { status: 200, body: { items: items.map(summaryBody), next_cursor: nextCursor } };
}
