import { CliError, EXIT_INVALID, isPlainObject } from './command.js';
import type { SseMessage } from './sse-parser.js';

/** How `events tail` prints an event: one line of text, or its JSON as received. */

export function render(message: SseMessage, json: boolean): string {
  let event: unknown;
  try {
    event = JSON.parse(message.data);
  } catch {
    throw new CliError(`the service sent an event that is not JSON (${message.id || 'no id'}): ${clean(message.data.slice(0, 200))}`, EXIT_INVALID);
  }
  // One line per event, as received; data split over several `data:` lines is joined back into one.
  if (json) return message.data.includes('\n') ? JSON.stringify(event) : message.data;
  return eventLine(isPlainObject(event) ? event : {});
}

/**
 * Text from devices (task and robot ids, a refusal's detail) reaches the operator's terminal: control, format and line-separator
 * characters are shown escaped, never sent to it, so an id cannot move the cursor, rewrite the line or forge another event's line.
 */
const clean = (text: string): string => text.replace(/[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);

/** A value as one word: quoted (JSON-escaped) when it holds a space, a quote or anything `clean` escapes. */
const word = (value: unknown): string => {
  if (value === null || value === undefined) return '-';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return /^[^\s"\\\p{Cc}\p{Cf}\p{Cs}\p{Z}]+$/u.test(text) ? text : clean(JSON.stringify(text));
};
const pairs = (fields: Record<string, unknown>): string =>
  Object.entries(fields)
    .flatMap(([k, v]) => (v === null || v === undefined ? [] : [`${k}=${word(v)}`]))
    .join(' ');
/** A proof id shortened, as the service's messages shorten it; --json has it whole. */
const short = (id: unknown): string => (typeof id === 'string' && /^[0-9a-f]{64}$/.test(id) ? `${id.slice(0, 4)}…${id.slice(-5)}` : word(id));

/** The one-line summary of an event; a type this version does not know shows its data as JSON. */
export function eventLine(event: Record<string, unknown>): string {
  const d = isPlainObject(event['data']) ? event['data'] : {};
  const head = `${word(event['timestamp'])} ${word(event['type'])}`;
  switch (event['type']) {
    case 'proof.accepted':
      return `${head} ${short(d['proof_id'])} ${pairs({ task: d['task_id'], robot: d['robot_id'], run: d['run_id'], leaf: d['log_index'] })}`;
    case 'proof.rejected':
      return `${head} ${word(d['code'])} ${pairs({ check: d['check'], task: d['task_id'], robot: d['robot_id'], proof: d['proof_id'] === null ? null : short(d['proof_id']) })}: ${clean(String(d['detail']))}`;
    case 'proof.logged':
      return `${head} ${short(d['proof_id'])} ${pairs({ leaf: d['log_index'], tree: d['tree_size'] })}`;
    case 'device.status_changed':
      return `${head} ${word(d['device_id'])} ${d['from'] === null ? 'new' : word(d['from'])}→${word(d['to'])} (${word(d['why'])})`;
    case 'key.created':
    case 'key.updated':
    case 'key.deleted':
      return `${head} ${word(d['key_id'])} ${clean(JSON.stringify(String(d['name'])))} ${pairs({ prefix: d['prefix'] })}`;
    default:
      return `${head} ${clean(JSON.stringify(event['data'] ?? null))}`;
  }
}
