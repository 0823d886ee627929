import { MAX_TILE_LEVEL, TILE_WIDTH, type TileRef } from './tiles.js';

/**
 * C2SP tlog-tiles paths: `tile/<L>/<N>[.p/<W>]` and `tile/entries/<N>[.p/<W>]`. N is written
 * in 3-digit groups, every group but the last prefixed with `x` (1234067 → x001/x234/067),
 * so a file system can hold the tiles without a directory and a file sharing a name.
 */
export function tileIndexPath(index: number): string {
  const digits = String(index);
  const padded = digits.padStart(Math.ceil(digits.length / 3) * 3, '0');
  const groups = padded.match(/\d{3}/g)!;
  return groups.map((g, i) => (i < groups.length - 1 ? `x${g}` : g)).join('/');
}

const widthSuffix = (width: number): string => (width === TILE_WIDTH ? '' : `.p/${width}`);

export function tilePath(tile: TileRef): string {
  return `tile/${tile.level}/${tileIndexPath(tile.index)}${widthSuffix(tile.width)}`;
}

export function entriesPath(tile: Omit<TileRef, 'level'>): string {
  return `tile/entries/${tileIndexPath(tile.index)}${widthSuffix(tile.width)}`;
}

/** A parsed tile path: a hash tile, or an entry bundle (`level: 'entries'`). */
export interface ParsedTilePath {
  readonly level: number | 'entries';
  readonly index: number;
  readonly width: number;
}

const PATH = /^tile\/(entries|0|[1-9]\d?)\/((?:x\d{3}\/)*\d{3})(?:\.p\/([1-9]\d{0,2}))?$/;

/**
 * Reads a tile path, or null. Only the canonical spelling is accepted (no `x000` group in
 * front, no leading zeros in L or W, W below 256), so every tile has exactly one path and
 * one cache entry.
 */
export function parseTilePath(path: string): ParsedTilePath | null {
  const m = PATH.exec(path);
  if (!m) return null;
  const level = m[1] === 'entries' ? 'entries' : Number(m[1]);
  if (level !== 'entries' && level > MAX_TILE_LEVEL) return null;
  const index = Number(m[2]!.replace(/x|\//g, ''));
  if (!Number.isSafeInteger(index)) return null;
  const width = m[3] === undefined ? TILE_WIDTH : Number(m[3]);
  if (m[3] !== undefined && width >= TILE_WIDTH) return null;
  const canonical = level === 'entries' ? entriesPath({ index, width }) : tilePath({ level, index, width });
  return canonical === path ? { level, index, width } : null;
}
