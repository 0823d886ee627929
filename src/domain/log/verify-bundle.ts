import * as E from 'fp-ts/lib/Either.js';
import type { ReceivedEnvelope } from '../protocol/acto-hashes.js';
import type { SignatureVerifier } from '../protocol/crypto.js';
import { hexToBytes } from '../protocol/encoding.js';
import { parseReceivedJson, type ReceivedJson } from '../protocol/received-json.js';
import { cosignatureOf, parseCosignerVerifierKey, verifyCosignature } from './cosignature.js';
import { describeLogProofFailure, describeNoteFailure } from './log-failures.js';
import { leafHash } from './merkle.js';
import { openCheckpoint } from './open-checkpoint.js';
import { BUNDLE_FORMAT, parseTlogProof, serializeBundle, type ProofBundle } from './proof-bundle.js';
import { equalBytes, type Sha256 } from './sha256.js';
import { parseSignedNote } from './signed-note.js';
import { parseVerifierKey, type VerifierKey } from './verifier-key.js';
import { verifyInclusion } from './verify-proofs.js';

/** The checks of a bundle, in the order they run (docs/log.md, "Proof bundles"). */
export const BUNDLE_CHECKS = ['canonical', 'format', 'envelope', 'proof_id', 'leaf_hash', 'checkpoint', 'inclusion', 'tlog_proof', 'witnesses'] as const;
export type BundleCheckName = (typeof BUNDLE_CHECKS)[number];

/** pass; fail; skip: not run, because a check it needs failed or (witnesses) no policy was given. */
export type BundleCheckStatus = 'pass' | 'fail' | 'skip';

export interface BundleCheck {
  readonly name: BundleCheckName;
  readonly status: BundleCheckStatus;
  readonly detail: string;
}

export interface BundleVerification {
  /** Every check passed (witnesses may be skipped when no policy was given). */
  readonly valid: boolean;
  /** The bundle's proof_id, once its shape is known. */
  readonly proofId: string | null;
  readonly checks: readonly BundleCheck[];
}

/** What the proof protocol says of the envelope (a VerificationReport has these members). */
export interface EnvelopeVerdict {
  readonly valid: boolean;
  readonly reason?: string | null;
}

/** A witness trusted by a policy: its cosigner key (name, key id, Ed25519 key) and where it is reached. */
export interface PolicyWitness {
  readonly key: VerifierKey;
  readonly url: string;
}

/** A witness policy: `witness <name> <vkey> <url>` lines and one `quorum <n>` (LOG_WITNESS_POLICY_FILE's format). */
export interface WitnessPolicy {
  readonly witnesses: readonly PolicyWitness[];
  readonly quorum: number;
}

export interface BundleVerifierDeps {
  readonly sha: Sha256;
  readonly ed25519: SignatureVerifier;
  /** The registry's protocol checks of the envelope; `envelopeText` is its text as submitted, for numbers as written. */
  readonly checkEnvelope: (envelope: unknown, envelopeText: string) => EnvelopeVerdict;
}

export interface BundleOptions {
  /** The log's verifier key, as GET /v1/log/key's `vkey`. */
  readonly logKey: string;
  readonly witnessPolicy?: WitnessPolicy;
}

const HEX64 = /^[0-9a-f]{64}$/;

/**
 * Reads a witness policy: one directive a line, `witness <name> <vkey> <url>` (the vkey a
 * cosignature/v1 key named <name>) and `quorum <n>` (at most the number of witnesses; 0 when
 * absent); empty lines and lines starting with # are ignored.
 */
export function parseWitnessPolicy(sha: Sha256, text: string): E.Either<string, WitnessPolicy> {
  const witnesses: PolicyWitness[] = [];
  let quorum: number | null = null;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    const words = line.split(/\s+/);
    const where = `line ${i + 1}`;
    if (words[0] === 'witness') {
      if (words.length !== 4) return E.left(`${where}: expected "witness <name> <vkey> <url>"`);
      const key = parseCosignerVerifierKey(sha, words[2]!);
      if (E.isLeft(key)) return E.left(`${where}: the vkey is not a witness's: ${describeNoteFailure(key.left)}`);
      if (key.right.name !== words[1]) return E.left(`${where}: the vkey is named ${key.right.name}, not ${words[1]}`);
      if (witnesses.some((w) => w.key.name === key.right.name)) return E.left(`${where}: witness ${key.right.name} is listed twice`);
      witnesses.push({ key: key.right, url: words[3]! });
    } else if (words[0] === 'quorum') {
      if (words.length !== 2 || !/^(0|[1-9][0-9]*)$/.test(words[1]!)) return E.left(`${where}: expected "quorum <n>"`);
      if (quorum !== null) return E.left(`${where}: a second quorum line`);
      quorum = Number(words[1]);
    } else {
      return E.left(`${where}: unknown directive ${JSON.stringify(words[0])} (expected witness or quorum)`);
    }
  }
  const q = quorum ?? 0;
  if (q > witnesses.length) return E.left(`quorum ${q} is more than the ${witnesses.length} witnesses listed`);
  return E.right({ witnesses, quorum: q });
}

