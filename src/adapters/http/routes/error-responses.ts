import { ErrorBody } from '../codecs/common.codecs.js';
import type { ResponseSpec } from '../route.js';

/** What each error status means, as the OpenAPI document says it for every route family. */
const COMMON: Readonly<Record<number, string>> = {
  400: 'Malformed JSON (a body that is not valid UTF-8, or a compressed one that does not inflate, included) or query string (a broken percent-escape, a parameter given twice, or one the route does not take), or a path segment with a broken percent-escape.',
  401: 'Missing, invalid or expired credential, or no X-Wallet-Address.',
  403: 'Wallet mismatch or token balance below the minimum.',
  413: 'Body over the size limit.',
  415: 'Body is not JSON, or its Content-Encoding is not gzip, deflate or br.',
  422: 'Validation failed; detail names the member.',
  429: "Rate limited, or (on lists, searches and statistics) as many of this wallet's as it may have waiting already wait; see Retry-After.",
  503: 'A dependency is down, or (code busy) the instance is answering as many large bodies, or lists, searches and statistics, as it takes at once and as many wait; see Retry-After.',
};

/** The statuses every authenticated route can answer. */
export const AUTHED = [401, 403, 429, 503] as const;
/** The statuses every route with a body can answer. */
export const BODY = [400, 413, 415, 422] as const;

/**
 * The error responses of a route family's specs: `responses(404, ...AUTHED)`. A family says
 * what a status means for it where that differs (its 404 names what is not found); every
 * error body is ErrorBody.
 */
export function errorResponses(family: Readonly<Record<number, string>>): (...statuses: number[]) => Record<number, ResponseSpec> {
  return (...statuses) => Object.fromEntries(statuses.map((s) => [s, { description: family[s] ?? COMMON[s] ?? 'error', body: ErrorBody }]));
}
