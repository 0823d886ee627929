import * as E from 'fp-ts/lib/Either.js';
import { encodeEntryBundle } from '../../domain/log/entry-bundles.js';
import { TILE_WIDTH } from '../../domain/log/tiles.js';
import type { CheckpointStore } from '../ports/checkpoint-store.js';
import type { SequencedLeaves } from '../ports/sequenced-leaves.js';
import type { LogQueryFailure } from './log-failures.js';
import { covered, type TileAnswer } from './tile-coverage.js';

/** GET tile/entries/<N>[.p/<W>]: the leaf data of a level-0 tile, as a C2SP entry bundle. */
export class ReadEntryBundle {
  constructor(
    private readonly checkpoints: CheckpointStore,
    private readonly leaves: SequencedLeaves,
  ) {}

  async execute(bundle: { index: number; width: number }): Promise<E.Either<LogQueryFailure, TileAnswer>> {
    if (!(await covered(this.checkpoints, { level: 0, ...bundle }))) return E.left({ _tag: 'TileNotFound' });
    const start = bundle.index * TILE_WIDTH;
    const entries = await this.leaves.read(start, start + bundle.width);
    return E.right({ bytes: encodeEntryBundle(entries), immutable: bundle.width === TILE_WIDTH });
  }
}
