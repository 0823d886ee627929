import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { LogVerifier, type InclusionAnswerJson } from '../../application/log/log-verifier.js';
import type { VerificationReport } from '../../application/proofs/verify-proof.js';
import { BUNDLE_FORMAT } from '../../domain/log/proof-bundle.js';
import {
  BUNDLE_CHECKS,
  envelopeInBundle,
  parseWitnessPolicy,
  verifyBundle,
  type BundleVerification,
  type WitnessPolicy,
} from '../../domain/log/verify-bundle.js';
import type { ProofProtocol } from '../../application/proofs/proof-protocol.js';
import { hexToBytes } from '../../domain/protocol/encoding.js';
import { NodeEd25519 } from '../crypto/node-ed25519.js';
import { NodeSha256 } from '../crypto/node-sha256.js';
import { describeAnswerFailure } from './log.js';
import { createProofProtocol } from '../crypto/proof-protocol-factory.js';
import { receivedText } from '../../application/proofs/received-envelope.js';
import {
  CliError,
  describeFsError,
  EXIT_INVALID,
  EXIT_OK,
  isPlainObject,
  parseCommandArgs,
  parseJson,
  readSource,
  type CliIo,
  type Command,
} from './command.js';

const USAGE = `Usage: proof-registry verify [--json] [--ed25519 sodium|node|tweetnacl] [--inclusion F --vkey V] <envelope.json|->
       proof-registry verify [--json] --log-key VKEY [--witness-policy FILE] <bundle.json|->

Verifies a proof envelope (protocol v1), bare or wrapped as {"envelope": ...}.
Its hashes may be of the JCS form or of the ACTO SDK's (orjson), which depends on
how the file writes its numbers (56.0 or 56): give the file as it was received.
Exit code: 0 valid, 1 invalid, 2 usage or input error (missing file, not JSON).

With --log-key, the file is a proof bundle (GET /v1/proofs/<proof_id>/bundle) and
is checked offline: its bytes are canonical, its envelope valid, its leaf hash,
the checkpoint's signature by the log key, the inclusion proof, its tlog_proof,
and with --witness-policy a quorum of cosignatures. One line per check; any
changed byte makes it invalid (exit 1), a file that is not JSON included. A file
whose format is ${BUNDLE_FORMAT} needs --log-key.

Options:
  --json               print the verification report as JSON
  --inclusion <file>   also check, offline, that the proof is in the registry's
                       transparency log: the file is GET /v1/log/inclusion/<proof_id>'s
                       answer (e.g. from 'proof-registry log inclusion --out'); needs --vkey
  --vkey <vkey>        the log's verifier key (GET /v1/log/key, "vkey")
  --ed25519 <adapter>  sodium (libsodium, default), node (OpenSSL) or tweetnacl
                       (pure JavaScript); all three accept the same signatures
  --log-key <vkey>     verify a proof bundle with the log's verifier key
                       (GET /v1/log/key, "vkey")
  --witness-policy <file>  with --log-key: "witness <name> <vkey> <url>" and
                       "quorum <n>" lines; the checkpoint must carry valid
                       cosignatures of at least <n> of those witnesses
  -h, --help           show this help
`;

const OPTIONS = {
  json: { type: 'boolean' },
  ed25519: { type: 'string' },
  inclusion: { type: 'string' },
  vkey: { type: 'string' },
  'log-key': { type: 'string' },
  'witness-policy': { type: 'string' },
} as const;

const logVerifier = new LogVerifier(new NodeSha256(), new NodeEd25519());

