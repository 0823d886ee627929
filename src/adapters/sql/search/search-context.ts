import type { Knex } from 'knex';
import type { ProofSearchOrder } from '../proof-search-order.js';
import type { CountMemo } from './count-memo.js';
import type { SearchDialect } from './search-dialect.js';
import type { SearchTuning } from './search-tuning.js';

/** What every step of a search reads with: the database, its dialect, the list's order, the tuning and the counts known. */
export interface SearchContext {
  readonly knex: Knex;
  readonly dialect: SearchDialect;
  readonly order: ProofSearchOrder;
  readonly tuning: SearchTuning;
  readonly memo: CountMemo;
}
