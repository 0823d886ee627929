import type { LogTileStore } from '../../application/ports/log-tile-store.js';
import type { TileContent } from '../../domain/log/append-to-tiles.js';
import { tileKey, type TileId } from '../../domain/log/tiles.js';
import type { Database } from './database.js';
import { ensureLogState, LOG_STATE_ID, safeNumber } from './knex-log-state.js';

const TILES_PER_STATEMENT = 200;

interface TileRow {
  readonly level: number | string;
  readonly tile_index: number | string;
  readonly hashes: Uint8Array;
}

/**
 * The log's tiles in `log_tiles`, and the size they describe in `log_state`. An integration
 * moves the size with a compare-and-set (`update … where integrated_size = from`) that is the
 * transaction's first change: on PostgreSQL a concurrent one waits for it and then matches no
 * row; on SQLite it holds the write lock. Tiles are written in the same transaction, so a
 * crash leaves the old size with its tiles, or the new one with its own.
 */
export class KnexLogTileStore implements LogTileStore {
  constructor(private readonly db: Pick<Database, 'knex'>) {}

  async integratedSize(): Promise<number> {
    const row = (await this.db.knex('log_state').select('integrated_size').where('id', LOG_STATE_ID).first()) as
      { integrated_size: number | string } | undefined;
    return row ? safeNumber(row.integrated_size, 'log_state.integrated_size') : 0;
  }

  async readTiles(ids: readonly TileId[]): Promise<Array<Uint8Array | null>> {
    const found = new Map<string, Uint8Array>();
    for (let i = 0; i < ids.length; i += TILES_PER_STATEMENT) {
      const chunk = ids.slice(i, i + TILES_PER_STATEMENT);
      const rows: TileRow[] = await this.db
        .knex('log_tiles')
        .select('level', 'tile_index', 'hashes')
        .whereIn(
          ['level', 'tile_index'],
          chunk.map((id) => [id.level, id.index]),
        );
      for (const r of rows) found.set(tileKey({ level: Number(r.level), index: Number(r.tile_index) }), new Uint8Array(r.hashes));
    }
    return ids.map((id) => found.get(tileKey(id))?.slice() ?? null);
  }

  integrate(fromSize: number, toSize: number, tiles: readonly TileContent[]): Promise<boolean> {
    return this.db.knex.transaction(async (trx) => {
      await ensureLogState(trx);
      const moved = await trx('log_state').where({ id: LOG_STATE_ID, integrated_size: fromSize }).update({ integrated_size: toSize });
      if (moved !== 1) return false;
      for (let i = 0; i < tiles.length; i += TILES_PER_STATEMENT) {
        const rows = tiles.slice(i, i + TILES_PER_STATEMENT).map((t) => ({ level: t.level, tile_index: t.index, hashes: Buffer.from(t.hashes) }));
        await trx('log_tiles').insert(rows).onConflict(['level', 'tile_index']).merge(['hashes']);
      }
      return true;
    });
  }
}
