import type { Knex } from 'knex';
import * as proofs001 from './001_proofs.js';
import * as identity002 from './002_identity.js';
import * as fleet003 from './003_fleet.js';
import * as walletKeys004 from './004_wallet_keys.js';
import * as earlyYears005 from './005_early_years.js';
import * as usageSeries006 from './006_usage_series.js';
import * as fleetDetails007 from './007_fleet_details_and_wallet_stats.js';
import * as transparencyLog008 from './008_transparency_log.js';
import * as revokedTokens009 from './009_revoked_tokens.js';
import * as search010 from './010_search.js';
import * as proofHours011 from './011_proof_hours.js';
import * as walletProofKeys013 from './013_wallet_proof_keys.js';
import * as narrowIndexes014 from './014_narrow_indexes.js';
import * as topicTimes015 from './015_topic_times.js';
import * as events016 from './016_events.js';
import * as keyGrants017 from './017_key_grants.js';
import * as logCosignatures018 from './018_log_cosignatures.js';

/**
 * Every migration, in order. Imported explicitly rather than found by globbing the directory,
 * so the same list works from source (tsx, `.ts`) and after `tsc` (`.js`) with no
 * file-extension guessing. Append new migrations at the end; never rename or reorder one
 * that has shipped (knex_migrations records them by name).
 */
export const migrations: ReadonlyArray<{ readonly name: string; readonly migration: Knex.Migration }> = [
  { name: '001_proofs', migration: proofs001 },
  { name: '002_identity', migration: identity002 },
  { name: '003_fleet', migration: fleet003 },
  { name: '004_wallet_keys', migration: walletKeys004 },
  { name: '005_early_years', migration: earlyYears005 },
  { name: '006_usage_series', migration: usageSeries006 },
  { name: '007_fleet_details_and_wallet_stats', migration: fleetDetails007 },
  { name: '008_transparency_log', migration: transparencyLog008 },
  { name: '009_revoked_tokens', migration: revokedTokens009 },
  { name: '010_search', migration: search010 },
  { name: '011_proof_hours', migration: proofHours011 },
  { name: '013_wallet_proof_keys', migration: walletProofKeys013 },
  { name: '014_narrow_indexes', migration: narrowIndexes014 },
  { name: '015_topic_times', migration: topicTimes015 },
  { name: '016_events', migration: events016 },
  { name: '017_key_grants', migration: keyGrants017 },
  { name: '018_log_cosignatures', migration: logCosignatures018 },
];
