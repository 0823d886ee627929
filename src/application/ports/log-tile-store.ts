import type { TileContent } from '../../domain/log/append-to-tiles.js';
import type { TileId } from '../../domain/log/tiles.js';

/**
 * Where the log's Merkle tree lives: C2SP tiles (height 8), each stored as its hashes end to
 * end, under (level, index). A tile's row only grows, 1 to 256 hashes, and never changes
 * what it already holds; that is what lets readers cache any copy of it.
 */
export interface LogTileStore {
  /** The tree size the stored tiles describe: every leaf below it is hashed in. 0 for a new log. */
  integratedSize(): Promise<number>;
  /** Each tile's stored row (full, or its latest partial width), null where there is none; in order. */
  readTiles(tiles: readonly TileId[]): Promise<Array<Uint8Array | null>>;
  /**
   * Atomically: stores `tiles` (each replacing its tile's row) and moves the integrated size
   * from `fromSize` to `toSize`. If the size is no longer `fromSize` (someone else
   * integrated), nothing is written and the answer is false.
   */
  integrate(fromSize: number, toSize: number, tiles: readonly TileContent[]): Promise<boolean>;
}
