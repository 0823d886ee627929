import type { NodeId } from './proof-plans.js';

/**
 * C2SP tlog-tiles coordinates with tile height 8. Tile `(level L, index N)` holds up to 256
 * consecutive hashes of tree level 8·L: at level 0 the leaf hashes, above that the root of
 * each full tile one level down. A tile is full at 256 hashes; the rightmost tile of each
 * level is partial until then, and only ever grows, so a wider copy of a tile always starts
 * with the narrower one's bytes.
 */
export const TILE_HEIGHT = 8;
export const TILE_WIDTH = 256;
/** C2SP allows levels 0–63; a tree of 2^53 leaves (JavaScript's exact integers) needs 7. */
export const MAX_TILE_LEVEL = 63;

export interface TileId {
  readonly level: number;
  readonly index: number;
}

/** A tile as published: full (width 256) or partial (1–255). */
export interface TileRef extends TileId {
  readonly width: number;
}

/** How many hashes the tile has in the tree of `size` leaves (0: not yet). */
export function tileWidth(tile: TileId, size: number): number {
  const atLevel = Math.floor(size / TILE_WIDTH ** tile.level);
  return Math.max(0, Math.min(TILE_WIDTH, atLevel - tile.index * TILE_WIDTH));
}

/**
 * The partial tiles of the tree of `size` leaves, lowest level first: with the full tiles
 * they hold every hash of the tree, and they are all a new leaf changes (C2SP: a tree of
 * 70,000 leaves has partial tiles of widths 112, 17 and 1 at levels 0, 1, 2).
 */
export function partialTiles(size: number): TileRef[] {
  const tiles: TileRef[] = [];
  for (let level = 0; TILE_WIDTH ** level <= size; level++) {
    const atLevel = Math.floor(size / TILE_WIDTH ** level);
    const width = atLevel % TILE_WIDTH;
    if (width > 0) tiles.push({ level, index: Math.floor(atLevel / TILE_WIDTH), width });
  }
  return tiles;
}

/**
 * Where the hash of the perfect subtree `node` comes from: the `count` consecutive hashes
 * from `offset` in tile `tile`, hashed together (count 1: the hash is stored as it is).
 * `width` is the fewest hashes the tile must have.
 */
export interface NodeInTile {
  readonly tile: TileId;
  readonly offset: number;
  readonly count: number;
  readonly width: number;
}

export function locateNode(node: NodeId): NodeInTile {
  const level = Math.floor(node.level / TILE_HEIGHT);
  const count = 2 ** (node.level - level * TILE_HEIGHT);
  const first = node.index * count;
  const offset = first % TILE_WIDTH;
  return { tile: { level, index: Math.floor(first / TILE_WIDTH) }, offset, count, width: offset + count };
}

/** A tile's key as text, for maps. */
export const tileKey = (tile: TileId): string => `${tile.level}/${tile.index}`;
