import type { DeviceStatus } from '../fleet/device-status.js';
import { describeUnstorable, type ProofRecord, type UnstorableProof } from '../proof/proof-record.js';
import { scopesOf, type KeyGrant } from '../identity/key-grant.js';
import { toRfc3339 } from '../protocol/datetime.js';
import { checkOf, describeFailure, failureCode, type ProofFailure } from '../protocol/failures.js';
import type {
  DeviceStatusChangedData,
  KeyCreatedData,
  KeyDeletedData,
  KeyUpdatedData,
  NewEvent,
  ProofAcceptedData,
  ProofLoggedRecord,
  ProofRejectedData,
  StatusCause,
  WebhookTestData,
} from './event.js';

/** The events of the registry's changes, each built in one place: the stores and use cases that make the change call these. */

export function proofAccepted(record: ProofRecord, logIndex: number | null): NewEvent {
  const data: ProofAcceptedData = {
    proof_id: record.proofId,
    log_index: logIndex,
    task_id: record.taskId,
    robot_id: record.robotId,
    run_id: record.runId,
    created_at: record.createdAt,
    received_at: toRfc3339(record.receivedAtMs),
    signer_public_key_b64: record.signerPublicKeyB64,
  };
  return { wallet: record.wallet, type: 'proof.accepted', atMs: record.receivedAtMs, logIndex, data };
}

/** What a refused envelope claimed about itself, read without trusting its shape. */
export interface ClaimedIds {
  readonly proofId: string | null;
  readonly taskId: string | null;
  readonly robotId: string | null;
}

const CLAIM_MAX = 200;
const claimed = (value: unknown): string | null => (typeof value === 'string' && value.length <= CLAIM_MAX ? value : null);

export function claimedIds(envelope: unknown): ClaimedIds {
  const payload = typeof envelope === 'object' && envelope !== null ? (envelope as { payload?: unknown }).payload : undefined;
  const p = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : {};
  const subject = typeof p.subject === 'object' && p.subject !== null ? (p.subject as Record<string, unknown>) : {};
  return { proofId: claimed(p.payload_hash), taskId: claimed(subject.task_id), robotId: claimed(subject.robot_id) };
}

/** A refused submission, named as its 422 names it (code, check, detail); never the envelope. */
export function proofRejected(wallet: string, failure: ProofFailure | UnstorableProof, ids: ClaimedIds, atMs: number): NewEvent {
  const unstorable = failure._tag === 'UnstorableProof';
  const data: ProofRejectedData = {
    code: failureCode(failure._tag),
    check: unstorable ? null : checkOf(failure),
    detail: unstorable ? `proof not stored: ${describeUnstorable(failure)}` : `invalid proof: ${describeFailure(failure)}`,
    proof_id: ids.proofId,
    task_id: ids.taskId,
    robot_id: ids.robotId,
  };
  return { wallet, type: 'proof.rejected', atMs, data };
}

export function proofLogged(wallet: string, record: ProofLoggedRecord, atMs: number): NewEvent {
  return { wallet, type: 'proof.logged', atMs, logIndex: record.log_index, data: { ...record } };
}

export interface StatusChange {
  readonly wallet: string;
  readonly deviceId: string;
  readonly from: DeviceStatus | null;
  readonly to: DeviceStatus;
  readonly why: StatusCause;
  readonly lastSeenMs: number;
}

export function statusChanged(change: StatusChange, atMs: number): NewEvent {
  const data: DeviceStatusChangedData = {
    device_id: change.deviceId,
    from: change.from,
    to: change.to,
    why: change.why,
    last_seen_at: toRfc3339(change.lastSeenMs),
  };
  return { wallet: change.wallet, type: 'device.status_changed', atMs, data };
}

export interface KeyFacts extends KeyGrant {
  readonly keyId: string;
  readonly wallet: string;
  readonly name: string;
  readonly prefix: string;
  readonly createdAtMs: number;
  readonly expiresAtMs: number | null;
  readonly disabledAtMs: number | null;
}

export function keyCreated(key: KeyFacts): NewEvent {
  const data: KeyCreatedData = {
    key_id: key.keyId,
    name: key.name,
    prefix: key.prefix,
    created_at: toRfc3339(key.createdAtMs),
    scopes: scopesOf(key),
    robot_ids: key.robotIds,
    expires_at: key.expiresAtMs === null ? null : toRfc3339(key.expiresAtMs),
  };
  return { wallet: key.wallet, type: 'key.created', atMs: key.createdAtMs, data };
}

/** A key as it was and as it is now; null when nothing the owner sees changed. */
export function keyUpdated(before: KeyFacts, after: KeyFacts, atMs: number): NewEvent | null {
  const changed: Array<'name' | 'enabled'> = [];
  if (before.name !== after.name) changed.push('name');
  if ((before.disabledAtMs === null) !== (after.disabledAtMs === null)) changed.push('enabled');
  if (changed.length === 0) return null;
  const data: KeyUpdatedData = { key_id: after.keyId, name: after.name, prefix: after.prefix, enabled: after.disabledAtMs === null, changed };
  return { wallet: after.wallet, type: 'key.updated', atMs, data };
}

export function keyDeleted(key: KeyFacts, atMs: number): NewEvent {
  const data: KeyDeletedData = { key_id: key.keyId, name: key.name, prefix: key.prefix };
  return { wallet: key.wallet, type: 'key.deleted', atMs, data };
}

export function webhookTest(wallet: string, endpointId: string, atMs: number): NewEvent {
  const data: WebhookTestData = { endpoint_id: endpointId, message: 'A test event from Proof Registry: your endpoint receives and can verify deliveries.' };
  return { wallet, type: 'webhook.test', atMs, target: endpointId, data };
}
