import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { CliError, EXIT_OK, parseCommandArgs, type CliIo, type Command } from './command.js';
import { databaseError, databaseUrl, openCommandDatabase } from './cli-database.js';

const USAGE = `Usage: proof-registry backup <file>

Copies the service's SQLite database into <file>, a new database file, while the service
runs: the copy holds every proof acknowledged before the backup began. Restore by stopping
the service and putting the copy in place of the database file (removing the old file's
-wal and -shm files), or by pointing DATABASE_URL at it.

PostgreSQL is backed up with pg_dump (see docs/operations.md).

Options:
  -h, --help  show this help

Environment:
  DATABASE_URL  the service's database (default sqlite:./data/registry.sqlite)
`;

type Env = Readonly<Record<string, string | undefined>>;

/** `backup` with its environment passed in, so tests can point it at their own database. */
export function createBackupCommand(env: Env): Command {
  return {
    summary: 'copy the live SQLite database into a new file',
    usage: USAGE,
    async run(args: readonly string[], io: CliIo): Promise<number> {
      const { positionals, help } = parseCommandArgs(args, {}, { min: 1, max: 1, name: 'file' });
      if (help) {
        io.stdout.write(USAGE);
        return EXIT_OK;
      }
      const target = isAbsolute(positionals[0]!) ? positionals[0]! : resolve(io.cwd, positionals[0]!);
      const url = databaseUrl(env['DATABASE_URL'] || 'sqlite:./data/registry.sqlite', io.cwd);
      if (/^postgres(ql)?:/i.test(url.trim())) throw new CliError('backup copies an SQLite database; back PostgreSQL up with pg_dump (see docs/operations.md)');
      // Opening a file that is not there would create an empty database, and back that up.
      const source = /^sqlite:(?:\/\/)?(.+)$/i.exec(url)?.[1];
      if (source !== undefined && (source === ':memory:' || !existsSync(source))) throw new CliError(`DATABASE_URL: no database file at ${source}`);
      if (existsSync(target)) throw new CliError(`${positionals[0]!} already exists; a backup never overwrites a file`);
      const db = await openCommandDatabase(env, io);
      try {
        const { backupSqlite } = await import('../sql/sqlite-backup.js');
        await backupSqlite(db, target).catch((err: unknown) => {
          throw databaseError(err);
        });
        io.stdout.write(`backed up to ${target}\n`);
        return EXIT_OK;
      } finally {
        await db.close();
      }
    },
  };
}

export const backupCommand: Command = createBackupCommand(process.env);
