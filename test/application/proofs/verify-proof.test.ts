import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { firstProblem } from '../../../src/application/codecs/codec-errors.js';
import { EnvelopeCodec } from '../../../src/application/codecs/envelope.codec.js';
import { decodeEnvelope } from '../../../src/application/proofs/verify-proof.js';
import type { ProofEnvelope } from '../../../src/domain/protocol/envelope.js';
import type { ProofFailure } from '../../../src/domain/protocol/failures.js';
import { DEFAULT_LIMITS, jsonDepth } from '../../../src/domain/protocol/limits.js';
import { anEnvelope } from '../../support/mothers.js';

/**
 * decodeEnvelope asks the codec's type guard first and decodes only what it turns down. The
 * reference here always decodes: the two must give the same result for every value.
 */
function decodingAlways(raw: unknown): E.Either<ProofFailure, ProofEnvelope> {
  const depth = jsonDepth(raw, DEFAULT_LIMITS.maxDepth);
  if (depth > DEFAULT_LIMITS.maxDepth) return E.left({ _tag: 'LimitExceeded', limit: 'depth', max: DEFAULT_LIMITS.maxDepth, actual: depth });
  const decoded = EnvelopeCodec.decode(raw);
  if (E.isLeft(decoded)) {
    const { path, problem } = firstProblem(decoded.left);
    return E.left({ _tag: 'MalformedEnvelope', path: path === '(body)' ? 'envelope' : path, problem });
  }
  const envelope = raw as ProofEnvelope;
  const events = envelope.payload.telemetry_normalized.events.length;
  if (events > DEFAULT_LIMITS.maxEvents) return E.left({ _tag: 'LimitExceeded', limit: 'events', max: DEFAULT_LIMITS.maxEvents, actual: events });
  return E.right(envelope);
}

/** Every place in an envelope where a member or element sits, as a path of keys. */
function paths(value: unknown, prefix: ReadonlyArray<string | number> = []): Array<ReadonlyArray<string | number>> {
  if (value === null || typeof value !== 'object') return [];
  const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  return entries.flatMap(([key, child]) => [[...prefix, key], ...paths(child, [...prefix, key])]);
}

const HOLE = Symbol('hole');
/** An array whose first element is a hole, then an event. */
const withHole = (): unknown[] => {
  const array: unknown[] = [];
  array[1] = { ts: '2026-11-20T10:00:00Z', topic: 't', data: {} };
  return array;
};
const DELETE = Symbol('delete');
/** What a member is replaced with: the wrong kind of JSON value, nothing, or an array with a hole. */
const replacement = fc.oneof(
  fc.constantFrom<unknown>(DELETE, HOLE, null, undefined, 0, -1.5, true, '', 'x', 'A'.repeat(64), 'a'.repeat(64), [], {}, [{}], [1, 2]),
  fc.jsonValue({ maxDepth: 2 }),
);

test('the type guard and decoding judge every changed envelope alike', (t) => {
  const base = JSON.parse(JSON.stringify(anEnvelope({ meta: { note: 'n' }, robotId: 'r-1' }))) as unknown;
  const places = paths(base);
  let accepted = 0;
  let rejected = 0;
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.constantFrom(...places), replacement), { minLength: 1, maxLength: 3 }), (changes) => {
      const value = structuredClone(base) as Record<string | number, unknown>;
      for (const [path, next] of changes) {
        let parent: unknown = value;
        for (const key of path.slice(0, -1))
          parent = parent !== null && typeof parent === 'object' ? (parent as Record<string | number, unknown>)[key] : undefined;
        if (parent === null || typeof parent !== 'object') continue;
        const last = path[path.length - 1]!;
        const target = parent as Record<string | number, unknown>;
        if (next === DELETE) delete target[last];
        else if (next === HOLE) target[last] = withHole();
        else target[last] = next;
      }
      const got = decodeEnvelope(value);
      assert.deepEqual(got, decodingAlways(value));
      if (E.isRight(got)) accepted++;
      else rejected++;
    }),
    { numRuns: 3000 },
  );
  t.true(accepted > 50, `${accepted} accepted`);
  t.true(rejected > 500, `${rejected} rejected`);
});

test('an events array with a hole, or with an `every` of its own, is judged by decoding', (t) => {
  const envelope = JSON.parse(JSON.stringify(anEnvelope({ topics: ['a', 'b', 'c'] }))) as { payload: { telemetry_normalized: { events: unknown[] } } };
  const holed = structuredClone(envelope);
  delete holed.payload.telemetry_normalized.events[1];
  t.true(EnvelopeCodec.is(holed), 'the guard skips the hole');
  t.deepEqual(decodeEnvelope(holed), E.left({ _tag: 'MalformedEnvelope', path: 'payload.telemetry_normalized.events[1]', problem: 'is required' }));

  const lying = structuredClone(envelope);
  lying.payload.telemetry_normalized.events[2] = 'not an event';
  Object.defineProperty(lying.payload.telemetry_normalized.events, 'every', { value: () => true });
  t.true(EnvelopeCodec.is(lying), 'the guard believes the array');
  t.deepEqual(decodeEnvelope(lying), decodingAlways(lying));
  t.true(E.isLeft(decodeEnvelope(lying)));
});
