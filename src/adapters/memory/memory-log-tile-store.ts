import type { LogTileStore } from '../../application/ports/log-tile-store.js';
import type { TileContent } from '../../domain/log/append-to-tiles.js';
import { tileKey, type TileId } from '../../domain/log/tiles.js';

/** In-memory LogTileStore; JavaScript's single thread makes `integrate` atomic. Copies in and out, as a database would. */
export class MemoryLogTileStore implements LogTileStore {
  private size = 0;
  private readonly tiles = new Map<string, Uint8Array>();

  async integratedSize(): Promise<number> {
    return this.size;
  }

  async readTiles(ids: readonly TileId[]): Promise<Array<Uint8Array | null>> {
    return ids.map((id) => this.tiles.get(tileKey(id))?.slice() ?? null);
  }

  async integrate(fromSize: number, toSize: number, tiles: readonly TileContent[]): Promise<boolean> {
    if (this.size !== fromSize) return false;
    for (const tile of tiles) this.tiles.set(tileKey(tile), tile.hashes.slice());
    this.size = toSize;
    return true;
  }
}
