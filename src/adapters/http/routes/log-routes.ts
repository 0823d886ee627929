import * as t from 'io-ts';
import type { GetCheckpoint } from '../../../application/log/get-checkpoint.js';
import type { GetLogKey } from '../../../application/log/get-log-key.js';
import type { ListWitnesses } from '../../../application/log/list-witnesses.js';
import type { ProveConsistency } from '../../../application/log/prove-consistency.js';
import type { ProveInclusion } from '../../../application/log/prove-inclusion.js';
import type { ReadEntryBundle } from '../../../application/log/read-entry-bundle.js';
import type { ReadTile } from '../../../application/log/read-tile.js';
import type { TileAnswer } from '../../../application/log/tile-coverage.js';
import { parseTilePath } from '../../../domain/log/tile-paths.js';
import { bytesToHex, hexToBytes } from '../../../domain/protocol/encoding.js';
import { documented } from '../openapi/codec-schema.js';
import { HttpError, orProblem } from '../http-error.js';
import { route, type AnyRoute } from '../route.js';
import { errors, logProblem } from './log-problems.js';

export interface LogRouteDeps {
  readonly checkpoint: GetCheckpoint;
  readonly key: GetLogKey;
  readonly inclusion: ProveInclusion;
  readonly consistency: ProveConsistency;
  readonly tile: ReadTile;
  readonly entries: ReadEntryBundle;
  readonly witnesses: ListWitnesses;
}

/** A tree size in a query string: a decimal integer ≥ 1 (what it may be is the use case's to say, 422 too). */
const TreeSize = documented(
  new t.Type<number, number, unknown>(
    'tree_size',
    (u): u is number => typeof u === 'number',
    (u, c) =>
      typeof u === 'string' && /^[1-9]\d{0,15}$/.test(u) && Number.isSafeInteger(Number(u))
        ? t.success(Number(u))
        : t.failure(u, c, 'must be a tree size: a whole number from 1'),
    t.identity,
  ),
  { type: 'integer', minimum: 1 },
);
const LeafId = documented(
  new t.Type<string>(
    'proof_id',
    (u): u is string => typeof u === 'string',
    (u, c) => (typeof u === 'string' && /^[0-9a-f]{64}$/.test(u) ? t.success(u) : t.failure(u, c, 'must be a proof id: 64 lowercase hex digits')),
    t.identity,
  ),
  { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'The proof id (its payload_hash): the leaf data, hex-decoded.' },
);
const HexHashes = t.array(t.string);

const LogKeyResponse = t.type({ origin: t.string, key_name: t.string, public_key_b64: t.string, vkey: t.string }, 'LogKey');
const InclusionResponse = t.intersection(
  [t.type({ log_index: t.number, tree_size: t.number, leaf_hash: t.string, hashes: HexHashes }), t.partial({ checkpoint: t.string })],
  'InclusionProof',
);
const NullableNumber = t.union([t.number, t.null]);
const WitnessesResponse = t.type(
  {
    quorum: t.number,
    witnesses: t.array(
      t.type(
        {
          name: t.string,
          url: t.string,
          last_cosigned_size: NullableNumber,
          last_cosigned_at: t.union([t.string, t.null]),
          last_error: t.union([t.string, t.null]),
        },
        'LogWitness',
      ),
    ),
  },
  'LogWitnesses',
);
const ConsistencyResponse = t.type({ first: t.number, second: t.number, hashes: HexHashes }, 'ConsistencyProof');

const PUBLIC = { auth: 'none', ipRateLimit: 'api', tag: 'transparency log' } as const;
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The transparency log (docs/log.md): its signed checkpoint, its key,
 * inclusion and consistency proofs, and its C2SP tiles. No credential: anyone may audit;
 * rate limited per IP.
 */
