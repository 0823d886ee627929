import { KEY_PRESETS, SCOPES, isScope, type Scope } from '../../domain/identity/key-grant.js';
import { parseRfc3339 } from '../../domain/protocol/datetime.js';
import { CliError } from './command.js';

/**
 * `full` is the CLI's name for a key created without `scopes`: the service then grants every
 * scope, those added in later versions included, which listing the eight of today would not.
 */
export const PRESET_NAMES = [...Object.keys(KEY_PRESETS), 'full'] as const;

/** The grant options of `keys create`, as parseArgs gives them. */
export interface GrantOptions {
  readonly preset?: string | undefined;
  readonly scope?: readonly string[] | undefined;
  readonly robot?: readonly string[] | undefined;
  readonly expires?: string | undefined;
}

/** The members of POST /v1/keys beyond `name`; a member left out takes the service's default. */
export interface GrantBody {
  scopes?: string[];
  robot_ids?: string[];
  expires_at?: string;
}

/** A key as every key route shows it. */
export interface KeyState {
  key_id: string;
  name: string;
  prefix: string;
  created_at: string;
  scopes: string[];
  robot_ids: string[] | null;
  expires_at: string | null;
  enabled: boolean;
  disabled_at: string | null;
  status: 'active' | 'disabled' | 'expired';
}

export interface KeyItem extends KeyState {
  last_used_at: string | null;
  request_count: number;
  error_count: number;
  error_rate: number;
}

/** Repeated flags and comma lists alike, blanks dropped, each once, in the order given. */
const listOf = (values: readonly string[]): string[] => [
  ...new Set(
    values
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v !== ''),
  ),
];

const UNITS_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `--expires`: RFC 3339 as given (the service reads it), or a duration from `nowMs` as UTC. */
export function expiresAt(text: string, nowMs: number): string {
  const relative = /^([1-9][0-9]{0,5})([mhd])$/.exec(text.trim());
  if (relative) return new Date(nowMs + Number(relative[1]) * UNITS_MS[relative[2] as keyof typeof UNITS_MS]).toISOString();
  if (parseRfc3339(text) !== null) return text;
  throw new CliError(`--expires must be an RFC 3339 time (e.g. 2027-01-01T00:00:00Z) or a duration from now (e.g. 90m, 12h, 30d), got ${JSON.stringify(text)}`);
}

/**
 * Checks the grant options before any request, so a typo costs no round trip and makes no key;
 * what only the service can judge (a robot id's length, an expiry in its past) it reports.
 */
export function grantBody(o: GrantOptions, nowMs: number): GrantBody {
  const body: GrantBody = {};
  if (o.preset !== undefined && o.scope !== undefined) throw new CliError('--preset and --scope both say what the key may do: give one');
  if (o.preset !== undefined) {
    if (!(PRESET_NAMES as readonly string[]).includes(o.preset)) {
      throw new CliError(`unknown preset ${JSON.stringify(o.preset)}; the presets are ${PRESET_NAMES.join(', ')} (or list scopes with --scope)`);
    }
    if (o.preset !== 'full') body.scopes = [...KEY_PRESETS[o.preset as keyof typeof KEY_PRESETS]];
  }
  if (o.scope !== undefined) {
    const scopes = listOf(o.scope);
    if (scopes.length === 0) throw new CliError(`--scope needs at least one scope; the scopes are ${SCOPES.join(', ')}`);
    const unknown = scopes.filter((s) => !isScope(s));
    if (unknown.length > 0) {
      throw new CliError(
        `unknown scope ${unknown.map((s) => JSON.stringify(s)).join(', ')}; the scopes are ${SCOPES.join(', ')} (presets: ${PRESET_NAMES.join(', ')})`,
      );
    }
    body.scopes = scopes;
  }
  if (o.robot !== undefined) {
    const robots = listOf(o.robot);
    if (robots.length === 0) throw new CliError('--robot needs at least one robot id (leave it out for a key that acts for any robot)');
    body.robot_ids = robots;
  }
  if (o.expires !== undefined) body.expires_at = expiresAt(o.expires, nowMs);
  return body;
}

/** The preset whose scopes these are, else the scopes themselves. */
export function scopesLabel(scopes: readonly string[]): string {
  const same = (preset: readonly string[]) => preset.length === scopes.length && preset.every((s) => scopes.includes(s));
  if (same(SCOPES)) return 'full';
  const preset = Object.entries(KEY_PRESETS).find(([, p]) => same(p as readonly Scope[]));
  return preset ? preset[0] : scopes.join(',');
}

/** Robot ids are the integrator's text: control and line-separator characters are shown escaped, never sent to the terminal. */
const clean = (text: string): string => text.replace(/[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);

const SHOWN_ROBOTS = 3;

/** The binding in a column: `any`, or the robots, the first few of a long list and how many more. */
export function robotsLabel(robotIds: readonly string[] | null): string {
  if (robotIds === null) return 'any';
  const shown = robotIds.slice(0, SHOWN_ROBOTS).map(clean).join(',');
  return robotIds.length > SHOWN_ROBOTS ? `${shown} +${robotIds.length - SHOWN_ROBOTS} more` : shown;
}

/** A key's grant and state in one line, as create, disable, enable and rename report it. */
export const stateLine = (k: KeyState): string =>
  `${k.status}; scopes ${scopesLabel(k.scopes)}; robots ${robotsLabel(k.robot_ids)}; expires ${k.expires_at ?? 'never'}`;

export function keyTable(items: readonly KeyItem[]): string {
  if (items.length === 0) return 'No API keys. Create one with: proof-registry keys create <name>\n';
  const rows = [
    ['KEY ID', 'NAME', 'PREFIX', 'SCOPES', 'ROBOTS', 'EXPIRES', 'STATUS', 'CREATED', 'LAST USED', 'REQUESTS', 'ERRORS'],
    ...items.map((k) => [
      k.key_id,
      k.name,
      k.prefix,
      scopesLabel(k.scopes),
      robotsLabel(k.robot_ids),
      k.expires_at ?? 'never',
      k.status,
      k.created_at,
      k.last_used_at ?? 'never',
      String(k.request_count),
      String(k.error_count),
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return (
    rows
      .map((r) =>
        r
          .map((cell, i) => cell.padEnd(widths[i]!))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}
