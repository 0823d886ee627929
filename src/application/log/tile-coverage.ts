import { tileWidth, type TileRef } from '../../domain/log/tiles.js';
import type { CheckpointStore } from '../ports/checkpoint-store.js';

export interface TileAnswer {
  readonly bytes: Uint8Array;
  /** A full tile or bundle never changes: it may be cached for good. */
  readonly immutable: boolean;
}

/**
 * Is the tile, at this width, part of a published tree? Only what the latest checkpoint
 * covers is served, so nothing is shown before it is signed. A partial width a wider tile
 * has passed is still served, as the start of the wider one (C2SP lets a log drop those, but
 * a client holding an older checkpoint may still ask).
 */
export async function covered(checkpoints: CheckpointStore, tile: TileRef): Promise<boolean> {
  const size = (await checkpoints.latest())?.size ?? 0;
  return tile.width >= 1 && tile.width <= tileWidth(tile, size);
}
