import { createServer, type ServerResponse } from 'node:http';
import { isRight } from 'fp-ts/lib/Either.js';
import pg from 'pg';
import sqlite3 from 'sqlite3';
import { createProofProtocol } from '../../src/index.js';

/**
 * The durable ceiling for POST /v1/proofs: the bare ceiling (ceiling-server.ts: read, parse,
 * verify, on one thread) plus the one thing every registry must add, a durable insert of the
 * envelope. One table keyed by proof_id; the requests of the same moment go in together as one
 * multi-row INSERT, which is one transaction, and each is answered only after its commit.
 *
 * DURABLE_DATABASE_URL picks the store the registry runs on: `sqlite:<file>` (WAL, with
 * DURABLE_SYNCHRONOUS as the registry's SQLITE_SYNCHRONOUS, default full: the WAL is synced at
 * every commit; SQLite's own checkpointing) or a PostgreSQL URL (its defaults: every commit
 * is flushed). DURABLE_WRITERS: batches in flight at once (default 1 on SQLite, which has one
 * writer, and 4 on PostgreSQL, where several connections may commit at once).
 */
interface Pending {
  readonly proofId: string;
  readonly envelope: string;
  readonly res: ServerResponse;
}

interface Store {
  insert(rows: readonly Pending[]): Promise<void>;
}

const MAX_BATCH = 500;
const url = process.env.DURABLE_DATABASE_URL ?? '';

async function sqliteStore(file: string): Promise<Store & { writers: number }> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const d = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(d)));
  });
  const synchronous = (process.env.DURABLE_SYNCHRONOUS ?? 'full') === 'normal' ? 'NORMAL' : 'FULL';
  await new Promise<void>((resolve, reject) =>
    db.exec(
      `PRAGMA journal_mode = WAL; PRAGMA synchronous = ${synchronous}; CREATE TABLE IF NOT EXISTS proofs (proof_id TEXT PRIMARY KEY, envelope TEXT NOT NULL)`,
      (err) => (err ? reject(err) : resolve()),
    ),
  );
  const statements = new Map<number, sqlite3.Statement>();
  const statementFor = (n: number) => {
    let s = statements.get(n);
    if (!s) statements.set(n, (s = db.prepare(`INSERT INTO proofs (proof_id, envelope) VALUES ${Array.from({ length: n }, () => '(?, ?)').join(', ')}`)));
    return s;
  };
  return {
    writers: 1,
    insert: (rows) =>
      new Promise<void>((resolve, reject) => {
        const statement = statementFor(rows.length);
        statement.run(
          rows.flatMap((r) => [r.proofId, r.envelope]),
          (err: Error | null) => (err ? statement.reset(() => reject(err)) : resolve()),
        );
      }),
  };
}

async function postgresStore(connectionString: string): Promise<Store & { writers: number }> {
  const writers = Number(process.env.DURABLE_WRITERS ?? 4);
  const pool = new pg.Pool({ connectionString, max: writers });
  await pool.query('CREATE TABLE IF NOT EXISTS durable_ceiling_proofs (proof_id TEXT PRIMARY KEY, envelope TEXT NOT NULL)');
  return {
    writers,
    insert: async (rows) => {
      await pool.query({
        name: 'insert-proofs',
        text: 'INSERT INTO durable_ceiling_proofs (proof_id, envelope) SELECT * FROM unnest($1::text[], $2::text[])',
        values: [rows.map((r) => r.proofId), rows.map((r) => r.envelope)],
      });
    },
  };
}

const store = url.startsWith('sqlite:') ? await sqliteStore(url.slice('sqlite:'.length)) : await postgresStore(url);
const writers = process.env.DURABLE_WRITERS === undefined ? store.writers : Number(process.env.DURABLE_WRITERS);

/** Group commit: a lone request is written at once; those arriving meanwhile wait for the next batch. */
const queue: Pending[] = [];
let running = 0;
function pump(): void {
  while (running < writers && queue.length > 0) {
    const batch = queue.splice(0, MAX_BATCH);
    running++;
    store
      .insert(batch)
      .then(
        () => batch.forEach((p) => answer(p.res, 200, JSON.stringify({ proof_id: p.proofId }))),
        (err: unknown) => batch.forEach((p) => answer(p.res, 500, JSON.stringify({ detail: String(err) }))),
      )
      .finally(() => {
        running--;
        pump();
      });
  }
}

const answer = (res: ServerResponse, status: number, body: string) => res.writeHead(status, { 'content-type': 'application/json' }).end(body);

const protocol = await createProofProtocol();
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    try {
      const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { envelope?: unknown };
      const result = protocol.check(parsed.envelope);
      if (!isRight(result)) return answer(res, 422, JSON.stringify({ detail: result.left._tag }));
      queue.push({ proofId: result.right.proofId, envelope: JSON.stringify(parsed.envelope), res });
      pump();
    } catch {
      answer(res, 400, '{"detail":"bad json"}');
    }
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${address.port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
