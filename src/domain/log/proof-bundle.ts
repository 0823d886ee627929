import * as E from 'fp-ts/lib/Either.js';
import { bytesToHex, decodeBase64Strict, encodeBase64 } from '../protocol/encoding.js';

/** The `format` of a proof bundle (docs/log.md, "Proof bundles"). */
export const BUNDLE_FORMAT = 'proof-registry/bundle@v1';
/** The first line of a C2SP tlog-proof (c2sp.org/tlog-proof). */
export const TLOG_PROOF_HEADER = 'c2sp.org/tlog-proof@v1';

/**
 * A proof bundle: the envelope, its inclusion proof and the (cosigned) checkpoint it is proven
 * against, in one JSON document, its members in this order. `tlog_proof` is the same inclusion
 * proof in the C2SP tlog-proof@v1 text format, for tools that read that.
 */
export interface ProofBundle {
  readonly format: typeof BUNDLE_FORMAT;
  readonly proof_id: string;
  readonly envelope: unknown;
  /**
   * The envelope's text exactly as it was submitted and stored: what is verified, since an
   * envelope made by the ACTO SDK is hashed over its numbers as written (`56.0`), which
   * `envelope`, a JSON value, cannot keep. `envelope` must parse from it alike.
   */
  readonly envelope_text: string;
  readonly log_index: number;
  readonly tree_size: number;
  /** RFC 9162 leaf hash of the 32 payload_hash bytes, lowercase hex. */
  readonly leaf_hash: string;
  /** The audit path, leaf's sibling first, lowercase hex. */
  readonly hashes: readonly string[];
  /** The checkpoint's signed note, with whatever cosignature lines it carries. */
  readonly checkpoint: string;
  readonly tlog_proof: string;
}

export interface BundleParts {
  readonly proofId: string;
  readonly envelope: unknown;
  readonly envelopeText: string;
  readonly logIndex: number;
  readonly treeSize: number;
  readonly leafHash: Uint8Array;
  readonly hashes: readonly Uint8Array[];
  readonly checkpoint: string;
}

/** The bundle of these parts, its members in the format's order. */
export function proofBundle(p: BundleParts): ProofBundle {
  return {
    format: BUNDLE_FORMAT,
    proof_id: p.proofId,
    envelope: p.envelope,
    envelope_text: p.envelopeText,
    log_index: p.logIndex,
    tree_size: p.treeSize,
    leaf_hash: bytesToHex(p.leafHash),
    hashes: p.hashes.map(bytesToHex),
    checkpoint: p.checkpoint,
    tlog_proof: formatTlogProof(p.logIndex, p.hashes, p.checkpoint),
  };
}

/**
 * The one serialization of a bundle: JSON.stringify of its members in the format's order
 * (whatever order `bundle` has them in, and nothing else), 2-space indentation, a final newline.
 * A verifier requires a file to be exactly this serialization of what it parsed.
 */
export function serializeBundle(bundle: ProofBundle): string {
  const ordered = {
    format: bundle.format,
    proof_id: bundle.proof_id,
    envelope: bundle.envelope,
    envelope_text: bundle.envelope_text,
    log_index: bundle.log_index,
    tree_size: bundle.tree_size,
    leaf_hash: bundle.leaf_hash,
    hashes: bundle.hashes,
    checkpoint: bundle.checkpoint,
    tlog_proof: bundle.tlog_proof,
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

/** c2sp.org/tlog-proof@v1 without extra data: header, `index N`, base64 hashes, an empty line, the checkpoint verbatim. */
export function formatTlogProof(index: number, hashes: readonly Uint8Array[], checkpoint: string): string {
  return `${TLOG_PROOF_HEADER}\nindex ${index}\n${hashes.map((h) => `${encodeBase64(h)}\n`).join('')}\n${checkpoint}`;
}

export interface TlogProof {
  readonly extra?: Uint8Array;
  readonly index: number;
  readonly hashes: readonly Uint8Array[];
  readonly checkpoint: string;
}

/** Reads a c2sp.org/tlog-proof@v1 text; Left says what is wrong with it. */
export function parseTlogProof(text: string): E.Either<string, TlogProof> {
  const split = text.indexOf('\n\n');
  if (split < 0) return E.left('no empty line before the checkpoint');
  const lines = text.slice(0, split).split('\n');
  const checkpoint = text.slice(split + 2);
  if (lines[0] !== TLOG_PROOF_HEADER) return E.left(`the first line is not ${TLOG_PROOF_HEADER}`);
  let at = 1;
  let extra: Uint8Array | undefined;
  if (lines[at]?.startsWith('extra ')) {
    const decoded = decodeBase64Strict(lines[at]!.slice('extra '.length));
    if (decoded === null) return E.left('the extra line is not base64');
    extra = decoded;
    at++;
  }
  const index = /^index (0|[1-9][0-9]*)$/.exec(lines[at] ?? '');
  if (!index || !Number.isSafeInteger(Number(index[1]))) return E.left('no "index N" line with a decimal index');
  const hashes: Uint8Array[] = [];
  for (const line of lines.slice(at + 1)) {
    const hash = decodeBase64Strict(line);
    if (hash === null || hash.length !== 32) return E.left(`"${line}" is not a base64 SHA-256 hash`);
    hashes.push(hash);
  }
  return E.right({ ...(extra ? { extra } : {}), index: Number(index[1]), hashes, checkpoint });
}
