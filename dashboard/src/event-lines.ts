import type { RegistryEvent } from './types.js';

/**
 * Each event as one line a person reads ("Proof 7621ab3f… accepted from arm-07 (leaf 12)").
 * Pure, without the DOM: links are paths below /dashboard/ that the view turns into links,
 * and every value from the event is kept as text, never markup (a device names itself).
 */
export type Part = string | { readonly text: string; readonly href: string; readonly title?: string };

export interface Line {
  /** good: accepted; bad: refused or gone; warn: a worse status; info: the rest. Shown as a word and a shape too. */
  readonly tone: 'good' | 'bad' | 'warn' | 'info';
  readonly parts: readonly Part[];
  /** A second line: the refusal's detail, the task. */
  readonly detail?: string;
}

/** The views of the feed, as the Activity page's filter names them. */
export const KINDS = {
  proofs: ['proof.accepted', 'proof.logged'],
  refusals: ['proof.rejected'],
  devices: ['device.status_changed'],
  keys: ['key.created', 'key.updated', 'key.deleted'],
} as const;
export type Kind = keyof typeof KINDS;

const CHECKS: Record<string, string> = {
  shape: 'shape',
  algorithms: 'algorithm',
  timestamps: 'timestamp',
  telemetry_hash: 'telemetry hash',
  payload_hash: 'payload hash',
  encoding: 'encoding',
  signature: 'signature',
};

const WORSE = new Set(['warning', 'degraded', 'error', 'offline']);

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

const proof = (id: string): Part => ({ text: `${id.slice(0, 8)}…`, href: `proofs/${encodeURIComponent(id)}`, title: id });
const device = (id: string): Part => ({ text: id, href: `fleet/devices/${encodeURIComponent(id)}` });

/** "42 s", "5 min", "1 h", "3 d": how long a device was silent. */
export function fmtSpan(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h`;
  return `${Math.floor(s / 86_400)} d`;
}

export function describeEvent(e: RegistryEvent): Line {
  const d = e.data;
  switch (e.type) {
    case 'proof.accepted': {
      const robot = text(d['robot_id']);
      const leaf = num(d['log_index']);
      const task = text(d['task_id']);
      return {
        tone: 'good',
        parts: [
          'Proof ',
          proof(String(d['proof_id'])),
          ' accepted',
          ...(robot ? [' from ', device(robot)] : [' (no robot_id)']),
          leaf === null ? '' : ` (leaf ${leaf})`,
        ],
        ...(task ? { detail: `Task ${task}` } : {}),
      };
    }
    case 'proof.rejected': {
      const check = text(d['check']);
      const robot = text(d['robot_id']);
      const detail = text(d['detail']) ?? text(d['code']) ?? '';
      return {
        tone: 'bad',
        parts: [
          check ? `Submission refused: ${CHECKS[check] ?? check} check failed` : 'Submission refused: it could not be stored',
          ...(robot ? [' (from ', device(robot), ')'] : []),
        ],
        detail: [detail, text(d['task_id']) ? `task ${text(d['task_id'])}` : null].filter(Boolean).join(' · '),
      };
    }
    case 'proof.logged':
      return {
        tone: 'info',
        parts: [
          'Proof ',
          proof(String(d['proof_id'])),
          ` is in the transparency log at index ${num(d['log_index']) ?? '?'} (tree size ${num(d['tree_size']) ?? '?'})`,
        ],
      };
    case 'device.status_changed': {
      const id = String(d['device_id']);
      const to = String(d['to']);
      const from = text(d['from']);
      if (from === null) return { tone: 'info', parts: ['New device ', device(id), ` (${to})`] };
      if (d['why'] === 'silence') {
        const silent = Date.parse(e.timestamp) - Date.parse(String(d['last_seen_at']));
        return {
          tone: to === 'offline' ? 'bad' : 'warn',
          parts: [device(id), ` went ${to}`, Number.isFinite(silent) ? ` (silent for ${fmtSpan(silent)})` : ''],
        };
      }
      const cause = d['why'] === 'proof' ? 'with a new proof' : 'after a health report';
      return {
        tone: WORSE.has(to) ? (to === 'error' ? 'bad' : 'warn') : 'good',
        parts: [device(id), to === 'online' && from === 'offline' ? ' is back online' : ` is now ${to}`, ` (was ${from}, ${cause})`],
      };
    }
    case 'key.created':
      return { tone: 'info', parts: [`API key “${text(d['name']) ?? '?'}” created (${text(d['prefix']) ?? ''}…)`] };
    case 'key.deleted':
      return { tone: 'info', parts: [`API key “${text(d['name']) ?? '?'}” deleted (${text(d['prefix']) ?? ''}…)`] };
    case 'key.updated': {
      const what = d['enabled'] === false ? 'disabled' : Array.isArray(d['changed']) && d['changed'].includes('enabled') ? 'enabled' : 'renamed';
      return { tone: what === 'disabled' ? 'warn' : 'info', parts: [`API key “${text(d['name']) ?? '?'}” ${what} (${text(d['prefix']) ?? ''}…)`] };
    }
    case 'webhook.test':
      return { tone: 'info', parts: [`Test event for webhook endpoint ${text(d['endpoint_id']) ?? ''}`] };
    default:
      return { tone: 'info', parts: [`Event ${String((e as { type: unknown }).type)}`] };
  }
}

/** The line as plain text: for tests, and the title of a shortened line. */
export const lineText = (line: Line): string => line.parts.map((p) => (typeof p === 'string' ? p : p.text)).join('');
