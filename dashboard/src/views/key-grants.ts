import { fmtDate } from '../format.js';
import { SCOPES, type KeyInfo, type Scope } from '../types.js';

export type PresetId = 'robot' | 'auditor' | 'full' | 'custom';

export interface Preset {
  readonly id: PresetId;
  readonly label: string;
  readonly meaning: string;
  /** What is sent; null for Full access, whose key then also holds the scopes the registry adds later. */
  readonly scopes: readonly Scope[] | null;
}

/** The API's KEY_PRESETS, and the two choices around them. */
export const PRESETS: readonly Preset[] = [
  {
    id: 'robot',
    label: 'Robot',
    meaning: 'Submits proofs and reports health; reads nothing. Can be held to the devices it is for.',
    scopes: ['proofs:write', 'health:write'],
  },
  {
    id: 'auditor',
    label: 'Auditor',
    meaning: 'Reads and verifies proofs, and reads the fleet, statistics and events; changes nothing.',
    scopes: ['proofs:read', 'verify', 'fleet:read', 'stats:read', 'events:read'],
  },
  { id: 'full', label: 'Full access', meaning: 'Every scope, including those the registry adds later.', scopes: null },
  { id: 'custom', label: 'Custom', meaning: 'The scopes you tick below.', scopes: null },
];

export const SCOPE_MEANINGS: Record<Scope, string> = {
  'proofs:write': 'Submit proofs',
  'proofs:read': 'Search and read proofs',
  verify: 'Verify and score envelopes, storing nothing',
  'fleet:read': 'Read devices, groups and health history',
  'fleet:write': 'Edit devices and groups: labels, order, hiding, membership',
  'health:write': 'Report device health',
  'stats:read': 'Read the wallet’s statistics',
  'events:read': 'Read the event feed and stream',
};

/** On these a key bound to devices is held to them; binding a key without them changes nothing. */
export const ROBOT_SCOPES: readonly Scope[] = ['proofs:write', 'health:write'];

/** At most this many device ids per key (the API's limit). */
export const MAX_BOUND = 1000;

const sameScopes = (a: readonly Scope[], b: readonly Scope[]) => a.length === b.length && a.every((s) => b.includes(s));

/** The preset a key's scopes amount to, or null for any other set. */
export function presetOf(scopes: readonly Scope[]): Preset | null {
  if (sameScopes(scopes, SCOPES)) return PRESETS.find((p) => p.id === 'full')!;
  return PRESETS.find((p) => p.scopes !== null && sameScopes(scopes, p.scopes)) ?? null;
}

/** Compact: the preset's name, else the scopes. */
export const accessText = (k: Pick<KeyInfo, 'scopes'>): string => presetOf(k.scopes)?.label ?? SCOPES.filter((s) => k.scopes.includes(s)).join(', ');

/** Who the key may speak for, the first few ids named. */
export function bindingText(k: Pick<KeyInfo, 'robot_ids'>, shown = 3): string {
  const ids = k.robot_ids;
  if (ids === null) return 'any robot';
  const head = ids.slice(0, shown).join(', ');
  return ids.length > shown ? `${head} and ${ids.length - shown} more` : head;
}

/** The key's expiry as words; past by the registry's clock (its status) or by this browser's. */
export function expiryText(k: Pick<KeyInfo, 'expires_at' | 'status'>, nowMs = Date.now()): string {
  if (k.expires_at === null) return 'never expires';
  return `${k.status === 'expired' || Date.parse(k.expires_at) <= nowMs ? 'expired' : 'expires'} ${fmtDate(k.expires_at)}`;
}

/** Device ids typed one per line or separated by commas (an id may hold spaces, never a comma or a line break). */
export function parseIds(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,\n]/)
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
}
