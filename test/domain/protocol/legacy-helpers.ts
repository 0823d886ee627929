/**
 * Verbatim copies of the protocol helpers as they were before they were rewritten for speed.
 * The differential tests (and bench/domain-helpers.ts) compare the new code against these:
 * for every input they must give the very same result. Do not "fix" anything in here.
 * encodeBase64 was not rewritten, so the old strict decoder uses the current one.
 */
import canonicalize from 'canonicalize';
import { encodeBase64 } from '../../../src/domain/protocol/encoding.js';

// ---- canonical.ts ------------------------------------------------------------------------

export function legacyCanonicalText(value: unknown): string | null {
  try {
    const text = canonicalize(value);
    return typeof text === 'string' ? text : null;
  } catch {
    return null;
  }
}

/** canonicalPayloadText as it was, over the legacy canonicalText. */
export function legacyCanonicalPayloadText(payload: Record<string, unknown>, telemetryText?: string): string | null {
  const names = Object.keys(payload)
    .filter((name) => name !== 'payload_hash' && payload[name] !== undefined)
    .sort();
  const members: string[] = [];
  for (const name of names) {
    const value = name === 'telemetry_normalized' && telemetryText !== undefined ? telemetryText : legacyCanonicalText(payload[name]);
    if (value === null) return null;
    members.push(`${JSON.stringify(name)}:${value}`);
  }
  return `{${members.join(',')}}`;
}

// ---- datetime.ts -------------------------------------------------------------------------

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function legacyParseRfc3339(text: string): number | null {
  const m = RFC3339.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12) return null;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const maxDay = month === 2 && !leap ? 28 : DAYS_IN_MONTH[month - 1]!;
  if (day < 1 || day > maxDay || hour > 23 || minute > 59 || second > 60) return null;
  let offsetMin = 0;
  if (m[9] !== undefined) {
    const oh = Number(m[9]);
    const om = Number(m[10]);
    if (oh > 23 || om > 59) return null;
    offsetMin = (m[8]!.startsWith('-') ? -1 : 1) * (oh * 60 + om);
  }
  // Digits past the ninth (below a nanosecond) are not counted.
  const frac = m[7] ? Math.floor(Number(`0${m[7].slice(0, 10)}`) * 1000) : 0;
  // A leap second (:60) is counted as the last millisecond of the minute.
  // setUTCFullYear, not Date.UTC: Date.UTC takes years 0–99 as 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, Math.min(second, 59), 0);
  const ms = date.getTime() + (second === 60 ? 999 : frac);
  return ms - offsetMin * 60_000;
}

// ---- encoding.ts -------------------------------------------------------------------------

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const B64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function legacyDecodeBase64Strict(text: string): Uint8Array | null {
  if (!BASE64.test(text)) return null;
  const bytes = base64ToBytes(text);
  return encodeBase64(bytes) === text ? bytes : null;
}

function base64ToBytes(text: string): Uint8Array {
  const clean = text.replace(/=+$/, '');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let acc = 0;
  let i = 0;
  for (const ch of clean) {
    acc = (acc << 6) | B64_ALPHABET.indexOf(ch);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[i++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

// ---- limits.ts ---------------------------------------------------------------------------

export function legacyJsonDepth(value: unknown, cap = Number.MAX_SAFE_INTEGER): number {
  if (value === null || typeof value !== 'object') return 0;
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > deepest) deepest = depth;
    if (deepest > cap) return deepest;
    const children = Array.isArray(node) ? node : Object.values(node as object);
    for (const child of children) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return deepest;
}

// ---- encoding.ts: hex --------------------------------------------------------------------

export function legacyBytesToHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

export function legacyHexToBytes(hex: string): Uint8Array | null {
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}
