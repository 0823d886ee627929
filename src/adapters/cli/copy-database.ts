import { CliError, EXIT_INVALID, EXIT_OK, parseCommandArgs, type CliIo, type Command } from './command.js';
import { databaseError, databaseUrl, openCommandDatabase } from './cli-database.js';

const USAGE = `Usage: proof-registry copy-database <target-url>

Copies the service's database (DATABASE_URL) into another one, SQLite or PostgreSQL: every
proof with its envelope text, the transparency log with its signed checkpoints, wallets, API
keys, devices, groups, health reports, balances and statistics, with their ids and keys.
Moving from SQLite to PostgreSQL: stop the service, copy, set DATABASE_URL to the target,
start the service (docs/operations.md).

The target is migrated first and must hold no rows. The source is read as one snapshot and
never changed. Each table is read back from the target and compared with the source, value
by value; any difference fails the command (exit 1) and the target must not be used.

Examples:
  proof-registry copy-database postgres://registry@db.internal:5432/registry
  DATABASE_URL=postgres://… proof-registry copy-database sqlite:./registry-copy.sqlite

Options:
  -h, --help  show this help

Environment:
  DATABASE_URL  the database copied (default sqlite:./data/registry.sqlite)
`;

type Env = Readonly<Record<string, string | undefined>>;

/** A problem with the target as the command's one-line error (the URL parser names DATABASE_URL; here it is the argument). */
const targetError = (err: unknown): CliError => new CliError(`target-url: ${(err instanceof Error ? err.message : String(err)).replace(/^DATABASE_URL /, '')}`);

/** `copy-database` with its environment passed in, so tests can point it at their own databases. */
export function createCopyDatabaseCommand(env: Env): Command {
  return {
    summary: 'copy the database into a new SQLite or PostgreSQL one, checked row by row',
    usage: USAGE,
    async run(args: readonly string[], io: CliIo): Promise<number> {
      const { positionals, help } = parseCommandArgs(args, {}, { min: 1, max: 1, name: 'target-url' });
      if (help) {
        io.stdout.write(USAGE);
        return EXIT_OK;
      }
      const { openDatabase, migrateLatest, parseDatabaseUrl } = await import('../sql/index.js');
      const { copyDatabase, DatabaseCopyError } = await import('../sql/copy-database.js');
      const targetUrl = databaseUrl(positionals[0]!, io.cwd);
      let parsed: ReturnType<typeof parseDatabaseUrl>;
      try {
        parsed = parseDatabaseUrl(targetUrl);
      } catch (err) {
        throw targetError(err);
      }
      if (parsed.dialect === 'sqlite' && parsed.filename === ':memory:')
        throw new CliError('target-url: an in-memory database is gone when the command ends; name a file or a PostgreSQL database');
      const source = await openCommandDatabase(env, io);
      try {
        const target = await openDatabase(targetUrl, { onDriverWarning: () => undefined }).catch((err: unknown) => {
          throw targetError(err);
        });
        try {
          await migrateLatest(target).catch((err: unknown) => {
            throw targetError(err);
          });
          let shown = '';
          const started = performance.now();
          const elapsed = () => `${Math.round((performance.now() - started) / 1000)} s`;
          const report = await copyDatabase(source, target, {
            onProgress: ({ table, copied, total }) => {
              // One line a table, and one each 100,000 rows of a large one, with the time so far.
              if (copied === total || Math.floor(copied / 100_000) !== Math.floor((copied - 1) / 100_000)) {
                const line = `${table}: ${copied.toLocaleString('en')} of ${total.toLocaleString('en')} rows`;
                if (line !== shown) io.stderr.write(`${line} (${elapsed()})\n`);
                shown = line;
              }
            },
            onCheck: () => io.stderr.write(`every table copied (${elapsed()}); reading each back from the target to compare with the source\n`),
          }).catch((err: unknown) => {
            if (err instanceof DatabaseCopyError) throw new CliError(err.message, EXIT_INVALID);
            throw databaseError(err);
          });
          const rows = report.tables.reduce((sum, t) => sum + t.rows, 0);
          const proofs = report.tables.find((t) => t.table === 'proofs')?.rows ?? 0;
          io.stdout.write(
            `copied ${rows.toLocaleString('en')} rows of ${report.tables.length} tables (${proofs.toLocaleString('en')} proofs); every table read back and matched\n`,
          );
          return EXIT_OK;
        } finally {
          await target.close();
        }
      } finally {
        await source.close();
      }
    },
  };
}

export const copyDatabaseCommand: Command = createCopyDatabaseCommand(process.env);