/** The names of the policy's witnesses with a valid cosignature on the note's checkpoint. */
export function cosignedBy(verifier: SignatureVerifier, note: string, policy: WitnessPolicy): string[] {
  const parsed = parseSignedNote(note);
  if (E.isLeft(parsed)) return [];
  return policy.witnesses
    .filter(({ key }) =>
      parsed.right.signatures.some((s) => {
        if (s.name !== key.name || s.keyId !== key.keyId) return false;
        const cosignature = cosignatureOf(s);
        return cosignature !== null && verifyCosignature(verifier, parsed.right.text, cosignature, key);
      }),
    )
    .map(({ key }) => key.name);
}

/**
 * Verifies a proof bundle's file text offline: its bytes are the canonical serialization of
 * what they parse to, its envelope passes the protocol's checks, its proof_id is the
 * envelope's payload_hash and its leaf hash that of those 32 bytes, its checkpoint is signed
 * by the log key, the audit path leads from the leaf to the checkpoint's root, its tlog_proof
 * says the same, and, with a policy, a quorum of its witnesses cosigned the checkpoint.
 */
export function verifyBundle(text: string, options: BundleOptions, deps: BundleVerifierDeps): BundleVerification {
  const checks: BundleCheck[] = [];
  const done = (proofId: string | null): BundleVerification => {
    const ran = new Set(checks.map((c) => c.name));
    const all = [
      ...checks,
      ...BUNDLE_CHECKS.filter((n) => !ran.has(n)).map((name) => ({ name, status: 'skip' as const, detail: 'not checked: an earlier check failed' })),
    ];
    return { valid: all.every((c) => c.status === 'pass' || (c.name === 'witnesses' && c.status === 'skip' && !options.witnessPolicy)), proofId, checks: all };
  };
  const pass = (name: BundleCheckName, detail: string): void => void checks.push({ name, status: 'pass', detail });
  const fail = (name: BundleCheckName, detail: string): void => void checks.push({ name, status: 'fail', detail });

  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    fail('canonical', `not JSON text (${error instanceof Error ? error.message : String(error)})`);
    return done(null);
  }
  const shape = shapeProblem(parsed);
  if (shape !== null) {
    fail('canonical', 'not a bundle, so it has no canonical form');
    fail('format', shape);
    return done(null);
  }
  const b = parsed as ProofBundle;
  if (serializeBundle(b) === text) pass('canonical', 'the bytes are the canonical serialization of the bundle');
  else fail('canonical', 'the bytes are not the canonical serialization of the bundle (members, order, spacing or escapes differ)');
  pass('format', BUNDLE_FORMAT);

  const submitted = parseJson(b.envelope_text);
  const envelope = submitted === undefined ? { valid: false, reason: 'envelope_text is not JSON text' } : deps.checkEnvelope(submitted, b.envelope_text);
  if (!envelope.valid) fail('envelope', `the envelope is not valid: ${envelope.reason ?? 'no reason given'}`);
  else if (JSON.stringify(submitted) !== JSON.stringify(b.envelope)) fail('envelope', 'envelope is not what envelope_text parses to');
  else pass('envelope', 'the envelope as submitted passes the protocol checks, and envelope is what it parses to');

  const payload = isObject(b.envelope) ? b.envelope['payload'] : undefined;
  const payloadHash = isObject(payload) ? payload['payload_hash'] : undefined;
  if (payloadHash === b.proof_id) pass('proof_id', "proof_id is the envelope's payload_hash");
  else fail('proof_id', `proof_id is not the envelope's payload_hash (${typeof payloadHash === 'string' ? payloadHash : 'none'})`);

  const leaf = leafHash(deps.sha, hexToBytes(b.proof_id)!);
  if (equalBytes(leaf, hexToBytes(b.leaf_hash)!)) pass('leaf_hash', 'leaf_hash is the RFC 9162 leaf hash of the payload_hash bytes');
  else fail('leaf_hash', 'leaf_hash is not SHA-256(0x00 ‖ payload_hash bytes)');

  const key = parseVerifierKey(deps.sha, options.logKey);
  const checkpoint = E.isLeft(key) ? key : openCheckpoint(deps.ed25519, b.checkpoint, key.right);
  if (E.isLeft(checkpoint)) {
    fail('checkpoint', describeNoteFailure(checkpoint.left));
  } else if (checkpoint.right.size !== b.tree_size) {
    fail('checkpoint', `the checkpoint is of size ${checkpoint.right.size}, the proof of size ${b.tree_size}`);
  } else {
    pass('checkpoint', `checkpoint of ${checkpoint.right.origin}, size ${checkpoint.right.size}, signed by the log key`);
    const proof = { leafIndex: b.log_index, treeSize: b.tree_size, leafHash: leaf, hashes: b.hashes.map((h) => hexToBytes(h)!) };
    const included = verifyInclusion(deps.sha, proof, checkpoint.right.rootHash);
    if (E.isRight(included)) pass('inclusion', `leaf ${b.log_index} of ${b.tree_size} leads to the checkpoint's root`);
    else fail('inclusion', describeLogProofFailure(included.left));
  }

  const tlog = parseTlogProof(b.tlog_proof);
  const disagreement = E.isLeft(tlog)
    ? `tlog_proof is not a c2sp.org/tlog-proof@v1: ${tlog.left}`
    : tlog.right.extra !== undefined
      ? 'tlog_proof has an extra line, which a bundle has not'
      : tlog.right.index !== b.log_index
        ? `tlog_proof has index ${tlog.right.index}, not log_index ${b.log_index}`
        : tlog.right.hashes.length !== b.hashes.length || !tlog.right.hashes.every((h, i) => equalBytes(h, hexToBytes(b.hashes[i]!)!))
          ? 'tlog_proof has other hashes than hashes'
          : tlog.right.checkpoint !== b.checkpoint
            ? 'tlog_proof has another checkpoint than checkpoint'
            : null;
  if (disagreement === null) pass('tlog_proof', 'tlog_proof says the same as the JSON members');
  else fail('tlog_proof', disagreement);

  const policy = options.witnessPolicy;
  if (!policy) {
    checks.push({ name: 'witnesses', status: 'skip', detail: 'no witness policy given' });
  } else {
    const names = cosignedBy(deps.ed25519, b.checkpoint, policy);
    const counted = `${names.length} of ${policy.witnesses.length} witnesses cosigned${names.length > 0 ? ` (${names.join(', ')})` : ''}, quorum ${policy.quorum}`;
    if (names.length >= policy.quorum) pass('witnesses', counted);
    else fail('witnesses', counted);
  }
  return done(b.proof_id);
}

