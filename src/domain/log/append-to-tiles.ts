import { HASH_SIZE, type Sha256 } from './sha256.js';
import { hashAt, tileHashCount, tileRoot } from './tile-hashes.js';
import { partialTiles, tileKey, TILE_WIDTH } from './tiles.js';

/** A tile's hashes as stored: 32 bytes each, end to end; its width is their number. */
export interface TileContent {
  readonly level: number;
  readonly index: number;
  readonly hashes: Uint8Array;
}

/**
 * Grows the tree of `size` leaves by `leafHashes`, given its partial tiles (`edge`, as
 * `partialTiles(size)` names them). Returns the tiles to store: each tile that filled up and
 * each partial tile that changed. Nothing else of the tree is read or touched, so a leaf
 * costs about two hashes (its own, and its share of a tile root) however large the log is.
 *
 * A partial tile in `edge` that does not have the width the size implies means the stored
 * tree and its size disagree; going on would publish a different tree, so that throws.
 */
export function appendToTiles(sha: Sha256, size: number, edge: readonly TileContent[], leafHashes: readonly Uint8Array[]): TileContent[] {
  const rows: Uint8Array[][] = [];
  const filling: number[] = [];
  const byKey = new Map(edge.map((t) => [tileKey(t), t]));
  for (const expected of partialTiles(size)) {
    const stored = byKey.get(tileKey(expected));
    if (!stored || tileHashCount(stored.hashes) < expected.width) {
      throw new Error(`tile ${tileKey(expected)} should have ${expected.width} hashes at tree size ${size}`);
    }
    rows[expected.level] = Array.from({ length: expected.width }, (_, i) => hashAt(stored.hashes, i));
  }

  const out = new Map<string, TileContent>();
  const touched = new Set<number>();
  const push = (level: number, hash: Uint8Array): void => {
    const row = (rows[level] ??= []);
    filling[level] ??= Math.floor(size / TILE_WIDTH ** (level + 1));
    row.push(hash);
    touched.add(level);
    if (row.length < TILE_WIDTH) return;
    const full = concat(row);
    out.set(tileKey({ level, index: filling[level] }), { level, index: filling[level], hashes: full });
    rows[level] = [];
    filling[level]++;
    push(level + 1, tileRoot(sha, full));
  };
  for (const h of leafHashes) {
    if (h.length !== HASH_SIZE) throw new RangeError('a leaf hash is 32 bytes');
    push(0, h);
  }
  for (const level of touched) {
    const row = rows[level]!;
    const index = filling[level]!;
    if (row.length > 0) out.set(tileKey({ level, index }), { level, index, hashes: concat(row) });
  }
  return [...out.values()];
}

function concat(hashes: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(hashes.length * HASH_SIZE);
  hashes.forEach((h, i) => out.set(h, i * HASH_SIZE));
  return out;
}
