import test from 'ava';
import { ContainerModule } from 'inversify';
import { pino } from 'pino';
import type { ProofPage, ProofQuery, ProofStore } from '../../../src/application/ports/proof-store.js';
import { SearchProofs } from '../../../src/application/proofs/search-proofs.js';
import { PROOFS } from '../../../src/composition/proofs.tokens.js';
import { startRegistry } from '../../../src/composition/root.js';
import { loadConfig } from '../../../src/config.js';
import { anEnvelope, WALLET_A } from '../../support/mothers.js';
import { inlineVerification, testAccess } from '../../support/registry.js';
import { authHeaders } from '../../support/test-authenticator.js';

/** The proof store's searches, held at a gate the test opens, counted as they run. */
class GatedSearches implements Pick<ProofStore, 'search'> {
  running = 0;
  most = 0;
  private open!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.open = resolve));

  constructor(private readonly store: ProofStore) {}

  async search(wallet: string, query: ProofQuery): Promise<ProofPage> {
    this.running++;
    this.most = Math.max(this.most, this.running);
    try {
      await this.gate;
      return await this.store.search(wallet, query);
    } finally {
      this.running--;
    }
  }

  release(): void {
    this.open();
  }
}

async function registryWithGatedSearches(env: Record<string, string>) {
  let searches!: GatedSearches;
  const gated = new ContainerModule(({ rebind }) => {
    rebind(PROOFS.SearchProofs).toResolvedValue(
      (store: ProofStore) => {
        searches = new GatedSearches(store);
        return new SearchProofs({
          ...store,
          get: store.get.bind(store),
          add: store.add.bind(store),
          count: store.count.bind(store),
          search: (w, q) => searches.search(w, q),
        });
      },
      [PROOFS.Store],
    );
  });
  const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', PORT: '0', LOG_LEVEL: 'silent', ...env });
  const registry = await startRegistry(config, { logger: pino({ level: 'silent' }), overrides: [testAccess, inlineVerification, gated] });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(registry.url + path, {
      method,
      headers: { ...authHeaders(WALLET_A), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return {
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      type: res.headers.get('content-type'),
      body: (await res.json()) as Record<string, unknown>,
    };
  };
  // The use case is made when first needed: one list makes it, past the gate once opened.
  return { registry, call, searches: () => searches };
}

/** Lets the event loop turn until `done` holds (each request's steps are a few turns apart), or until `stop` does. */
async function until(done: () => boolean, stop: () => boolean = () => false): Promise<boolean> {
  while (!done()) {
    if (stop()) return false;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return true;
}

test('lists and searches run READ_CONCURRENCY at a time, READ_QUEUE wait, the next is 503 busy; submissions and single reads pass them', async (t) => {
  const { registry, call, searches } = await registryWithGatedSearches({ READ_CONCURRENCY: '2', READ_QUEUE: '1' });
  t.teardown(() => registry.close());
  const submitted = await call('POST', '/v1/proofs', { envelope: anEnvelope({ taskId: 'before' }) });
  t.is(submitted.status, 200);

  const list = call('GET', '/v1/proofs?limit=200');
  const search = call('POST', '/v1/proofs/search', { task_id: 'before' });
  await until(() => searches()?.running === 2);
  // Two more: one waits in the queue of one, the other (whichever comes second) is turned away at once.
  const more = [call('GET', '/v1/proofs'), call('GET', '/v1/proofs?limit=10')].map((p, i) => p.then((reply) => ({ reply, i })));
  // Without the bound, a third search would start (and nothing be refused): that fails here rather than waits.
  let settled = false;
  const overrun = until(
    () => searches().running > 2,
    () => settled,
  ).then((ran) => (ran ? null : new Promise<never>(() => undefined)));
  const first = await Promise.race([...more, overrun]);
  settled = true;
  if (first === null) {
    searches().release();
    return t.fail(`${searches().running} searches ran at once`);
  }
  const { reply: refused, i: refusedAt } = first;
  const queued = more[1 - refusedAt]!.then(({ reply }) => reply);
  t.is(refused.status, 503);
  t.is(refused.body['code'], 'busy');
  t.regex(String(refused.body['detail']), /lists, searches and statistics .*2 at a time, 1 waiting/);
  t.is(refused.retryAfter, '1');

  // Writes and reads of one proof take no read slot: they are answered while every slot is held.
  const write = await call('POST', '/v1/proofs', { envelope: anEnvelope({ taskId: 'during' }) });
  t.is(write.status, 200);
  t.is(write.body['duplicate'], false);
  const one = await call('GET', `/v1/proofs/${String(submitted.body['proof_id'])}`);
  t.is(one.status, 200);
  t.is(searches().running, 2, 'the held reads are still held, and the queued one has not started');

  searches().release();
  const answers = await Promise.all([list, search, queued]);
  t.deepEqual(
    answers.map((a) => a.status),
    [200, 200, 200],
  );
  t.is(searches().most, 2, 'never more than two searches at once');
  t.is(answers[0]!.type, 'application/json; charset=utf-8', 'serialized under the slot, still JSON');
  t.deepEqual((answers[0]!.body['items'] as Array<{ task_id: string }>).map((p) => p.task_id).sort(), ['before', 'during']);
  t.is(answers[1]!.body['has_more'], false);
});