/**
 * The envelope as its text was submitted, numbers' text kept (what the protocol reads the ACTO
 * form from); read only if asked, null if the text is not JSON or nests deeper than `maxDepth`.
 */
export function envelopeInBundle(envelopeText: string, maxDepth: number): ReceivedEnvelope {
  let read: ReceivedJson | null | undefined;
  return () => {
    if (read === undefined) {
      const parsed = parseReceivedJson(envelopeText, maxDepth);
      read = E.isRight(parsed) ? parsed.right : null;
    }
    return read;
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Null if the value has a bundle's members with their types; else what is wrong. */
function shapeProblem(v: unknown): string | null {
  if (!isObject(v)) return 'not a JSON object';
  if (v['format'] !== BUNDLE_FORMAT) return `format is not ${BUNDLE_FORMAT}`;
  if (typeof v['proof_id'] !== 'string' || !HEX64.test(v['proof_id'])) return 'proof_id is not 64 lowercase hex digits';
  if (!('envelope' in v)) return 'no envelope';
  if (typeof v['envelope_text'] !== 'string') return 'envelope_text is not a text';
  const index = v['log_index'];
  const size = v['tree_size'];
  if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0) return 'log_index is not a whole number ≥ 0';
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size <= index) return 'tree_size is not a whole number above log_index';
  if (typeof v['leaf_hash'] !== 'string' || !HEX64.test(v['leaf_hash'])) return 'leaf_hash is not 64 lowercase hex digits';
  const hashes = v['hashes'];
  if (!Array.isArray(hashes) || !hashes.every((h) => typeof h === 'string' && HEX64.test(h))) return 'hashes is not a list of 64-hex-digit hashes';
  if (typeof v['checkpoint'] !== 'string') return 'checkpoint is not a signed note text';
  if (typeof v['tlog_proof'] !== 'string') return 'tlog_proof is not a text';
  return null;
}
