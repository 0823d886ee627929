import { isLeft } from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import { firstProblem } from '../../application/codecs/codec-errors.js';
import { HttpError } from './http-error.js';

/** Decodes a request part with its codec; a failure is a 422 naming the member's path. */
export function decodeOr422<A>(codec: t.Type<A, unknown, unknown>, value: unknown, where: 'body' | 'query' | 'path'): A {
  const decoded = codec.decode(value);
  if (!isLeft(decoded)) return decoded.right;
  const { path, problem } = firstProblem(decoded.left);
  const subject = path === '(body)' ? (where === 'body' ? 'request body' : `${where} parameters`) : where === 'body' ? path : `${where} parameter ${path}`;
  return fail(422, `${subject} ${problem}`, { code: 'validation_error', path: path === '(body)' ? null : path, in: where });
}

/**
 * Refuses a query parameter the route does not take (its codec's members): a misspelt filter
 * (`?robot=…` for `?robot_id=…`) would otherwise be dropped, and the list come back unfiltered.
 */
export function knownParameters<Q extends Record<string, unknown>>(codec: t.Mixed, query: Q): Q {
  const props = (codec as { props?: t.Props }).props;
  if (props === undefined) return query;
  const unknown = Object.keys(query).find((k) => !Object.hasOwn(props, k));
  if (unknown !== undefined) {
    fail(400, `query parameter ${JSON.stringify(unknown.slice(0, 100))} is not one this route takes (it takes ${Object.keys(props).join(', ')})`, {
      code: 'bad_query',
      path: unknown.slice(0, 100),
      in: 'query',
    });
  }
  return query;
}

/** Query strings arrive as text; repeated parameters arrive as arrays, which no route takes. */
export function singleValuedQuery(query: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) {
    if (Array.isArray(v)) fail(400, `query parameter ${k} is given more than once`, { code: 'bad_query' });
    if (typeof v === 'string') out[k] = v;
  }
  return out;
}

/**
 * Refuses a query string with a broken percent-escape (`%ZZ`, a lone `%`, bytes that are not
 * UTF-8). Node's parser would quietly keep such text as it is, so a filter would search for
 * something the client never meant.
 */
export function assertWellFormedQuery(querystring: string): void {
  if (!querystring.includes('%')) return;
  for (const part of querystring.split('&')) {
    try {
      decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      fail(400, `malformed query string: ${JSON.stringify(part.slice(0, 100))} has an invalid percent-escape`, { code: 'bad_query' });
    }
  }
}

/**
 * Refuses a path with a broken percent-escape (`%FF`, `%ZZ`, an encoded lone surrogate). The
 * router would keep such a segment as it is, so `/v1/fleet/devices/%FF/health` would make a
 * device called "%FF".
 */
export function assertWellFormedPath(path: string): void {
  if (!path.includes('%')) return;
  for (const segment of path.split('/')) {
    try {
      decodeURIComponent(segment);
    } catch {
      fail(400, `malformed path: ${JSON.stringify(segment.slice(0, 100))} has an invalid percent-escape`, { code: 'bad_path' });
    }
  }
}

function fail(status: number, detail: string, extra: Record<string, unknown>): never {
  throw new HttpError(status, detail, extra);
}
