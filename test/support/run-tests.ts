import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres, type RunningPostgres } from './embedded-postgres.js';

/**
 * `npm test` and `npm run test:unit` run ava through this file, so a machine with nothing but
 * Node runs every test:
 * - PostgreSQL: with TEST_POSTGRES_URL unset, one server for the whole run is started here (ava
 *   runs each test file in a process of its own; they all get its URL), and stopped at the end.
 *   REQUIRE_POSTGRES=1 (CI) refuses to start one: the run must use the server it names.
 * - Redis: when TEST_REDIS_URL (default redis://127.0.0.1:6379) does not answer, one line says
 *   the Redis tests are not run, and they are not declared (see redis.ts). REQUIRE_REDIS=1
 *   declares them anyway, so they fail.
 * Arguments go to ava unchanged: `npm run test:unit -- test/domain`.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const env: NodeJS.ProcessEnv = { ...process.env };
let postgres: RunningPostgres | undefined;

if (!env.TEST_POSTGRES_URL) {
  if (env.REQUIRE_POSTGRES === '1') {
    console.error('REQUIRE_POSTGRES=1: set TEST_POSTGRES_URL to the PostgreSQL server the tests must use');
    process.exit(1);
  }
  postgres = await startEmbeddedPostgres();
  env.TEST_POSTGRES_URL = postgres.url;
  console.log(`PostgreSQL: TEST_POSTGRES_URL is unset, so the tests use a server started for this run on ${new URL(postgres.url).host}`);
}

const redisUrl = env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
if (!(await answers(redisUrl))) {
  env.TEST_REDIS_URL = redisUrl;
  env.TEST_REDIS_UNREACHABLE = '1';
  if (env.REQUIRE_REDIS !== '1')
    console.log(`Redis: ${redisUrl} does not answer, so the Redis tests are not run (set TEST_REDIS_URL; REQUIRE_REDIS=1 makes this a failure)`);
}

const ava = spawn(process.execPath, [path.join(root, 'node_modules/ava/entrypoints/cli.mjs'), ...process.argv.slice(2)], { stdio: 'inherit', env, cwd: root });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => ava.kill(signal));
const code = await new Promise<number>((resolve) => ava.on('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0))));
if (postgres) await postgres.stop();
process.exit(code);

/** Whether a Redis server answers PING at `url` within 2 s. */
async function answers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port || 6379), hostname);
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (chunk: Buffer) => done(chunk.toString().startsWith('+PONG') || chunk.toString().startsWith('-NOAUTH')));
  });
}
