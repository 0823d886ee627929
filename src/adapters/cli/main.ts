import { realpathSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { backupCommand } from './backup.js';
import { copyDatabaseCommand } from './copy-database.js';
import { CliError, EXIT_OK, EXIT_USAGE, type CliIo, type Command } from './command.js';
import { eventsCommand } from './events.js';
import { keygenCommand } from './keygen.js';
import { keysCommand } from './keys.js';
import { ledgerCommand } from './ledger.js';
import { logCommand } from './log.js';
import { loginCommand } from './login.js';
import { migrateCommand } from './migrate.js';
import { signCommand } from './sign.js';
import { submitCommand } from './submit.js';
import { verifyCommand } from './verify.js';
import { webhookCommand } from './webhook.js';
import { witnessCommand } from './witness.js';

/** The subcommands, in the order `help` lists them. Adding a command is one line here. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  backup: backupCommand,
  'copy-database': copyDatabaseCommand,
  events: eventsCommand,
  keygen: keygenCommand,
  keys: keysCommand,
  ledger: ledgerCommand,
  log: logCommand,
  login: loginCommand,
  migrate: migrateCommand,
  sign: signCommand,
  submit: submitCommand,
  verify: verifyCommand,
  webhook: webhookCommand,
  witness: witnessCommand,
};

const PREFIX = 'proof-registry: ';

export function helpText(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`);
  return [
    'Usage: proof-registry <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    "Run 'proof-registry <command> --help' for a command's options.",
    'Exit codes: 0 ok, 1 invalid proof or webhook signature, refused submission or event stream, or failed copy, 2 usage or input error.',
    '',
  ].join('\n');
}

/** A message as one line: a parser may quote input that holds line breaks. */
const oneLine = (message: string): string => message.replace(/\s*[\r\n]+\s*/g, ' ');

/** Runs one invocation and returns its exit code; never throws for a usage or input error. */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined) {
    io.stderr.write(helpText());
    return EXIT_USAGE;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? args[0] : undefined;
    if (topic === undefined) {
      io.stdout.write(helpText());
      return EXIT_OK;
    }
    return run([topic, '--help'], io);
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command === undefined) {
    io.stderr.write(`${PREFIX}unknown command ${JSON.stringify(name)}\n\n${helpText()}`);
    return EXIT_USAGE;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr.write(`${PREFIX}${oneLine(error.message)}\n`);
      return error.exitCode;
    }
    // A bug, not bad input: keep the stack so it can be reported.
    io.stderr.write(`${PREFIX}unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return EXIT_USAGE;
  }
}

/**
 * True when this process was started as the CLI (bin/proof-registry.js, an npm bin link to
 * it, or `tsx src/adapters/cli/main.ts`), false when a test or another module imports `run`.
 */
function startedAsCli(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  let path = entry;
  try {
    path = realpathSync(entry);
  } catch {
    // keep the path as given
  }
  return path === fileURLToPath(import.meta.url) || basename(path) === 'proof-registry.js';
}

if (startedAsCli()) {
  // A reader that stops early (`| head`) is not an error of ours; anything else still is.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit();
  });
  const io: CliIo = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, cwd: process.cwd() };
  // exitCode rather than exit(): lets a large envelope finish writing to a pipe.
  process.exitCode = await run(process.argv.slice(2), io);
}
