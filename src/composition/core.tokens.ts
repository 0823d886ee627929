import type { Logger } from 'pino';
import type { HttpMetrics } from '../adapters/http/http-metrics.js';
import type { Database } from '../adapters/sql/database.js';
import type { Clock } from '../application/ports/clock.js';
import type { Config } from '../config.js';
import type { Lifecycle } from './lifecycle.js';
import { token } from './token.js';

/** What every slice may use: made by the root (configuration, log, database, lifecycle) or by the core module. */
export const CORE = {
  Config: token<Config>('Config'),
  Logger: token<Logger>('Logger'),
  Database: token<Database>('Database'),
  Lifecycle: token<Lifecycle>('Lifecycle'),
  Clock: token<Clock>('Clock'),
  Metrics: token<HttpMetrics>('Metrics'),
} as const;
