/** API shapes the views read (see /openapi.json for the whole of them). */
export type DeviceStatus = 'online' | 'warning' | 'degraded' | 'error' | 'offline';
export type StatusCounts = Record<DeviceStatus, number>;
export const STATUSES: readonly DeviceStatus[] = ['online', 'warning', 'degraded', 'error', 'offline'];

export interface WalletStats {
  proofs: { total: number; last_24h: number; last_7d: number; first_at: string | null; last_at: string | null };
  devices: { total: number; by_status: StatusCounts };
  groups: { total: number };
  score: { average: number | null; min: number | null; max: number | null; sample_size: number; policy: string };
  api_keys: { requests: number; errors: number; error_rate: number | null };
}

export interface Series {
  bucket: 'hour' | 'day';
  from: string;
  to: string;
  points: Array<{ t: string; proofs: number; invalid: number; devices_active: number }>;
}

/** What an API key may do, in the order the API lists them. */
export const SCOPES = ['proofs:write', 'proofs:read', 'verify', 'fleet:read', 'fleet:write', 'health:write', 'stats:read', 'events:read'] as const;
export type Scope = (typeof SCOPES)[number];

/** active: it works; disabled: its owner disabled it; expired: past expires_at. */
export type KeyStatus = 'active' | 'disabled' | 'expired';

/** A key as POST, PATCH and GET /v1/keys show it. */
export interface KeyInfo {
  key_id: string;
  name: string;
  prefix: string;
  created_at: string;
  /** Spelled out: a key made with every scope lists them all. */
  scopes: Scope[];
  /** null: the key acts for any robot. */
  robot_ids: string[] | null;
  expires_at: string | null;
  enabled: boolean;
  disabled_at: string | null;
  status: KeyStatus;
}

/** POST /v1/keys: the key itself is in this answer only. */
export interface CreatedKey extends KeyInfo {
  key: string;
}

/** An item of GET /v1/keys. */
export interface ApiKey extends KeyInfo {
  last_used_at: string | null;
  request_count: number;
  error_count: number;
  error_rate: number;
}

export interface KeyUsageDay {
  day: string;
  request_count: number;
  error_count: number;
}

/** GET /v1/keys/{key_id}/usage; endpoints most requests first. */
export interface KeyUsage {
  key_id: string;
  days: number;
  items: KeyUsageDay[];
  endpoints: Array<{ endpoint: string; request_count: number; error_count: number; items: KeyUsageDay[] }>;
}

export interface Health {
  status: 'ok' | 'degraded' | 'error';
  cpu_percent: number | null;
  memory_percent: number | null;
  battery_percent: number | null;
  temperature_c: number | null;
  uptime_s: number | null;
  message: string | null;
  metrics: Record<string, number> | null;
  received_at: string;
  // Present when the device sent them (the ACTO SDK's metric set).
  cpu_temperature?: number;
  memory_used_mb?: number;
  memory_total_mb?: number;
  battery_charging?: boolean;
  disk_percent?: number;
  network_connected?: boolean;
  network_type?: string;
  custom_metrics?: Record<string, string | number | boolean>;
  status_derived?: true;
}

export interface Device {
  device_id: string;
  name: string;
  custom_name: boolean;
  group_id: string | null;
  status: DeviceStatus;
  first_seen_at: string;
  last_seen_at: string;
  last_proof_at: string | null;
  proof_count: number;
  last_health: Health | null;
  description: string | null;
  type: string | null;
  sort_order: number | null;
  hidden: boolean;
}

export interface Group {
  group_id: string;
  name: string;
  description: string | null;
  device_count: number;
  created_at: string;
  color: string | null;
}

export interface Fleet {
  devices: Device[];
  next_cursor: string | null;
  groups: Group[];
  summary: { total_devices: number; by_status: StatusCounts; group_count: number };
}

export interface ProofSummary {
  proof_id: string;
  task_id: string;
  robot_id: string | null;
  run_id: string | null;
  created_at: string;
  received_at: string;
  signer_public_key_b64: string;
  topics: string[];
  event_count: number;
}

export interface Verification {
  valid: boolean;
  proof_id: string | null;
  reason: string | null;
  code: string | null;
  checks: Record<string, 'passed' | 'failed' | 'skipped'>;
}

/** What the registry announces (GET /v1/events, the stream, webhooks), in the order the forms list them. */
export const EVENT_TYPES = ['proof.accepted', 'proof.rejected', 'proof.logged', 'device.status_changed', 'key.created', 'key.updated', 'key.deleted'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** One event: the webhook body, the stream's `data:` and an item of the feed are the same. */
export interface RegistryEvent {
  id: string;
  type: EventType | 'webhook.test';
  timestamp: string;
  wallet: string;
  data: Record<string, unknown>;
}

export interface WebhookEndpoint {
  endpoint_id: string;
  url: string;
  description: string | null;
  /** null: every type, including types added later. */
  event_types: EventType[] | null;
  enabled: boolean;
  /** Why the registry turned it off (410 Gone, failing for days); null when the owner did, or it is on. */
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
  failing_since: string | null;
  last_success_at: string | null;
  previous_secret_expires_at: string | null;
}

export type DeliveryState = 'pending' | 'succeeded' | 'failed';

export interface Delivery {
  delivery_id: string;
  event_id: string;
  event_type: string;
  state: DeliveryState;
  attempts: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  created_at: string;
}

export interface DeliveryDetail extends Delivery {
  attempts_log: Array<{
    attempt: number;
    at: string;
    status_code: number | null;
    latency_ms: number;
    error: string | null;
    response_excerpt: string;
    trigger: 'scheduled' | 'manual';
  }>;
}

/** GET /v1/stats/wallet/{addr}/report */
export interface ProofBreakdown {
  entries: Array<{ id: string; proofs: number }>;
  other: number;
  total: number;
}
export interface StatisticsReport {
  range: '24h' | '7d' | '30d' | '90d' | 'custom';
  bucket: 'hour' | 'day';
  from: string;
  to: string;
  proofs: number;
  refused: number;
  series: Array<{ t: string; proofs: number; refused: number }>;
  robots: ProofBreakdown;
  tasks: ProofBreakdown;
  /** Rows Monday to Sunday, columns UTC hours 0 to 23. */
  weekday_hours: number[][];
  requests: { from: string; to: string; requests: number; errors: number; endpoints: Array<{ endpoint: string; requests: number; errors: number }> };
}