export function logRoutes(d: LogRouteDeps): AnyRoute[] {
  return [
    route({
      ...PUBLIC,
      method: 'get',
      path: '/v1/log/checkpoint',
      operationId: 'getLogCheckpoint',
      summary: 'The latest signed checkpoint',
      description:
        "A C2SP checkpoint (origin, decimal tree size, base64 root hash) in a C2SP signed note, signed with the log's Ed25519 key (GET /v1/log/key gives its vkey), followed by the cosignature lines (cosignature/v1) its witnesses returned for it, if any (GET /v1/log/witnesses). Published sizes never shrink and a size's root never changes.",
      responses: { 200: { description: 'The signed note.', mediaType: 'text/plain; charset=utf-8' }, ...errors(429, 503) },
      handle: async () => {
        const latest = orProblem(await d.checkpoint.execute(), logProblem);
        return { status: 200, body: latest.note, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' } };
      },
    }),
    route({
      ...PUBLIC,
      method: 'get',
      path: '/v1/log/key',
      operationId: 'getLogKey',
      summary: "The log's origin and public key",
      description: 'vkey is the C2SP note verifier key `<key name>+<8 hex digits of key id>+<base64(0x01 ‖ public key)>`, what clients open checkpoints with.',
      responses: { 200: { description: 'The key.', body: LogKeyResponse }, ...errors(429) },
      handle: async () => {
        const key = d.key.execute();
        return { status: 200, body: { origin: key.origin, key_name: key.keyName, public_key_b64: key.publicKeyB64, vkey: key.vkey } };
      },
    }),
    route({
      ...PUBLIC,
      method: 'get',
      path: '/v1/log/inclusion/{proof_id}',
      operationId: 'getLogInclusion',
      summary: "A proof's inclusion proof",
      description:
        "RFC 9162 audit path of the proof's leaf, against the latest checkpoint (then `checkpoint` is its signed note, so the answer checks on its own) or, with tree_size, against that published size (log_index < tree_size ≤ latest). Hashes in lowercase hex.",
      params: t.type({ proof_id: LeafId }),
      query: t.partial({ tree_size: TreeSize }),
      responses: { 200: { description: 'The inclusion proof.', body: InclusionResponse }, ...errors(404, 422, 429, 503) },
      handle: async ({ params, query }) => {
        const proof = orProblem(
          await d.inclusion.execute({ leaf: hexToBytes(params.proof_id)!, ...(query.tree_size !== undefined ? { treeSize: query.tree_size } : {}) }),
          logProblem,
        );
        return {
          status: 200,
          body: {
            log_index: proof.logIndex,
            tree_size: proof.treeSize,
            leaf_hash: bytesToHex(proof.leafHash),
            hashes: proof.hashes.map(bytesToHex),
            ...(proof.checkpoint !== undefined ? { checkpoint: proof.checkpoint } : {}),
          },
        };
      },
    }),
    route({
      ...PUBLIC,
      method: 'get',
      path: '/v1/log/witnesses',
      operationId: 'getLogWitnesses',
      summary: "The log's witnesses and their state",
      description:
        "The witnesses of LOG_WITNESS_POLICY_FILE (c2sp.org/tlog-witness), asked to cosign each checkpoint, with the size each last cosigned, when (RFC 3339), and the last request's error (null once one succeeds again); and the policy's quorum. Empty without a policy.",
      responses: { 200: { description: 'The witnesses.', body: WitnessesResponse }, ...errors(429, 503) },
      handle: async () => {
        const listed = await d.witnesses.execute();
        return {
          status: 200,
          body: {
            quorum: listed.quorum,
            witnesses: listed.witnesses.map((w) => ({
              name: w.name,
              url: w.url,
              last_cosigned_size: w.lastCosignedSize,
              last_cosigned_at: w.lastCosignedAtMs === null ? null : new Date(w.lastCosignedAtMs).toISOString(),
              last_error: w.lastError,
            })),
          },
          headers: { 'Cache-Control': 'no-cache' },
        };
      },
    }),
    route({
      ...PUBLIC,
      method: 'get',
      path: '/v1/log/consistency',
      operationId: 'getLogConsistency',
      summary: 'A consistency proof between two tree sizes',
      description:
        'RFC 9162 consistency proof that the tree of `second` leaves extends the tree of `first` (0 < first ≤ second ≤ the latest size; other sizes: 422). Hashes in lowercase hex.',
      query: t.type({ first: TreeSize, second: TreeSize }),
      responses: { 200: { description: 'The consistency proof.', body: ConsistencyResponse }, ...errors(422, 429, 503) },
      handle: async ({ query }) => {
        const proof = orProblem(await d.consistency.execute(query), logProblem);
        return { status: 200, body: { first: proof.first, second: proof.second, hashes: proof.hashes.map(bytesToHex) } };
      },
    }),
    route({
      ...PUBLIC,
      method: 'get',
      path: '/v1/log/tile/{tile_path*}',
      operationId: 'getLogTile',
      summary: 'A C2SP tile: hashes or an entry bundle',
      description:
        'C2SP tlog-tiles with tile height 8, GET /v1/log/checkpoint as its checkpoint: `<L>/<N>[.p/<W>]` is a hash tile, `entries/<N>[.p/<W>]` an entry bundle (each entry the 32-byte leaf data). N is written in 3-digit groups, all but the last prefixed with x (1234067 → x001/x234/067). Full tiles never change and may be cached for good.',
      params: t.type({ tile_path: t.string }),
      responses: { 200: { description: 'The tile.', mediaType: 'application/octet-stream' }, ...errors(404, 429, 503) },
      handle: async ({ params }) => {
        const parsed = parseTilePath(`tile/${params.tile_path}`);
        if (!parsed) throw new HttpError(404, `${params.tile_path} is not a tile path of C2SP tlog-tiles`, { code: 'tile_not_found' });
        const { level, index, width } = parsed;
        const answer = orProblem(level === 'entries' ? await d.entries.execute({ index, width }) : await d.tile.execute({ level, index, width }), logProblem);
        return { status: 200, body: Buffer.from(answer.bytes), headers: tileHeaders(answer) };
      },
    }),
  ];
}

function tileHeaders(answer: TileAnswer): Record<string, string> {
  // A partial tile is replaced by a wider one as the log grows: clients may keep it, but must ask again.
  return { 'Content-Type': 'application/octet-stream', 'Cache-Control': answer.immutable ? IMMUTABLE : 'no-cache' };
}
