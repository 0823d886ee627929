import * as t from 'io-ts';
import { ClaimedDigest, EnvelopeCodec, NonEmptyString } from '../../../application/codecs/envelope.codec.js';
import { MAX_INDEXED_LENGTH } from '../../../domain/proof/proof-record.js';
import { DEFAULT_LIMITS } from '../../../domain/protocol/limits.js';
import { documented, schemaOf } from '../openapi/codec-schema.js';
import { EXPORT_CAP, MAX_CURSOR_LENGTH, MAX_OFFSET, TOTAL_CAP } from '../../../application/ports/proof-store.js';
import { boundedInteger, boundedString, closed, described, DateTimeMs, LimitFromBody, LimitFromQuery, NullableString } from './common.codecs.js';

// The protocol's own string rules, as the document shows them.
documented(NonEmptyString, { type: 'string', minLength: 1 });
documented(ClaimedDigest, {
  type: 'string',
  description: 'BLAKE3-256 digest as 64 lowercase hex characters. Any other string is accepted as input and fails verification as a hash that does not match.',
  examples: ['3ff8279a8b13efe0e3d784f86b20d83c6a148abb7d3ead79ec9046667ba4abed'],
});

/**
 * The envelope is taken as any JSON value here and checked by the protocol itself, so the
 * checks run in docs/protocol.md's order with its messages; the document still shows its schema.
 */
export const RawEnvelope = documented(new t.Type<unknown>('envelope', (_u): _u is unknown => true, t.success, t.identity), schemaOf(EnvelopeCodec));

const required = <C extends t.Mixed>(codec: C, name: string) =>
  new t.Type<t.TypeOf<C>, unknown, unknown>(name, codec.is, (u, c) => (u === undefined ? t.failure(u, c, 'is required') : codec.validate(u, c)), t.identity);

export const SubmitBody = t.type({ envelope: documented(required(RawEnvelope, 'envelope'), schemaOf(EnvelopeCodec)) }, 'SubmitProof');
export const VerifyBody = SubmitBody;

export const batchBody = (maxBatch: number = DEFAULT_LIMITS.maxBatch) =>
  t.type(
    {
      envelopes: documented(
        new t.Type<unknown[], unknown[], unknown>(
          'envelopes',
          (u): u is unknown[] => Array.isArray(u),
          (u, c) =>
            !Array.isArray(u)
              ? t.failure(u, c, u === undefined ? 'is required' : 'must be an array of envelopes')
              : u.length < 1 || u.length > maxBatch
                ? t.failure(u, c, `must hold 1 to ${maxBatch} envelopes (got ${u.length})`)
                : t.success(u),
          t.identity,
        ),
        { type: 'array', items: schemaOf(EnvelopeCodec), minItems: 1, maxItems: maxBatch },
      ),
    },
    'VerifyBatch',
  );

// Any value a stored proof can hold (see MAX_INDEXED_LENGTH), the empty string included.
const Id = boundedString(0, MAX_INDEXED_LENGTH);

/** A page's start as a count of matches to skip; in a query string it arrives as text. */
const pageOffset = (fromText: boolean) =>
  boundedInteger('offset', 0, MAX_OFFSET, fromText, `must be an integer from 0 to ${MAX_OFFSET} (page deeper with next_cursor)`, {
    type: 'integer',
    minimum: 0,
    maximum: MAX_OFFSET,
    description: `Skip this many matches (at most ${MAX_OFFSET}); the answer then also has total, total_exact, limit and offset. Not with cursor: next_cursor continues from any page, at any depth.`,
  });

const ProofCursor = documented(boundedString(1, MAX_CURSOR_LENGTH, 'cursor'), {
  type: 'string',
  description: 'Opaque; the next_cursor of the previous page, sent with the same order, sort and filters (limit may change).',
});

const SortField = documented(t.keyof({ created_at: null, task_id: null, robot_id: null, payload_hash: null }), {
  type: 'string',
  enum: ['created_at', 'task_id', 'robot_id', 'payload_hash'],
  default: 'created_at',
  description:
    'What the page is ordered by, ties broken by created_at then proof id (payload_hash is the proof id). Ids compare by their UTF-8 bytes; proofs without a robot_id come first in ascending order.',
});
const SortOrder = t.keyof({ asc: null, desc: null });

/** The filters of a list or a search; they combine with AND. */
const FilterProps = {
  task_id: Id,
  robot_id: Id,
  run_id: Id,
  signer_public_key_b64: boundedString(1, 100),
  created_after: DateTimeMs,
  created_before: DateTimeMs,
  topic: boundedString(0, MAX_INDEXED_LENGTH),
  text: boundedString(1, 200),
  cursor: ProofCursor,
  order: SortOrder,
  sort_field: SortField,
  sort_order: documented(SortOrder, {
    type: 'string',
    enum: ['asc', 'desc'],
    description: 'The same as order (either may be sent; if both, they must agree).',
  }),
};

/** GET /v1/proofs takes every filter of a search as a query parameter. */
export const ListQuery = t.partial({ ...FilterProps, limit: LimitFromQuery, offset: pageOffset(true) }, 'ListProofsQuery');

/** GET /v1/proofs/export: every filter and order of a list, the format, and up to EXPORT_CAP proofs (docs/api.md#exporting-proofs). */
export const ExportQuery = t.partial(
  {
    ...FilterProps,
    format: documented(t.keyof({ csv: null, jsonl: null }), {
      type: 'string',
      enum: ['csv', 'jsonl'],
      description: 'csv (text/csv) or jsonl (application/x-ndjson). Without it, an Accept of application/x-ndjson chooses jsonl; anything else csv.',
    }),
    limit: boundedInteger('limit', 1, EXPORT_CAP, true, `must be an integer from 1 to ${EXPORT_CAP}`, {
      type: 'integer',
      minimum: 1,
      maximum: EXPORT_CAP,
      default: EXPORT_CAP,
      description: `Most proofs this request answers (at most ${EXPORT_CAP}); the Link header's rel="next" continues.`,
    }),
  },
  'ExportProofsQuery',
);

