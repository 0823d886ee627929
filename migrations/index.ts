import type { Knex } from 'knex';
import * as proofs001 from './001_proofs.js';

/**
 * Every migration, in order. Imported explicitly rather than found by globbing the directory,
 * so the same list works from source (tsx, `.ts`) and after `tsc` (`.js`) with no
 * file-extension guessing. Append new migrations at the end; never rename or reorder one
 * that has shipped (knex_migrations records them by name).
 */
export const migrations: ReadonlyArray<{ readonly name: string; readonly migration: Knex.Migration }> = [
  { name: '001_proofs', migration: proofs001 },
];
