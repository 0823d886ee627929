import { EXIT_OK, parseCommandArgs, type CliIo, type Command } from './command.js';
import { databaseError, openCommandDatabase } from './cli-database.js';

const USAGE = `Usage: proof-registry migrate [--status]

Brings the service's database schema up to date (the service also does this when it starts)
and prints the migrations it applied. Safe to run twice, and while instances start: one
runner applies each migration once.

Options:
  --status    list the migrations already applied and those pending; change nothing
  -h, --help  show this help

Environment:
  DATABASE_URL  the service's database (default sqlite:./data/registry.sqlite)
`;

type Env = Readonly<Record<string, string | undefined>>;

/** `migrate` with its environment passed in, so tests can point it at their own database. */
export function createMigrateCommand(env: Env): Command {
  return {
    summary: 'bring the database schema up to date (or --status)',
    usage: USAGE,
    async run(args: readonly string[], io: CliIo): Promise<number> {
      const { values, help } = parseCommandArgs(args, { status: { type: 'boolean' } }, { min: 0, max: 0 });
      if (help) {
        io.stdout.write(USAGE);
        return EXIT_OK;
      }
      const db = await openCommandDatabase(env, io);
      // Loaded here, not at start-up, so the other commands never load the database drivers.
      const { appliedMigrations, knownMigrations, migrateLatest } = await import('../sql/index.js');
      try {
        const fail = (err: unknown): never => {
          throw databaseError(err);
        };
        if (values.status) {
          const applied = new Set(await appliedMigrations(db).catch(fail));
          for (const name of knownMigrations()) io.stdout.write(`${applied.has(name) ? 'applied' : 'pending'}  ${name}\n`);
          return EXIT_OK;
        }
        const applied = await migrateLatest(db).catch(fail);
        io.stdout.write(applied.length === 0 ? 'up to date\n' : applied.map((name) => `applied  ${name}\n`).join(''));
        return EXIT_OK;
      } finally {
        await db.close();
      }
    },
  };
}

export const migrateCommand: Command = createMigrateCommand(process.env);
