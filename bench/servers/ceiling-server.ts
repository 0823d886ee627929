import { createServer } from 'node:http';
import { isRight } from 'fp-ts/lib/Either.js';
import { createProofProtocol } from '../../src/index.js';

/**
 * The ceiling for POST /v1/proofs on this machine: a bare node:http server that reads the
 * body, parses JSON and verifies the envelope (shape, JCS, two BLAKE3 hashes, Ed25519) and
 * nothing else — no routing, auth, storage, logging or metrics. One thread, like the registry's.
 */
const protocol = await createProofProtocol();
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    let status = 200;
    let body: string;
    try {
      const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { envelope?: unknown };
      const result = protocol.check(parsed.envelope);
      if (isRight(result)) body = JSON.stringify({ proof_id: result.right.proofId });
      else {
        status = 422;
        body = JSON.stringify({ detail: result.left._tag });
      }
    } catch {
      status = 400;
      body = '{"detail":"bad json"}';
    }
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${address.port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
