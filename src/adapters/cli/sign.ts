import { canonicalProblem } from '../../domain/protocol/canonical-problems.js';
import { parseRfc3339 } from '../../domain/protocol/datetime.js';
import { DEFAULT_LIMITS, jsonDepth } from '../../domain/protocol/limits.js';
import type { JsonObject, ProofEnvelope } from '../../domain/protocol/envelope.js';
import { createProofProtocol } from '../crypto/proof-protocol-factory.js';
import { CliError, EXIT_OK, isPlainObject, parseCommandArgs, parseJson, readSource, requireOption, type CliIo, type Command } from './command.js';
import { readKeyFile } from './key-file.js';
import { readTelemetry } from './telemetry-input.js';

const USAGE = `Usage: proof-registry sign --key <key.json> --task <task_id> [options] <telemetry>

Signs telemetry into a proof envelope (protocol v1) and prints it as JSON.

<telemetry> is a .jsonl file (one {"ts","topic","data"} event per line), a .json file (an
array of events or {"events": [...]}), or - for stdin (JSON or JSON Lines, detected).

Options:
  --key <file>         device key file (see keygen)            required
  --task <id>          subject.task_id                         required
  --robot <id>         subject.robot_id
  --run <id>           subject.run_id
  --meta <json>        payload.meta, a JSON object, e.g. '{"site":"lab-2"}'
  --created-at <time>  RFC 3339 date-time (default: now)
  -h, --help           show this help
`;

const OPTIONS = {
  key: { type: 'string', short: 'k' },
  task: { type: 'string', short: 't' },
  robot: { type: 'string' },
  run: { type: 'string' },
  meta: { type: 'string' },
  'created-at': { type: 'string' },
} as const;

export const signCommand: Command = {
  summary: 'sign telemetry into a proof envelope',
  usage: USAGE,
  async run(args: readonly string[], io: CliIo): Promise<number> {
    const { values, positionals, help } = parseCommandArgs(args, OPTIONS, { min: 1, max: 1, name: '<telemetry> file (or - for stdin)' });
    if (help) {
      io.stdout.write(USAGE);
      return EXIT_OK;
    }
    const keyPath = requireOption(values.key, 'key');
    const taskId = requireOption(values.task, 'task');
    const createdAt = values['created-at'] ?? new Date().toISOString();
    if (parseRfc3339(createdAt) === null) {
      throw new CliError(`--created-at must be an RFC 3339 date-time with offset, e.g. 2026-11-20T10:00:00Z (got ${JSON.stringify(createdAt)})`);
    }
    const meta = values.meta === undefined ? undefined : parseMeta(values.meta);

    const protocol = await createProofProtocol();
    const key = await readKeyFile(keyPath, io.cwd, protocol.signer);
    const events = readTelemetry(await readSource(positionals[0]!, io));

    // Named before signing, as a verifier would name them: nesting past the limit, then a
    // value with no canonical JSON form (a number beyond a double, a lone surrogate).
    const depth = jsonDepth({ events, meta: meta ?? {} }, DEFAULT_LIMITS.maxDepth + 8);
    if (depth > DEFAULT_LIMITS.maxDepth + 3) {
      throw new CliError(`cannot sign: telemetry is nested too deep; an envelope may be ${DEFAULT_LIMITS.maxDepth} levels deep`);
    }
    const problem = canonicalProblem(events, 'events') ?? (meta === undefined ? null : canonicalProblem(meta, '--meta'));
    if (problem) throw new CliError(`cannot sign: ${problem.path} ${problem.problem}`);

    let envelope: ProofEnvelope;
    try {
      envelope = protocol.create({ taskId, robotId: values.robot, runId: values.run, events, meta, createdAt }, key.seed);
    } catch (error) {
      // Only a lone surrogate (a "\ud800" escape) gets here: it has no canonical UTF-8 form.
      throw new CliError(`cannot sign: ${error instanceof Error ? error.message : String(error)}`);
    }
    const text = `${JSON.stringify(envelope, null, 2)}\n`;
    // Verify what is printed, as a verifier will read it: catches input past the protocol
    // limits (nesting depth, event count) before anyone relies on the proof.
    const report = protocol.verify(JSON.parse(text));
    if (!report.valid) throw new CliError(`cannot sign: the envelope would not verify: ${report.reason ?? ''}`);
    io.stdout.write(text);
    return EXIT_OK;
  },
};

function parseMeta(text: string): JsonObject {
  const meta = parseJson(text, '--meta');
  if (!isPlainObject(meta)) throw new CliError('--meta must be a JSON object');
  return meta as JsonObject;
}
