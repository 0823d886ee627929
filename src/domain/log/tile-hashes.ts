import { nodeHash } from './merkle.js';
import { HASH_SIZE, type Sha256 } from './sha256.js';
import { TILE_HEIGHT, TILE_WIDTH, type NodeInTile } from './tiles.js';

/**
 * A tile's bytes are its hashes end to end (C2SP: a full tile is 8,192 bytes). The levels
 * between two tile levels are not stored; they are rebuilt by hashing pairs, at most 255
 * hashes for a full tile. `TileLevels` keeps them once rebuilt: levels[s] holds the perfect
 * subtrees of 2^s tile hashes, as many as the tile's width allows.
 */
export type TileLevels = readonly Uint8Array[];

export const hashAt = (bytes: Uint8Array, i: number): Uint8Array => bytes.subarray(i * HASH_SIZE, (i + 1) * HASH_SIZE);

export function tileHashCount(bytes: Uint8Array): number {
  if (bytes.length % HASH_SIZE !== 0 || bytes.length > TILE_WIDTH * HASH_SIZE) throw new RangeError(`a tile of ${bytes.length} bytes`);
  return bytes.length / HASH_SIZE;
}

export function expandTile(sha: Sha256, tile: Uint8Array): TileLevels {
  const levels: Uint8Array[] = [tile];
  let below = tile;
  for (let s = 1; s <= TILE_HEIGHT; s++) {
    const count = Math.floor(below.length / HASH_SIZE / 2);
    const level = new Uint8Array(count * HASH_SIZE);
    for (let j = 0; j < count; j++) level.set(nodeHash(sha, hashAt(below, 2 * j), hashAt(below, 2 * j + 1)), j * HASH_SIZE);
    levels.push(level);
    below = level;
  }
  return levels;
}

/** The hash of `where` (a perfect subtree inside this tile) from the tile's rebuilt levels. */
export function hashInTile(levels: TileLevels, where: NodeInTile): Uint8Array {
  const s = Math.log2(where.count);
  const level = levels[s];
  const j = where.offset / where.count;
  if (level === undefined || (j + 1) * HASH_SIZE > level.length) throw new RangeError(`tile has no subtree of ${where.count} at ${where.offset}`);
  return hashAt(level, j);
}

/** The Merkle Tree Hash of a full tile: the hash it contributes to the tile level above. */
export function tileRoot(sha: Sha256, full: Uint8Array): Uint8Array {
  if (tileHashCount(full) !== TILE_WIDTH) throw new RangeError('only a full tile has a root in the level above');
  return hashAt(expandTile(sha, full)[TILE_HEIGHT]!, 0);
}