export const verifyCommand: Command = {
  summary: 'verify a proof envelope (exit 0 valid, 1 invalid)',
  usage: USAGE,
  async run(args: readonly string[], io: CliIo): Promise<number> {
    const { values, positionals, help } = parseCommandArgs(args, OPTIONS, { min: 1, max: 1, name: '<envelope.json> (or - for stdin)' });
    if (help) {
      io.stdout.write(USAGE);
      return EXIT_OK;
    }
    const ed25519 = values.ed25519;
    if (ed25519 !== undefined && ed25519 !== 'sodium' && ed25519 !== 'node' && ed25519 !== 'tweetnacl') {
      throw new CliError(`--ed25519 must be "sodium", "node" or "tweetnacl" (got ${JSON.stringify(ed25519)})`);
    }
    const logKey = values['log-key'];
    if (values['witness-policy'] !== undefined && logKey === undefined) throw new CliError('--witness-policy needs --log-key: it is for proof bundles');
    if (logKey !== undefined && (values.inclusion !== undefined || values.vkey !== undefined)) {
      throw new CliError('--log-key verifies a proof bundle, which carries its inclusion proof: --inclusion and --vkey are for envelopes');
    }
    const protocol = await createProofProtocol(ed25519 === undefined ? {} : { ed25519 });
    if (logKey !== undefined) {
      const policy = values['witness-policy'] === undefined ? undefined : await readPolicy(values['witness-policy'], io);
      return bundleVerdict(await readBundleText(positionals[0]!, io), logKey, policy, protocol, values.json === true, io);
    }
    const source = await readSource(positionals[0]!, io);
    const json = parseJson(source.text, source.name);
    if (isPlainObject(json) && json['format'] === BUNDLE_FORMAT)
      throw new CliError(`${source.name} is a proof bundle: give the log's key with --log-key <vkey>`);
    // The file's text, read again keeping numbers' text only if the JCS form does not match.
    const wrapped = isWrapped(json);
    const received = receivedText(source.text, protocol.limits.maxDepth + (wrapped ? 1 : 0));
    const report = protocol.verify(wrapped ? json.envelope : json, wrapped ? received('envelope') : received());
    if (values.inclusion !== undefined && values.vkey === undefined) throw new CliError('--inclusion needs --vkey, the log key to check its checkpoint with');
    io.stdout.write(values.json === true ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
    if (!report.valid) return EXIT_INVALID;
    if (values.inclusion === undefined) return EXIT_OK;
    const inclusion = await readSource(values.inclusion, io);
    const answer = parseJson(inclusion.text, inclusion.name) as InclusionAnswerJson;
    const included = logVerifier.verifyInclusionAnswer(answer, values.vkey!, hexToBytes(report.proof_id!)!);
    if (E.isLeft(included)) {
      io.stdout.write(`not shown in the log  ${describeAnswerFailure(included.left)}\n`);
      return EXIT_INVALID;
    }
    io.stdout.write(`in the log  leaf ${answer.log_index} of ${answer.tree_size}, checkpoint of ${included.right.origin} signed by its key\n`);
    return EXIT_OK;
  },
};

/**
 * The bundle file's bytes as UTF-8, strictly: a byte sequence that is not UTF-8 (or a byte
 * order mark, kept) does not decode to a canonical bundle, so it cannot pass.
 */
async function readBundleText(path: string, io: CliIo): Promise<string | null> {
  let bytes: Buffer;
  if (path === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk));
    bytes = Buffer.concat(chunks);
  } else {
    try {
      bytes = await readFile(resolve(io.cwd, path));
    } catch (error) {
      throw new CliError(`${path}: ${describeFsError(error)}`);
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

async function readPolicy(file: string, io: CliIo): Promise<WitnessPolicy> {
  const policy = parseWitnessPolicy(new NodeSha256(), (await readSource(file, io)).text);
  if (E.isLeft(policy)) throw new CliError(`--witness-policy ${file}: ${policy.left}`);
  return policy.right;
}

function bundleVerdict(text: string | null, logKey: string, policy: WitnessPolicy | undefined, protocol: ProofProtocol, json: boolean, io: CliIo): number {
  const result: BundleVerification =
    text === null
      ? {
          valid: false,
          proofId: null,
          checks: BUNDLE_CHECKS.map((name, i) =>
            i === 0 ? { name, status: 'fail', detail: 'the file is not UTF-8 text' } : { name, status: 'skip', detail: 'not checked: an earlier check failed' },
          ),
        }
      : verifyBundle(
          text,
          { logKey, ...(policy ? { witnessPolicy: policy } : {}) },
          {
            sha: new NodeSha256(),
            ed25519: new NodeEd25519(),
            checkEnvelope: (envelope, envelopeText) => protocol.verify(envelope, envelopeInBundle(envelopeText, protocol.limits.maxDepth)),
          },
        );
  io.stdout.write(json ? `${JSON.stringify(result, null, 2)}\n` : formatBundleReport(result));
  return result.valid ? EXIT_OK : EXIT_INVALID;
}

/** One line per check of a bundle, after a verdict line. */
export function formatBundleReport(result: BundleVerification): string {
  const head = result.valid ? `valid bundle  proof_id ${result.proofId ?? ''}` : 'invalid bundle';
  const width = Math.max(...result.checks.map((c) => c.name.length));
  const lines = result.checks.map((c) => `  ${c.name.padEnd(width)}  ${c.status.padEnd(4)}  ${c.detail}`);
  return `${[head, ...lines].join('\n')}\n`;
}

/** `{ "envelope": … }` is how the API and the ACTO SDK send one; a bare envelope has `payload`. */
function isWrapped(json: unknown): json is { envelope: unknown } {
  return isPlainObject(json) && !('payload' in json) && 'envelope' in json;
}

export function formatReport(report: VerificationReport): string {
  const head = report.valid ? `valid  proof_id ${report.proof_id ?? ''}${hashedAs(report)}` : `invalid  ${report.reason ?? ''}`;
  const width = Math.max(...Object.keys(report.checks).map((name) => name.length));
  const checks = Object.entries(report.checks).map(([name, status]) => `  ${name.padEnd(width)}  ${status}`);
  return `${[head, ...checks].join('\n')}\n`;
}

/** How the hashes matched, where it is not the protocol's own JCS form with BLAKE3. */
function hashedAs(report: VerificationReport): string {
  const notes = [report.canonical_form === 'acto' ? 'ACTO form' : '', report.hash_alg === 'sha256' ? 'SHA-256' : ''].filter((note) => note !== '');
  return notes.length === 0 ? '' : `  (${notes.join(', ')})`;
}
