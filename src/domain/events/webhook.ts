import * as E from 'fp-ts/lib/Either.js';
import type { EventType, StoredEvent } from './event.js';
import { TEST_EVENT_TYPE } from './event.js';

/** A wallet's webhook endpoint as stored (its secrets included: never shown after creation or rotation). */
export interface WebhookEndpoint {
  readonly endpointId: string;
  readonly wallet: string;
  readonly url: string;
  readonly description: string | null;
  /** The types it receives; null: every type. */
  readonly eventTypes: readonly EventType[] | null;
  readonly enabled: boolean;
  /** Why the registry turned it off (410 Gone, failing for days); null when enabled or turned off by its owner. */
  readonly disabledReason: string | null;
  readonly secret: string;
  /** The secret before the last rotation, still signed with until `previousSecretUntilMs`. */
  readonly previousSecret: string | null;
  readonly previousSecretUntilMs: number | null;
  readonly createdAtMs: number;
  readonly updatedAtMs: number;
  /** The first failure since the last success; null while it succeeds. */
  readonly failingSinceMs: number | null;
  readonly lastSuccessAtMs: number | null;
}

/** At most this many endpoints per wallet. */
export const MAX_ENDPOINTS_PER_WALLET = 20;
export const WEBHOOK_URL_MAX = 2000;

/** Whether an endpoint takes an event: its own test events, and the types it asked for. */
export function endpointTakes(endpoint: Pick<WebhookEndpoint, 'endpointId' | 'eventTypes'>, event: Pick<StoredEvent, 'type' | 'target'>): boolean {
  if (event.type === TEST_EVENT_TYPE) return event.target === endpoint.endpointId;
  if (event.target !== null && event.target !== undefined) return false;
  return endpoint.eventTypes === null || endpoint.eventTypes.includes(event.type);
}

/** The secrets a delivery is signed with at `nowMs`: the current one, and the previous one during its overlap. */
export function signingSecrets(endpoint: Pick<WebhookEndpoint, 'secret' | 'previousSecret' | 'previousSecretUntilMs'>, nowMs: number): string[] {
  const previous = endpoint.previousSecret !== null && endpoint.previousSecretUntilMs !== null && nowMs < endpoint.previousSecretUntilMs;
  return previous ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
}

export type InvalidWebhookUrl = { readonly _tag: 'InvalidWebhookUrl'; readonly rule: string; readonly detail: string };

const invalid = (rule: string, detail: string): E.Either<InvalidWebhookUrl, never> => E.left({ _tag: 'InvalidWebhookUrl', rule, detail });

/**
 * The form of a webhook URL: absolute http or https, a host, no user name or password (they
 * would travel in every delivery), no fragment, at most WEBHOOK_URL_MAX characters. Where the
 * host may point is the address policy's to say, on the address actually connected to.
 */
export function checkWebhookUrl(text: string): E.Either<InvalidWebhookUrl, URL> {
  if (text.length > WEBHOOK_URL_MAX) return invalid('too_long', `url must be at most ${WEBHOOK_URL_MAX} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return invalid('malformed', 'url is not an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return invalid('scheme', `url must use https or http, not ${url.protocol.replace(/:$/, '')}`);
  if (url.hostname === '') return invalid('malformed', 'url has no host');
  if (url.username !== '' || url.password !== '')
    return invalid('credentials', 'url must not carry a user name or password; put a token in the path or query instead');
  if (url.hash !== '') return invalid('fragment', 'url must not have a #fragment: it is never sent to the server');
  return E.right(url);
}

/**
 * When the next attempt is due after `attempts` failed ones: immediately for the first, then
 * growing to a day, about 2.8 days over 13 attempts in all, as Standard Webhooks senders
 * commonly retry. Each delay is spread by ±20% (`jitter` in [0, 1)), so receivers that come
 * back after an outage are not hit by every delivery at the same moment. Null: no attempt left.
 */
export const RETRY_DELAYS_S = [5, 30, 120, 600, 1800, 3600, 7200, 14_400, 28_800, 43_200, 57_600, 86_400] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_S.length + 1;

export function retryDelayMs(attempts: number, jitter: number): number | null {
  const base = RETRY_DELAYS_S[attempts - 1];
  if (base === undefined) return null;
  return Math.round(base * 1000 * (0.8 + 0.4 * Math.min(Math.max(jitter, 0), 1)));
}

/** How an attempt's answer counts: success, a failure to retry, or the receiver saying it is gone. */
export type AttemptVerdict = 'succeeded' | 'retry' | 'gone';

export function verdictOf(statusCode: number | null): AttemptVerdict {
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) return 'succeeded';
  return statusCode === 410 ? 'gone' : 'retry';
}

/** An endpoint failing since `failingSinceMs` is turned off once that is `disableAfterMs` ago. */
export const failingTooLong = (failingSinceMs: number | null, nowMs: number, disableAfterMs: number): boolean =>
  failingSinceMs !== null && nowMs - failingSinceMs >= disableAfterMs;
