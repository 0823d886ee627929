import * as E from 'fp-ts/lib/Either.js';
import { appendToTiles } from '../../domain/log/append-to-tiles.js';
import { leafHash } from '../../domain/log/merkle.js';
import type { Sha256 } from '../../domain/log/sha256.js';
import { partialTiles, tileKey } from '../../domain/log/tiles.js';
import type { LogTileStore } from '../ports/log-tile-store.js';
import type { SequencedLeaves } from '../ports/sequenced-leaves.js';
import type { LogMaintenanceFailure } from './log-failures.js';

export interface IntegrationResult {
  readonly fromSize: number;
  readonly toSize: number;
}

/**
 * Hashes newly sequenced leaves into the stored tiles: reads the partial tiles of the right
 * edge and the new leaves, and writes the tiles that changed together with the new size, in
 * one atomic step that fails if another integrator moved the size first. A crash before that
 * step leaves the old size and its tiles; after it, the new ones: never half of each.
 */
export class IntegrateLeaves {
  constructor(
    private readonly tiles: LogTileStore,
    private readonly leaves: SequencedLeaves,
    private readonly sha: Sha256,
    /** Most leaves per step, to bound one transaction; a backlog takes several steps. */
    private readonly maxLeaves = 65_536,
  ) {}

  async execute(): Promise<E.Either<LogMaintenanceFailure, IntegrationResult>> {
    const fromSize = await this.tiles.integratedSize();
    const sequenced = await this.leaves.count();
    const toSize = Math.min(sequenced, fromSize + this.maxLeaves);
    if (toSize <= fromSize) return E.right({ fromSize, toSize: fromSize });
    const edgeIds = partialTiles(fromSize);
    const [rows, data] = await Promise.all([this.tiles.readTiles(edgeIds), this.leaves.read(fromSize, toSize)]);
    if (data.length !== toSize - fromSize) throw new Error(`asked for leaves ${fromSize}–${toSize - 1}, got ${data.length}`);
    const edge = edgeIds.map((id, i) => {
      const row = rows[i];
      if (!row) throw new Error(`tile ${tileKey(id)} of the tree's right edge is missing at size ${fromSize}`);
      return { level: id.level, index: id.index, hashes: row };
    });
    const changed = appendToTiles(
      this.sha,
      fromSize,
      edge,
      data.map((d) => leafHash(this.sha, d)),
    );
    const moved = await this.tiles.integrate(fromSize, toSize, changed);
    return moved ? E.right({ fromSize, toSize }) : E.left({ _tag: 'IntegrationRaced', fromSize });
  }
}