export const SearchBody = closed(t.partial({ ...FilterProps, limit: LimitFromBody, offset: pageOffset(false) }, 'SearchProofs'));

const ProofIdParam = documented(
  new t.Type<string>(
    'proof_id',
    (u): u is string => typeof u === 'string',
    (u, c) => (typeof u === 'string' ? t.success(u) : t.failure(u, c)),
    t.identity,
  ),
  { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'The proof id: the payload_hash.' },
);
export const ProofIdParams = t.type({ proof_id: ProofIdParam });

export const ScoreBody = documented(
  new t.Type<{ proof_id: string } | { envelope: unknown }, unknown, unknown>(
    'ScoreProof',
    (u): u is { proof_id: string } => typeof u === 'object' && u !== null,
    (u, c) => {
      const body = (typeof u === 'object' && u !== null ? u : {}) as Record<string, unknown>;
      if (typeof body['proof_id'] === 'string' && body['envelope'] === undefined) return t.success({ proof_id: body['proof_id'] });
      if (body['envelope'] !== undefined && body['proof_id'] === undefined) return t.success({ envelope: body['envelope'] });
      if (body['proof_id'] !== undefined && body['envelope'] !== undefined) return t.failure(u, c, 'takes either proof_id or envelope, not both');
      if (body['proof_id'] !== undefined) return t.failure(u, c, 'proof_id must be a string');
      return t.failure(u, c, 'needs proof_id (a stored proof) or envelope (scored without storing)');
    },
    t.identity,
  ),
  {
    oneOf: [
      { type: 'object', properties: { proof_id: { type: 'string' } }, required: ['proof_id'] },
      { type: 'object', properties: { envelope: schemaOf(EnvelopeCodec) }, required: ['envelope'] },
    ],
  },
);

// Responses (documentation, and response checks in tests).

/** A timestamp the service writes (RFC 3339, UTC): a string codec of its own, documented as such. */
const timestampText = (description?: string) =>
  documented(new t.Type<string, string, unknown>('date-time', t.string.is, t.string.validate, t.identity), {
    type: 'string',
    format: 'date-time',
    ...(description !== undefined && { description }),
  });

const SummaryProps = {
  proof_id: t.string,
  task_id: t.string,
  robot_id: NullableString,
  run_id: NullableString,
  created_at: timestampText(
    "payload.created_at in UTC (Z), with the seconds and fraction digits as signed; the envelope keeps the signer's own text and offset.",
  ),
  received_at: timestampText(),
  signer_public_key_b64: t.string,
  verified: t.boolean,
  topics: t.array(t.string),
  event_count: t.number,
};
export const ProofSummaryResponse = t.type(SummaryProps, 'ProofSummary');
/** The proof's leaf index in the transparency log (GET /v1/log/inclusion/{proof_id} proves it). */
const LogIndex = t.partial({ log_index: t.number });
export const ProofRecordResponse = t.intersection([t.type({ ...SummaryProps, envelope: EnvelopeCodec }), LogIndex], 'ProofRecord');
export const ProofListResponse = t.intersection(
  [
    t.type({
      items: t.array(ProofSummaryResponse),
      next_cursor: described(NullableString, {
        type: ['string', 'null'],
        description: 'Where the next page starts (after an offset page too), or null on the last page.',
      }),
      has_more: t.boolean,
    }),
    t.partial({
      total: described(t.number, { type: 'integer', description: `With offset: how many proofs match, counted up to ${TOTAL_CAP}.` }),
      total_exact: described(t.boolean, { type: 'boolean', description: `With offset: false when more than ${TOTAL_CAP} match (total is then ${TOTAL_CAP}).` }),
      limit: t.number,
      offset: t.number,
    }),
  ],
  'ProofList',
);
export const SubmitResponse = t.intersection(
  [t.type({ proof_id: t.string, duplicate: t.boolean, received_at: timestampText() }), LogIndex],
  'SubmitProofResult',
);

const CheckStatus = t.keyof({ passed: null, failed: null, skipped: null });
const Checks = t.type({
  shape: CheckStatus,
  algorithms: CheckStatus,
  timestamps: CheckStatus,
  telemetry_hash: CheckStatus,
  payload_hash: CheckStatus,
  encoding: CheckStatus,
  signature: CheckStatus,
});
const FailureCode = described(NullableString, {
  type: ['string', 'null'],
  description:
    'Why it is invalid, for programs: the code a submission of it gets in its 422, in snake_case (e.g. payload_hash_mismatch; docs/api.md, "Error codes"); null when valid.',
});
export const VerifyResponse = t.type({ valid: t.boolean, proof_id: NullableString, reason: NullableString, code: FailureCode, checks: Checks }, 'Verification');
export const BatchResponse = t.type(
  {
    results: t.array(t.intersection([t.type({ index: t.number }), VerifyResponse])),
    total: t.number,
    valid_count: t.number,
    invalid_count: t.number,
  },
  'BatchVerification',
);
export const ScoreResponse = t.type(
  { proof_id: t.string, score: t.number, components: t.record(t.string, t.number), reasons: t.record(t.string, t.string), policy: t.string },
  'ProofScore',
);
