import { foldFromRight, emptyRoot } from '../../domain/log/merkle.js';
import { consistencyPlan, inclusionPlan, planNodes, proofHashes, rootPlan, type NodeId, type ProofPlan } from '../../domain/log/proof-plans.js';
import { HASH_SIZE, type Sha256 } from '../../domain/log/sha256.js';
import { expandTile, hashInTile, type TileLevels } from '../../domain/log/tile-hashes.js';
import { locateNode, tileKey, type TileId } from '../../domain/log/tiles.js';
import type { LogTileStore } from '../ports/log-tile-store.js';

interface CachedTile {
  /** Hashes the cached copy has; a narrower copy still answers for what it holds. */
  readonly width: number;
  readonly levels: TileLevels;
}

export interface LogTreeOptions {
  /**
   * Tiles kept in memory with their inner levels rebuilt (16 KiB each when full), least
   * recently used out first. The tiles of the upper levels and of the right edge serve
   * every proof, so even a small cache saves most reads; 1,024 tiles cover the leaf tiles
   * of a quarter million leaves.
   */
  readonly cachedTiles: number;
}

/**
 * Roots and proofs read from the stored tiles: a proof reads O(log n) hashes from at most a
 * few tiles per tile level, never the whole log. Tiles are cached: a row only grows and never
 * changes what it holds, so any cached copy is right for the hashes it has, and is read again
 * only when a proof needs hashes past its width.
 */
export class LogTree {
  private readonly cache = new Map<string, CachedTile>();

  constructor(
    private readonly store: LogTileStore,
    private readonly sha: Sha256,
    private readonly options: LogTreeOptions = { cachedTiles: 1024 },
  ) {}

  /** The root of the tree of `size` leaves (size ≤ the integrated size). */
  async root(size: number): Promise<Uint8Array> {
    if (size === 0) return emptyRoot(this.sha);
    const nodes = rootPlan(size);
    const hashOf = await this.read(nodes);
    return foldFromRight(this.sha, nodes.map(hashOf));
  }

  inclusion(leafIndex: number, treeSize: number): Promise<Uint8Array[]> {
    return this.prove(inclusionPlan(leafIndex, treeSize));
  }

  consistency(first: number, second: number): Promise<Uint8Array[]> {
    return this.prove(consistencyPlan(first, second));
  }

  /** A tile's stored row, at least `width` hashes of it (a prefix when more are stored), or null. */
  async tile(tile: TileId, width: number): Promise<Uint8Array | null> {
    const [row] = await this.store.readTiles([tile]);
    return row && row.length >= width * HASH_SIZE ? row.subarray(0, width * HASH_SIZE) : null;
  }

  private async prove(plan: ProofPlan): Promise<Uint8Array[]> {
    return proofHashes(this.sha, plan, await this.read(planNodes(plan)));
  }

  /** Reads the tiles holding `nodes` (cached where possible) and answers each node's hash. */
  private async read(nodes: readonly NodeId[]): Promise<(node: NodeId) => Uint8Array> {
    const needed = new Map<string, { tile: TileId; width: number }>();
    for (const node of nodes) {
      const where = locateNode(node);
      const key = tileKey(where.tile);
      needed.set(key, { tile: where.tile, width: Math.max(where.width, needed.get(key)?.width ?? 0) });
    }
    const levels = new Map<string, TileLevels>();
    const missing: Array<{ key: string; tile: TileId; width: number }> = [];
    for (const [key, want] of needed) {
      const cached = this.cache.get(key);
      if (cached && cached.width >= want.width) {
        this.cache.delete(key); // re-inserted last: most recently used
        this.cache.set(key, cached);
        levels.set(key, cached.levels);
      } else missing.push({ key, ...want });
    }
    if (missing.length > 0) {
      const rows = await this.store.readTiles(missing.map((m) => m.tile));
      missing.forEach((m, i) => {
        const row = rows[i];
        // The store's size says these hashes exist; a missing tile means the stored tree is damaged.
        if (!row || row.length < m.width * HASH_SIZE)
          throw new Error(`tile ${m.key} has ${row ? row.length / HASH_SIZE : 0} hashes; the tree needs ${m.width}`);
        const expanded = expandTile(this.sha, row);
        levels.set(m.key, expanded);
        this.remember(m.key, { width: row.length / HASH_SIZE, levels: expanded });
      });
    }
    return (node) => {
      const where = locateNode(node);
      return hashInTile(levels.get(tileKey(where.tile))!, where);
    };
  }

  private remember(key: string, tile: CachedTile): void {
    if (this.options.cachedTiles <= 0) return;
    this.cache.delete(key);
    if (this.cache.size >= this.options.cachedTiles) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, tile);
  }
}
