import { extname } from 'node:path';
import { parseRfc3339 } from '../../domain/protocol/datetime.js';
import type { TelemetryEvent } from '../../domain/protocol/envelope.js';
import { CliError, isPlainObject, parseJson, type Source } from './command.js';

/**
 * Telemetry for `sign`, in one of three shapes:
 * - JSON Lines, one `{ts, topic, data}` per line (the ACTO SDK's sample format);
 * - a JSON array of events;
 * - a JSON object `{ "events": [...] }`.
 * `.jsonl`/`.ndjson` files are read as lines and `.json` files as JSON; anything else (stdin
 * included) is JSON when the whole text parses as an array or an `{events}` object, else lines.
 */
export function readTelemetry(source: Source): TelemetryEvent[] {
  const ext = source.path === null ? '' : extname(source.path).toLowerCase();
  if (ext === '.jsonl' || ext === '.ndjson') return fromLines(source);
  if (ext === '.json') return fromJson(parseJson(source.text, source.name), source.name);
  const whole = tryParse(source.text);
  // A one-line JSONL file also parses whole, as a single event: only these two shapes are JSON.
  if (Array.isArray(whole) || (isPlainObject(whole) && 'events' in whole)) return fromJson(whole, source.name);
  return fromLines(source);
}

function fromLines(source: Source): TelemetryEvent[] {
  const events: TelemetryEvent[] = [];
  source.text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    const where = `${source.name} line ${i + 1}`;
    events.push(toEvent(parseJson(line, where), where));
  });
  return events;
}

function fromJson(json: unknown, name: string): TelemetryEvent[] {
  const list = isPlainObject(json) ? json.events : json;
  if (!Array.isArray(list)) throw new CliError(`${name}: expected an array of events or an object with an "events" array`);
  return list.map((item: unknown, i) => toEvent(item, `${name} events[${i}]`));
}

/** The same rules the verifier applies, checked here so a bad event is named by its line. */
function toEvent(value: unknown, where: string): TelemetryEvent {
  if (!isPlainObject(value)) throw new CliError(`${where}: an event must be a JSON object {ts, topic, data}`);
  const { ts, topic, data } = value;
  if (typeof ts !== 'string') throw new CliError(`${where}: ts must be a string`);
  if (parseRfc3339(ts) === null) throw new CliError(`${where}: ts must be an RFC 3339 date-time with offset (got ${JSON.stringify(ts)})`);
  if (typeof topic !== 'string' || topic === '') throw new CliError(`${where}: topic must be a non-empty string`);
  if (!isPlainObject(data)) throw new CliError(`${where}: data must be a JSON object`);
  // Extra members are kept: they are covered by telemetry_hash like everything else.
  return value as unknown as TelemetryEvent;
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
