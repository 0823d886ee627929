import * as t from 'io-ts';
import { DESCRIPTION_MAX, NAME_MAX } from '../../../domain/fleet/names.js';
import { documented, schemaOf } from '../openapi/codec-schema.js';
import { hasLoneSurrogate, LONE_SURROGATE_PROBLEM } from './common.codecs.js';

/** Field codecs built from a validating function, shared by the fleet's request codecs. */

/** A codec from a validating function; `phrase` completes "<path> …" on failure. */
export function custom<A>(
  name: string,
  is: (u: unknown) => u is A,
  check: (u: unknown) => A | undefined,
  phrase: (u: unknown) => string,
  schema: Record<string, unknown>,
) {
  return documented(
    new t.Type<A, A, unknown>(
      name,
      is,
      (u, c) => {
        const value = check(u);
        return value === undefined ? t.failure(u, c, u === undefined ? 'is required' : phrase(u)) : t.success(value);
      },
      t.identity,
    ),
    schema,
  );
}

export const oneOf = <V extends string>(name: string, values: readonly V[]) =>
  custom<V>(
    name,
    (u): u is V => values.includes(u as V),
    (u) => (values.includes(u as V) ? (u as V) : undefined),
    () => `must be one of ${values.join(', ')}`,
    {
      type: 'string',
      enum: [...values],
    },
  );

/** A reading: a number within bounds, or null / absent for "not measured". */
export function reading(name: string, { min, max }: { min: number; max: number }) {
  return custom<number | null>(
    name,
    (u): u is number | null => u === null || typeof u === 'number',
    (u) => (u === null ? null : typeof u === 'number' && Number.isFinite(u) && u >= min && u <= max ? u : undefined),
    () => `must be a number from ${min} to ${max}`,
    { type: ['number', 'null'], minimum: min, maximum: max },
  );
}

/** Free text checked further by the domain (trimmed length); bounded here so huge bodies stop early. */
export const text = (name: string, documentedMax: number, description: string) =>
  custom<string>(
    name,
    (u): u is string => typeof u === 'string',
    (u) => (typeof u === 'string' && u.length <= documentedMax * 4 && !hasLoneSurrogate(u) ? u : undefined),
    (u) => (typeof u !== 'string' ? 'must be a string' : hasLoneSurrogate(u) ? LONE_SURROGATE_PROBLEM : `must be at most ${documentedMax} characters`),
    {
      type: 'string',
      maxLength: documentedMax,
      description,
    },
  );

export const nullable = <A>(codec: t.Type<A, A, unknown>, name: string) =>
  documented(
    new t.Type<A | null, A | null, unknown>(
      name,
      (u): u is A | null => u === null || codec.is(u),
      (u, c) => (u === null ? t.success(null) : codec.validate(u, c)),
      t.identity,
    ),
    { anyOf: [schemaOf(codec), { type: 'null' }] },
  );

/** Query integers arrive as text. */
export function intFromQuery(name: string, min: number, max: number, fallback: number) {
  return custom<number>(
    name,
    (u): u is number => typeof u === 'number',
    (u) => (typeof u === 'string' && /^\d{1,6}$/.test(u) && Number(u) >= min && Number(u) <= max ? Number(u) : undefined),
    () => `must be an integer from ${min} to ${max}`,
    { type: 'integer', minimum: min, maximum: max, default: fallback },
  );
}

/**
 * An object of at most `maxKeys` members, null allowed, each member accepted by `member`:
 * the health report's `metrics` and `custom_metrics`.
 */
export function recordOf<V>(
  name: string,
  maxKeys: number,
  member: (key: string, value: unknown) => boolean,
  phrase: () => string,
  schema: Record<string, unknown>,
) {
  return custom<Record<string, V> | null>(
    name,
    (u): u is Record<string, V> | null => u === null || (typeof u === 'object' && !Array.isArray(u)),
    (u) => {
      if (u === null) return null;
      if (typeof u !== 'object' || Array.isArray(u)) return undefined;
      const entries = Object.entries(u as Record<string, unknown>);
      const fine = entries.length <= maxKeys && entries.every(([k, v]) => member(k, v));
      return fine ? (u as Record<string, V>) : undefined;
    },
    phrase,
    schema,
  );
}

export const FleetCursor = custom<string>(
  'cursor',
  (u): u is string => typeof u === 'string',
  (u) => (typeof u === 'string' && u.length >= 1 && u.length <= 1000 ? u : undefined),
  () => 'must be 1 to 1000 characters',
  {
    type: 'string',
    description: 'Opaque; the next_cursor of the previous page.',
  },
);

export const Name = text('name', NAME_MAX, `Trimmed; 1 to ${NAME_MAX} characters after trimming, no control characters.`);
export const Description = text('description', DESCRIPTION_MAX, `Optional; trimmed; up to ${DESCRIPTION_MAX} characters; empty means none.`);
