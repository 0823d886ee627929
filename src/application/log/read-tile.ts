import * as E from 'fp-ts/lib/Either.js';
import { TILE_WIDTH, type TileRef } from '../../domain/log/tiles.js';
import type { CheckpointStore } from '../ports/checkpoint-store.js';
import type { LogQueryFailure } from './log-failures.js';
import type { LogTree } from './log-tree.js';
import { covered, type TileAnswer } from './tile-coverage.js';

/** GET tile/<L>/<N>[.p/<W>]: a hash tile of the published tree. */
export class ReadTile {
  constructor(
    private readonly checkpoints: CheckpointStore,
    private readonly tree: LogTree,
  ) {}

  async execute(tile: TileRef): Promise<E.Either<LogQueryFailure, TileAnswer>> {
    if (!(await covered(this.checkpoints, tile))) return E.left({ _tag: 'TileNotFound' });
    const bytes = await this.tree.tile(tile, tile.width);
    if (!bytes) throw new Error(`tile ${tile.level}/${tile.index} is published but not stored`);
    return E.right({ bytes, immutable: tile.width === TILE_WIDTH });
  }
}
