import * as t from 'io-ts';
import { parseRfc3339 } from '../../../domain/protocol/datetime.js';
import { hasCharacters } from '../../../domain/text/characters.js';
import { documented, schemaOf } from '../openapi/codec-schema.js';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether `text` holds a lone surrogate: valid in JSON (`"\ud800"`), but with no UTF-8 form, so no database stores it as written. */
export const hasLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text);
export const LONE_SURROGATE_PROBLEM = 'must not contain a lone surrogate (it has no UTF-8 form)';

const kind = (u: unknown) => (u === null ? 'null' : Array.isArray(u) ? 'an array' : typeof u);

/**
 * A string with length bounds in characters (code points, as JSON Schema counts), e.g. a name
 * or a search term. U+0000 and lone surrogates are refused: no stored text holds them
 * (PostgreSQL cannot hold U+0000; a lone surrogate has no UTF-8 form, and a database would
 * read it as U+FFFD and match what it does not say).
 */
export function boundedString(min: number, max: number, name = `string(${min}..${max})`): t.Type<string, string, unknown> {
  return documented(
    new t.Type<string, string, unknown>(
      name,
      (u): u is string => typeof u === 'string' && hasCharacters(u, min, max) && !u.includes('\u0000') && !LONE_SURROGATE.test(u),
      (u, c) =>
        typeof u !== 'string'
          ? t.failure(u, c, u === undefined ? 'is required' : `must be a string (got ${kind(u)})`)
          : !hasCharacters(u, min, max)
            ? t.failure(u, c, `must be ${min} to ${max} characters long`)
            : u.includes('\u0000')
              ? t.failure(u, c, 'must not contain U+0000 (NUL)')
              : LONE_SURROGATE.test(u)
                ? t.failure(u, c, LONE_SURROGATE_PROBLEM)
                : t.success(u),
      t.identity,
    ),
    { type: 'string', minLength: min, maxLength: max },
  );
}

/** An RFC 3339 date-time, decoded to epoch milliseconds. */
export const DateTimeMs = documented(
  new t.Type<number, string, unknown>(
    'date-time',
    (u): u is number => typeof u === 'number',
    (u, c) => {
      const ms = typeof u === 'string' ? parseRfc3339(u) : null;
      return ms === null ? t.failure(u, c, u === undefined ? 'is required' : 'must be an RFC 3339 date-time, e.g. 2026-11-20T10:00:00Z') : t.success(ms);
    },
    (ms) => new Date(ms).toISOString(),
  ),
  { type: 'string', format: 'date-time' },
);

/**
 * A whole number from `min` to `max`, else `problem`. `fromText`: it may arrive as text, as
 * a query string's parameters do (up to six digits).
 */
export function boundedInteger(
  name: string,
  min: number,
  max: number,
  fromText: boolean,
  problem: string,
  schema: Record<string, unknown>,
): t.Type<number, number, unknown> {
  return documented(
    new t.Type<number, number, unknown>(
      name,
      (u): u is number => typeof u === 'number',
      (u, c) => {
        const n = fromText && typeof u === 'string' && /^\d{1,6}$/.test(u) ? Number(u) : u;
        return typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max ? t.success(n) : t.failure(u, c, problem);
      },
      t.identity,
    ),
    schema,
  );
}

/** A page size: 1–200, default applied by the route. In a query string it arrives as text. */
const pageLimit = (fromText: boolean) =>
  boundedInteger('limit', 1, 200, fromText, 'must be an integer from 1 to 200', { type: 'integer', minimum: 1, maximum: 200, default: 50 });
export const LimitFromQuery = pageLimit(true);
export const LimitFromBody = pageLimit(false);

export const Cursor = documented(boundedString(1, 200, 'cursor'), {
  type: 'string',
  description: 'Opaque; the next_cursor of the previous page, sent with the same order and filters (limit may change).',
});

export const NullableString = t.union([t.string, t.null]);

/**
 * `codec` (a t.partial) that also refuses members it does not name, each a 422 naming the
 * member: for bodies of filters, where a misspelt one (`{"robot": …}`) would otherwise be
 * dropped and the result come back unfiltered. Documented with `additionalProperties: false`.
 */
export function closed<P extends t.Props>(codec: t.PartialC<P>): t.Type<t.TypeOf<t.PartialC<P>>, t.OutputOf<t.PartialC<P>>, unknown> & { readonly props: P } {
  const known = Object.keys(codec.props).join(', ');
  const type = new t.Type<t.TypeOf<t.PartialC<P>>, t.OutputOf<t.PartialC<P>>, unknown>(
    codec.name,
    codec.is,
    (u, c) => {
      if (typeof u === 'object' && u !== null && !Array.isArray(u)) {
        const unknown = Object.keys(u).find((k) => !Object.hasOwn(codec.props, k));
        if (unknown !== undefined) {
          const value = (u as Record<string, unknown>)[unknown];
          return t.failure(value, t.appendContext(c, unknown, t.unknown, value), `is not a member of this body (it takes ${known})`);
        }
      }
      // As the t.partial itself, so that a failure reads as one of an object ("must be an object").
      const last = c[c.length - 1];
      return codec.validate(u, last === undefined ? c : [...c.slice(0, -1), { ...last, type: codec }]);
    },
    codec.encode,
  );
  documented(type, { ...schemaOf(codec), additionalProperties: false });
  return Object.assign(type, { props: codec.props });
}

/** A response member with its own documentation (io-ts's shared codecs cannot carry one). */
export const described = <C extends t.Mixed>(base: C, schema: Record<string, unknown>): C =>
  documented(new t.Type(base.name, base.is, base.validate, base.encode) as unknown as C, schema);

/** Every error's body: a sentence for people, a snake_case code for programs (docs/api.md, "Error codes"). */
export const ErrorBody = t.intersection(
  [
    t.type({ detail: t.string }),
    t.partial({
      code: described(t.string, {
        type: 'string',
        description:
          'What went wrong, for programs, in snake_case (insufficient_scope, validation_error, signature_invalid, …). A refused proof adds check, the protocol check that failed.',
      }),
    }),
  ],
  'Error',
);

/** A string from a closed set (a query's `format`, `range`), documented as an enum with `schema`'s extra words. */
export const enumOf = <T extends string>(name: string, values: readonly T[], schema: Record<string, unknown> = {}) =>
  documented(
    new t.Type<T, string, unknown>(
      name,
      (u): u is T => values.includes(u as T),
      (u, c) => (values.includes(u as T) ? t.success(u as T) : t.failure(u, c, `must be one of ${values.join(', ')}`)),
      t.identity,
    ),
    { type: 'string', enum: values, ...schema },
  );
