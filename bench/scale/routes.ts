import { encodeCursor } from '../../src/application/proofs/proof-cursor.js';
import type { ProofRecord } from '../../src/domain/proof/proof-record.js';
import { authHeaders } from '../../test/support/test-authenticator.js';
import type { ChildServer } from '../child-server.js';
import { BIG, DAY, END_MS } from '../scale-data.js';
import { REQUESTS, WARMUP, ROUTES } from './config.js';

// The read routes the scale bench measures, and their p50/p99.
export interface Latency {
  readonly p50: number;
  readonly p99: number;
}

export async function measure(
  server: ChildServer,
  wallet: string,
  request: (i: number) => { method: 'GET' | 'POST'; path: string; body?: unknown },
): Promise<Latency & { status: number }> {
  const times: number[] = [];
  let status = 0;
  for (let i = -WARMUP; i < REQUESTS; i++) {
    const { method, path: p, body } = request(i + WARMUP);
    const start = performance.now();
    const res = await fetch(server.url + p, {
      method,
      headers: { ...authHeaders(wallet), 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    const ms = performance.now() - start;
    status = res.status;
    if (res.status !== 200) throw new Error(`${method} ${p} ${JSON.stringify(body)} answered ${res.status}: ${text.slice(0, 300)}`);
    if (i >= 0) times.push(ms);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]! * 10) / 10;
  return { p50: at(0.5), p99: at(0.99), status };
}

/** Every read route the issue names, on the big wallet; `logSize`: leaves the published log covers at least. */
export function routes(sample: readonly ProofRecord[], logSize: number) {
  const mid = sample[Math.floor(sample.length / 2)]!;
  const deepCursor = (order: 'asc' | 'desc') => encodeCursor({ createdAtMs: mid.createdAtMs, proofId: mid.proofId }, { order });
  const dayFrom = new Date(END_MS - 30 * DAY).toISOString();
  const dayTo = new Date(END_MS - 29 * DAY).toISOString();
  const search = (body: Record<string, unknown>) => () => ({ method: 'POST' as const, path: '/v1/proofs/search', body: { limit: 50, ...body } });
  const list: Array<[string, (i: number) => { method: 'GET' | 'POST'; path: string; body?: unknown }]> = [
    ['get by id', (i) => ({ method: 'GET', path: `/v1/proofs/${sample[(i * 7919) % sample.length]!.proofId}` })],
    ['list, first page', () => ({ method: 'GET', path: '/v1/proofs?limit=50' })],
    ['list, cursor deep in the wallet', () => ({ method: 'GET', path: `/v1/proofs?limit=50&cursor=${deepCursor('desc')}` })],
  ];
  for (const order of ['desc', 'asc'] as const) {
    const o = order === 'desc' ? '' : ', oldest first';
    list.push(
      [`search task${o}`, search({ order, task_id: 'task-3' })],
      [`search robot${o}`, search({ order, robot_id: 'robot-7' })],
      [`search run${o}`, search({ order, run_id: sample.find((r) => r.runId !== null)?.runId ?? 'run-0' })],
      [`search signer${o}`, search({ order, signer_public_key_b64: mid.signerPublicKeyB64 })],
      [`search 1-day window${o}`, search({ order, created_after: dayFrom, created_before: dayTo })],
      [`search robot + 1-day window${o}`, search({ order, robot_id: 'robot-7', created_after: dayFrom, created_before: dayTo })],
      [`search topic in 77%${o}`, search({ order, topic: 'nav/pose' })],
      [`search topic in 14%${o}`, search({ order, topic: 'weld/arc' })],
      [`search topic in 0.1%${o}`, search({ order, topic: 'alarm/estop' })],
      [`search topic absent from the wallet${o}`, search({ order, topic: 'absent/topic' })],
      [`search text, common word${o}`, search({ order, text: 'lyon' })],
      [`search text, word in half the proofs${o}`, search({ order, text: 'night' })],
      [`search text, rare word${o}`, search({ order, text: 'quasar' })],
      [`search text, absent word${o}`, search({ order, text: 'zzyzx' })],
      [`search text, 2 characters${o}`, search({ order, text: 'ly' })],
      [`search task + text${o}`, search({ order, task_id: 'task-3', text: 'paris' })],
      [`search cursor deep in the wallet${o}`, search({ order, cursor: deepCursor(order) })],
    );
  }
  list.push(
    ['search sort task_id', search({ sort_field: 'task_id' })],
    ['search sort robot_id', search({ sort_field: 'robot_id', sort_order: 'asc' })],
    ['search sort payload_hash', search({ sort_field: 'payload_hash' })],
    ['search offset 0 with total (ACTO)', search({ offset: 0, sort_field: 'created_at', sort_order: 'desc' })],
    ['search offset 5,000 with total', search({ offset: 5_000 })],
    ['search offset 0, text, with total', search({ offset: 0, text: 'lyon' })],
    ['search offset 0, rare text, with total', search({ offset: 0, text: 'quasar' })],
    ['fleet overview', () => ({ method: 'GET', path: '/v1/fleet' })],
    ['wallet statistics', () => ({ method: 'GET', path: `/v1/stats/wallet/${BIG}` })],
    [
      'series, 30 days by day',
      () => ({
        method: 'GET',
        path: `/v1/stats/wallet/${BIG}/series?bucket=day&from=${new Date(END_MS - 30 * DAY).toISOString()}&to=${new Date(END_MS).toISOString()}`,
      }),
    ],
    [
      'series, 24 hours by hour',
      () => ({
        method: 'GET',
        path: `/v1/stats/wallet/${BIG}/series?bucket=hour&from=${new Date(END_MS - DAY).toISOString()}&to=${new Date(END_MS).toISOString()}`,
      }),
    ],
  );
  // Inclusion proofs of proofs spread over the whole load (the sample runs from the first to
  // the last), of the oldest tenth, and against half the tree (its proofs from the first 40%).
  const oldest = sample.slice(0, Math.max(1, Math.floor(sample.length / 10)));
  const firstPart = sample.slice(0, Math.max(1, Math.floor(sample.length * 0.4)));
  const half = Math.floor(logSize / 2);
  list.push(
    ['log inclusion proof, latest checkpoint', (i) => ({ method: 'GET', path: `/v1/log/inclusion/${sample[(i * 7919) % sample.length]!.proofId}` })],
    ['log inclusion proof, oldest tenth of the proofs', (i) => ({ method: 'GET', path: `/v1/log/inclusion/${oldest[(i * 7919) % oldest.length]!.proofId}` })],
    [
      `log inclusion proof at tree size ${half.toLocaleString('en')}`,
      (i) => ({ method: 'GET', path: `/v1/log/inclusion/${firstPart[(i * 7919) % firstPart.length]!.proofId}?tree_size=${half}` }),
    ],
  );
  return list;
}

/** Each route SCALE_ROUTES lets through, measured on the big wallet, as a row of the table. */
export async function measureRoutes(server: ChildServer, list: ReturnType<typeof routes>): Promise<void> {
  for (const [label, request] of list.filter(([label]) => ROUTES === undefined || ROUTES.test(label))) {
    const figures = await measure(server, BIG, request);
    console.log(`| ${label} | ${figures.p50} | ${figures.p99} |`);
  }
}
