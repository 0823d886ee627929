import * as E from 'fp-ts/lib/Either.js';
import { isDeviceId } from '../fleet/device.js';

/**
 * What an API key may do (docs/identity.md, "Scopes"). Every route that takes a key names
 * one scope; a key holds some of them. A key created with no scopes listed holds all of them,
 * those added in later versions included, as keys made before scopes existed do.
 */
export const SCOPES = ['proofs:write', 'proofs:read', 'verify', 'fleet:read', 'fleet:write', 'health:write', 'stats:read', 'events:read'] as const;
export type Scope = (typeof SCOPES)[number];

export const isScope = (text: string): text is Scope => (SCOPES as readonly string[]).includes(text);

/** The presets the dashboard and the CLI offer; a key stores the scopes, never the preset's name. */
export const KEY_PRESETS = {
  /** A robot's key: it submits its proofs and reports its health, and reads nothing. */
  robot: ['proofs:write', 'health:write'],
  /** An auditor's key: it reads and verifies, and changes nothing. */
  auditor: ['proofs:read', 'verify', 'fleet:read', 'stats:read', 'events:read'],
} as const satisfies Record<string, readonly Scope[]>;

/** The scopes whose calls speak for a robot: on them, a bound key is held to its robots. */
export const ROBOT_SCOPES: readonly Scope[] = ['proofs:write', 'health:write'];

/** Most robot ids one key may be bound to. */
export const MAX_BOUND_ROBOTS = 1_000;

/**
 * A key's grant: its scopes (null: all) and the robots it acts for (null: any robot of its
 * wallet). Binding limits what the key may say about robots (the proofs it submits, the health
 * it reports), not what it may read: reading is what scopes are for.
 */
export interface KeyGrant {
  readonly scopes: readonly Scope[] | null;
  readonly robotIds: readonly string[] | null;
}

export const FULL_GRANT: KeyGrant = { scopes: null, robotIds: null };

export const holdsScope = (grant: Pick<KeyGrant, 'scopes'>, scope: Scope): boolean => grant.scopes === null || grant.scopes.includes(scope);

/** Whether the key may speak for this robot: any, for an unbound key. */
export const actsFor = (grant: Pick<KeyGrant, 'robotIds'>, robotId: string): boolean => grant.robotIds === null || grant.robotIds.includes(robotId);

/** The scopes a key holds, spelled out (all of them for a full grant), in the order of SCOPES. */
export const scopesOf = (grant: Pick<KeyGrant, 'scopes'>): readonly Scope[] => SCOPES.filter((s) => holdsScope(grant, s));

/** A bound key spoke for a robot it is not bound to (or, robotId null, for none at all). */
export type RobotNotAllowed = { readonly _tag: 'RobotNotAllowed'; readonly robotId: string | null };

/** Null when a caller bound to `robotIds` (null: any robot) may speak for the robot named, else why not. */
export function robotRefusal(robotIds: readonly string[] | null | undefined, robotId: string | null): RobotNotAllowed | null {
  if (robotIds === null || robotIds === undefined) return null;
  return robotId !== null && robotIds.includes(robotId) ? null : { _tag: 'RobotNotAllowed', robotId };
}

export type InvalidKeyGrant = { readonly _tag: 'InvalidKeyGrant'; readonly field: 'scopes' | 'robot_ids' | 'expires_at'; readonly detail: string };

export interface RequestedGrant {
  /** Absent: every scope. */
  readonly scopes?: readonly string[];
  /** Absent or null: any robot. */
  readonly robotIds?: readonly string[] | null;
  /** Absent or null: never expires. */
  readonly expiresAtMs?: number | null;
}

/**
 * Checks what a key is asked to hold. An empty scope list or binding would make a key that
 * can do nothing: that is a mistake to report, not a key to issue. Scopes and robots are kept
 * once each, in a fixed order, so two equal grants are stored alike.
 */
export function checkGrant(asked: RequestedGrant, nowMs: number): E.Either<InvalidKeyGrant, KeyGrant & { readonly expiresAtMs: number | null }> {
  const invalid = (field: InvalidKeyGrant['field'], detail: string) => E.left<InvalidKeyGrant>({ _tag: 'InvalidKeyGrant', field, detail });
  let scopes: readonly Scope[] | null = null;
  if (asked.scopes !== undefined) {
    if (asked.scopes.length === 0) return invalid('scopes', 'scopes must name at least one scope (leave it out for a key with every scope)');
    const unknown = asked.scopes.find((s) => !isScope(s));
    if (unknown !== undefined) return invalid('scopes', `unknown scope ${JSON.stringify(unknown)}; scopes are ${SCOPES.join(', ')}`);
    scopes = SCOPES.filter((s) => asked.scopes!.includes(s));
  }
  let robotIds: readonly string[] | null = null;
  if (asked.robotIds !== undefined && asked.robotIds !== null) {
    if (asked.robotIds.length === 0) return invalid('robot_ids', 'robot_ids must name at least one robot (leave it out for a key that acts for any robot)');
    const unique = [...new Set(asked.robotIds)].sort();
    if (unique.length > MAX_BOUND_ROBOTS) return invalid('robot_ids', `a key may be bound to at most ${MAX_BOUND_ROBOTS} robots, not ${unique.length}`);
    const bad = unique.find((id) => !isDeviceId(id));
    if (bad !== undefined) return invalid('robot_ids', `robot id ${JSON.stringify(bad.slice(0, 40))} is not a robot id (1 to 128 characters, without U+0000)`);
    robotIds = unique;
  }
  const expiresAtMs = asked.expiresAtMs ?? null;
  if (expiresAtMs !== null && expiresAtMs <= nowMs) return invalid('expires_at', 'expires_at must be in the future');
  return E.right({ scopes, robotIds, expiresAtMs });
}
