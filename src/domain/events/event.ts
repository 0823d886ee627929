import type { DeviceStatus } from '../fleet/device-status.js';

/**
 * The events a wallet's owner can follow (docs/events.md). Each is about one wallet, and only
 * that wallet ever sees it: in its feed, its streams and its webhooks.
 */
export const EVENT_TYPES = ['proof.accepted', 'proof.rejected', 'proof.logged', 'device.status_changed', 'key.created', 'key.updated', 'key.deleted'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Sent to one endpoint when its owner asks for a test; never in the feed nor a stream. */
export const TEST_EVENT_TYPE = 'webhook.test';
export type AnyEventType = EventType | typeof TEST_EVENT_TYPE;

export const isEventType = (text: string): text is EventType => (EVENT_TYPES as readonly string[]).includes(text);

/** `proof.accepted`: a proof newly stored for the wallet (a duplicate submission changes nothing and announces nothing). */
export interface ProofAcceptedData {
  readonly proof_id: string;
  readonly log_index: number | null;
  readonly task_id: string;
  readonly robot_id: string | null;
  readonly run_id: string | null;
  readonly created_at: string;
  readonly received_at: string;
  readonly signer_public_key_b64: string;
}

/** `proof.rejected`: a submission refused, named as its 422 names it; never the envelope itself. */
export interface ProofRejectedData {
  readonly code: string;
  /** The protocol check that failed, or null for a proof that verified but cannot be stored. */
  readonly check: string | null;
  readonly detail: string;
  /** What the envelope claimed, when it held text there: for finding the device that sent it. */
  readonly proof_id: string | null;
  readonly task_id: string | null;
  readonly robot_id: string | null;
}

/** `proof.logged` as stored: the first checkpoint published after the proof was accepted covers it. */
export interface ProofLoggedRecord {
  readonly proof_id: string;
  readonly log_index: number;
  readonly tree_size: number;
}

/** `proof.logged` as sent: with the inclusion proof and the signed checkpoint, to check offline. */
export interface ProofLoggedData extends ProofLoggedRecord {
  readonly leaf_hash: string;
  readonly hashes: readonly string[];
  readonly checkpoint: string;
}

export const STATUS_CAUSES = ['proof', 'health_report', 'silence'] as const;
export type StatusCause = (typeof STATUS_CAUSES)[number];

/** `device.status_changed`: from null for a device never announced before. */
export interface DeviceStatusChangedData {
  readonly device_id: string;
  readonly from: DeviceStatus | null;
  readonly to: DeviceStatus;
  readonly why: StatusCause;
  readonly last_seen_at: string;
}

export interface KeyCreatedData {
  readonly key_id: string;
  readonly name: string;
  readonly prefix: string;
  readonly created_at: string;
  /** Every scope the key holds, spelled out. */
  readonly scopes: readonly string[];
  /** The robots it acts for, or null: any. */
  readonly robot_ids: readonly string[] | null;
  readonly expires_at: string | null;
}

/** `key.updated`: the owner renamed, disabled or enabled a key; `changed` names what. */
export interface KeyUpdatedData {
  readonly key_id: string;
  readonly name: string;
  readonly prefix: string;
  readonly enabled: boolean;
  readonly changed: ReadonlyArray<'name' | 'enabled'>;
}

export interface KeyDeletedData {
  readonly key_id: string;
  readonly name: string;
  readonly prefix: string;
}

export interface WebhookTestData {
  readonly endpoint_id: string;
  readonly message: string;
}

/** An event before it is stored: the store gives it its id. */
export interface NewEvent {
  readonly wallet: string;
  readonly type: AnyEventType;
  readonly atMs: number;
  /** The event's `data` member, as sent (snake_case, JSON values only). */
  readonly data: object;
  /** proof.accepted: the proof's leaf index, which the log's announcer reads. */
  readonly logIndex?: number | null;
  /** An endpoint id: the event goes to that endpoint only (webhook.test). */
  readonly target?: string | null;
}

/** A stored event. `id` orders events as they were committed. */
export interface StoredEvent extends NewEvent {
  readonly id: number;
}

const ID_PREFIX = 'evt_';
const ID_DIGITS = 16;

/**
 * The event's public id: its position, zero-padded so that ids sort as text in the order the
 * events were committed. It is the cursor of the feed, the stream's `Last-Event-ID` and the
 * webhook's `webhook-id` (the same on every retry).
 */
export const eventId = (id: number): string => `${ID_PREFIX}${String(id).padStart(ID_DIGITS, '0')}`;

/** The position of an event id this service issued, or null. */
export function parseEventId(text: string): number | null {
  if (!text.startsWith(ID_PREFIX)) return null;
  const digits = text.slice(ID_PREFIX.length);
  if (!/^[0-9]{1,16}$/.test(digits)) return null;
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : null;
}

/** What every receiver gets, by webhook, stream or feed (the Standard Webhooks payload shape, with id and wallet). */
export interface EventBody {
  readonly id: string;
  readonly type: AnyEventType;
  readonly timestamp: string;
  readonly wallet: string;
  readonly data: object;
}
