import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { anEnvelope, WALLET_A } from '../../support/mothers.js';
import { startTestRegistry, type TestRegistry } from '../../support/registry.js';

/** The envelope text stored for a proof, read from the database file itself. */
function storedText(file: string, proofId: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (err) => {
      if (err) return reject(err);
      db.get<{ envelope: string }>('select envelope from proofs where proof_id = ?', [proofId], (e, row) =>
        db.close(() => (e ? reject(e) : row ? resolve(row.envelope) : reject(new Error(`no row for ${proofId}`)))),
      );
    });
  });
}

for (const workers of [true, false]) {
  const where = workers ? 'checked on the verify workers' : 'checked on the event loop';
  let registry: TestRegistry;
  let file: string;
  let dir: string;
  test.before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'registry-envelope-text-'));
    file = join(dir, 'registry.sqlite');
    registry = await startTestRegistry({ env: { DATABASE_URL: `sqlite:${file}` }, workers });
  });
  test.after.always(async () => {
    await registry?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test(`${where}: a body that is just {"envelope": …} stores the envelope's text as it was sent`, async (t) => {
    const envelope = anEnvelope({ taskId: `as-sent-${workers}`, robotId: 'r-text', meta: { ratio: 1.5 } });
    // Indented, with a number spelled as no serializer would write it (the signature covers the
    // canonical form, where 1.50 is 1.5, so the proof still verifies).
    const inner = JSON.stringify(envelope, null, 2).replace('"ratio": 1.5', '"ratio": 1.50');
    t.true(inner.includes('"ratio": 1.50'));
    const res = await registry.call(WALLET_A, 'POST', '/v1/proofs', `{ "envelope": ${inner} }\n`);
    t.is(res.status, 200, JSON.stringify(res.body));
    t.is(await storedText(file, res.body.proof_id), inner);
    const got = await registry.call(WALLET_A, 'GET', `/v1/proofs/${res.body.proof_id}`);
    t.deepEqual(got.body.envelope, envelope);
  });

  test(`${where}: any other body stores the parsed envelope, serialized`, async (t) => {
    const first = anEnvelope({ taskId: `first-${workers}` });
    const last = anEnvelope({ taskId: `last-${workers}` });
    const bodies = [
      // The same key twice: JSON.parse keeps the last, and so does what is stored.
      { text: `{"envelope": ${JSON.stringify(first)}, "envelope": ${JSON.stringify(last)}}`, envelope: last },
      { text: `{"envelope": ${JSON.stringify(first)}, "note": "more than the envelope"}`, envelope: first },
      { text: `{"\\u0065nvelope": ${JSON.stringify(last)}}`, envelope: last },
    ];
    for (const { text, envelope } of bodies) {
      const res = await registry.call(WALLET_A, 'POST', '/v1/proofs', text);
      t.is(res.status, 200, text.slice(0, 40));
      t.is(await storedText(file, res.body.proof_id), JSON.stringify(envelope), text.slice(0, 40));
    }
  });
}
