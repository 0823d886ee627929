import { readFile, rename, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { LogVerifier, type InclusionAnswerFailure, type InclusionAnswerJson } from '../../application/log/log-verifier.js';
import type { Checkpoint } from '../../domain/log/checkpoint.js';
import { describeLogProofFailure, describeNoteFailure, type LogProofFailure, type NoteFailure } from '../../domain/log/log-failures.js';
import { cosignedBy, parseWitnessPolicy, type WitnessPolicy } from '../../domain/log/verify-bundle.js';
import { bytesToHex, hexToBytes } from '../../domain/protocol/encoding.js';
import { NodeEd25519 } from '../crypto/node-ed25519.js';
import { NodeSha256 } from '../crypto/node-sha256.js';
import { CliError, EXIT_INVALID, EXIT_OK, parseCommandArgs, requireOption, type CliIo, type Command } from './command.js';

const USAGE = `Usage: proof-registry log <checkpoint|inclusion|consistency|monitor> --url <registry> [options]

Fetches from a registry's transparency log and verifies what it got, with the log's key.

  log checkpoint --url U                    the latest checkpoint, its signature checked
  log inclusion <proof_id> --url U [--out F]  the proof's inclusion proof, checked against
                                            the signed checkpoint it comes with (--out keeps
                                            it, for 'proof-registry verify --inclusion')
  log consistency --url U --old <checkpoint file>
                                            that the latest checkpoint extends an older one
  log monitor --url U --state <file> [--once] [--interval-ms N] [--witness-policy F]
                                            follows the log: checks every new checkpoint's
                                            signature and its consistency with the last one
                                            seen (kept in the state file); stops with exit 1
                                            and the reason on any inconsistency. With a witness
                                            policy (witness <name> <vkey> <url> lines, quorum
                                            <n>), it says which witnesses cosigned each new
                                            checkpoint and reports one a quorum has not cosigned
                                            (with --once, exit 1)

Options:
  --vkey <vkey>   the log's verifier key; without it, the one GET /v1/log/key gives (trust on
                  first use: the monitor keeps it in its state and refuses any other after)
  -h, --help      show this help
Exit code: 0 verified, 1 verification failed (the log is not what it claims), 2 usage,
input or network error.
`;

const OPTIONS = {
  url: { type: 'string' },
  vkey: { type: 'string' },
  out: { type: 'string' },
  old: { type: 'string' },
  state: { type: 'string' },
  once: { type: 'boolean' },
  'interval-ms': { type: 'string' },
  'witness-policy': { type: 'string' },
} as const;

const verifier = new LogVerifier(new NodeSha256(), new NodeEd25519());

/** A failed check: the log is not what it claims (exit 1). */
class LogInvalid extends CliError {
  constructor(message: string) {
    super(message, EXIT_INVALID);
  }
}

export const logCommand: Command = {
  summary: "fetch and verify a registry's transparency log; follow it as a monitor",
  usage: USAGE,
  async run(args: readonly string[], io: CliIo): Promise<number> {
    const { values, positionals, help } = parseCommandArgs(args, OPTIONS, {
      min: 1,
      max: 2,
      name: 'log command (checkpoint, inclusion, consistency or monitor)',
    });
    if (help) {
      io.stdout.write(USAGE);
      return EXIT_OK;
    }
    const base = requireOption(values.url, 'url').replace(/\/+$/, '');
    const [what, arg] = positionals;
    const client = new LogClient(base);
    switch (what) {
      case 'checkpoint': {
        const vkey = values.vkey ?? (await client.vkey());
        const { checkpoint } = await client.checkpoint(vkey);
        io.stdout.write(`checkpoint verified  ${checkpoint.origin}  size ${checkpoint.size}  root ${bytesToHex(checkpoint.rootHash)}\n`);
        return EXIT_OK;
      }
      case 'inclusion': {
        if (!arg || !/^[0-9a-f]{64}$/.test(arg)) throw new CliError('log inclusion takes a proof id: 64 lowercase hex digits');
        const vkey = values.vkey ?? (await client.vkey());
        const answer = (await client.json(`/v1/log/inclusion/${arg}`)) as InclusionAnswerJson;
        const verified = verifier.verifyInclusionAnswer(answer, vkey, hexToBytes(arg)!);
        if (E.isLeft(verified)) throw new LogInvalid(`the inclusion proof does not verify: ${describeAnswerFailure(verified.left)}`);
        if (values.out !== undefined) await writeFile(resolve(io.cwd, values.out), `${JSON.stringify(answer, null, 2)}\n`);
        io.stdout.write(`inclusion verified  leaf ${answer.log_index} of ${answer.tree_size}  root ${bytesToHex(verified.right.rootHash)}\n`);
        return EXIT_OK;
      }
      case 'consistency': {
        const vkey = values.vkey ?? (await client.vkey());
        const oldFile = requireOption(values.old, 'old');
        const old = open(await readFile(resolve(io.cwd, oldFile), 'utf8').catch(() => fail(`cannot read ${oldFile}`)), vkey, oldFile);
        const { checkpoint } = await client.checkpoint(vkey);
        await client.proveExtends(old, checkpoint);
        io.stdout.write(`consistency verified  size ${old.size} → ${checkpoint.size}  root ${bytesToHex(checkpoint.rootHash)}\n`);
        return EXIT_OK;
      }
      case 'monitor':
        return monitor(client, values, io);
      default:
        throw new CliError(`unknown log command ${JSON.stringify(what)}: checkpoint, inclusion, consistency or monitor`);
    }
  },
};

interface MonitorState {
  readonly vkey: string;
  /** The last checkpoint seen and verified, as its signed note. */
  readonly checkpoint: string;
}

async function monitor(
  client: LogClient,
  values: { state?: string; vkey?: string; once?: boolean; 'interval-ms'?: string; 'witness-policy'?: string },
  io: CliIo,
): Promise<number> {
  const stateFile = resolve(io.cwd, requireOption(values.state, 'state'));
  const policy = values['witness-policy'] === undefined ? null : await readPolicy(resolve(io.cwd, values['witness-policy']));
  let short = false;
  const intervalMs = values['interval-ms'] === undefined ? 5000 : Number(values['interval-ms']);
  if (!Number.isInteger(intervalMs) || intervalMs < 100) throw new CliError('--interval-ms must be a whole number of milliseconds, at least 100');
  const saved = await readFile(stateFile, 'utf8').then(
    (text) => JSON.parse(text) as MonitorState,
    () => null,
  );
  const vkey = saved?.vkey ?? values.vkey ?? (await client.vkey());
  if (values.vkey !== undefined && saved && saved.vkey !== values.vkey) throw new CliError(`${values.state} follows the log of another key (${saved.vkey})`);
  let last = saved ? open(saved.checkpoint, vkey, `${values.state}`) : null;
  for (;;) {
    const { checkpoint, note } = await client.checkpoint(vkey);
    if (last) await client.proveExtends(last, checkpoint);
    const fresh = !last || checkpoint.size > last.size;
    if (fresh) {
      io.stdout.write(`checkpoint ${checkpoint.size}  root ${bytesToHex(checkpoint.rootHash)}  ${last ? `consistent with ${last.size}` : 'first seen'}\n`);
      const temporary = `${stateFile}.tmp`;
      await writeFile(temporary, `${JSON.stringify({ vkey, checkpoint: note } satisfies MonitorState, null, 2)}\n`);
      await rename(temporary, stateFile);
      last = checkpoint;
    }
    if (policy && (fresh || values.once)) {
      // Witnesses cosign after the checkpoint is published: one seen at once may still lack them.
      const cosigned = cosignedBy(new NodeEd25519(), note, policy);
      short = cosigned.length < policy.quorum;
      io.stdout.write(`  cosigned by ${cosigned.length} of ${policy.witnesses.length} witnesses (${cosigned.join(', ') || 'none'}); quorum ${policy.quorum}\n`);
      if (short)
        io.stderr.write(`checkpoint ${checkpoint.size} is not cosigned by a quorum of the policy's witnesses (${cosigned.length} of ${policy.quorum})\n`);
    }
    if (values.once) return short ? EXIT_INVALID : EXIT_OK;
    await new Promise((done) => setTimeout(done, intervalMs));
  }
}

async function readPolicy(file: string): Promise<WitnessPolicy> {
  const text = await readFile(file, 'utf8').catch((error: unknown) =>
    fail(`cannot read the witness policy ${file}: ${error instanceof Error ? error.message : String(error)}`),
  );
  const policy = parseWitnessPolicy(new NodeSha256(), text);
  return E.isRight(policy) ? policy.right : fail(`the witness policy ${file} is not valid: ${policy.left}`);
}

function open(note: string, vkey: string, where: string): Checkpoint {
  const opened = verifier.openCheckpoint(note, vkey);
  if (E.isLeft(opened)) throw new LogInvalid(`the checkpoint from ${where} does not verify: ${describeNoteFailure(opened.left)}`);
  return opened.right;
}

const PROOF_FAILURES = new Set(['LeafIndexBeyondTree', 'TreeSizesInvalid', 'ProofLengthWrong', 'MalformedHash', 'RootMismatch']);

export function describeAnswerFailure(failure: InclusionAnswerFailure): string {
  switch (failure._tag) {
    case 'MalformedAnswer':
      return `malformed answer: ${failure.problem}`;
    case 'CheckpointSizeMismatch':
      return `the proof is for tree size ${failure.treeSize}, its checkpoint for ${failure.checkpointSize}`;
    case 'LeafMismatch':
      return 'the proof is about another leaf than this proof id';
    default:
      return PROOF_FAILURES.has(failure._tag) ? describeLogProofFailure(failure as LogProofFailure) : describeNoteFailure(failure as NoteFailure);
  }
}

const fail = (message: string): never => {
  throw new CliError(message);
};

/** The registry's log routes, over fetch. */
class LogClient {
  constructor(private readonly base: string) {}

  async text(path: string): Promise<string> {
    let res: Response;
    try {
      res = await fetch(this.base + path);
    } catch (error) {
      throw new CliError(`${this.base}${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const body = await res.text();
    if (res.status !== 200) throw new CliError(`${this.base}${path} answered ${res.status}: ${body.slice(0, 300)}`);
    return body;
  }

  async json(path: string): Promise<unknown> {
    const text = await this.text(path);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new CliError(`${this.base}${path} did not answer JSON`);
    }
  }

  async vkey(): Promise<string> {
    const key = (await this.json('/v1/log/key')) as { vkey?: unknown };
    if (typeof key.vkey !== 'string') throw new CliError(`${this.base}/v1/log/key has no vkey`);
    return key.vkey;
  }

  async checkpoint(vkey: string): Promise<{ checkpoint: Checkpoint; note: string }> {
    const note = await this.text('/v1/log/checkpoint');
    return { checkpoint: open(note, vkey, `${this.base}/v1/log/checkpoint`), note };
  }

  /** Fails (exit 1) unless `newer` extends `older`: never smaller, the same root at the same size, a consistency proof between them. */
  async proveExtends(older: Checkpoint, newer: Checkpoint): Promise<void> {
    if (newer.size < older.size) throw new LogInvalid(`the log shrank: it published size ${older.size}, now ${newer.size}`);
    if (newer.size === older.size) {
      if (bytesToHex(newer.rootHash) !== bytesToHex(older.rootHash))
        throw new LogInvalid(`the log forked: size ${older.size} had root ${bytesToHex(older.rootHash)}, now ${bytesToHex(newer.rootHash)}`);
      return;
    }
    if (older.size === 0) return; // every tree extends the empty one
    const answer = (await this.json(`/v1/log/consistency?first=${older.size}&second=${newer.size}`)) as { hashes?: unknown };
    const hashes = Array.isArray(answer.hashes) ? answer.hashes.map((h) => (typeof h === 'string' ? hexToBytes(h) : null)) : null;
    if (!hashes || hashes.some((h) => h === null || h.length !== 32)) throw new LogInvalid('the consistency answer is malformed');
    const verified = verifier.verifyConsistency({ first: older.size, second: newer.size, hashes: hashes as Uint8Array[] }, older.rootHash, newer.rootHash);
    if (E.isLeft(verified)) {
      throw new LogInvalid(
        `the log is inconsistent: the tree of ${newer.size} does not extend the tree of ${older.size} it published (${describeLogProofFailure(verified.left)})`,
      );
    }
  }
}
