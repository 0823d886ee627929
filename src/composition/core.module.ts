import { availableParallelism } from 'node:os';
import { ContainerModule } from 'inversify';
import { HttpMetrics } from '../adapters/http/http-metrics.js';
import { SystemClock } from '../adapters/system-clock.js';
import { helperNiceFor } from '../adapters/workers/thread-priority.js';
import type { Config } from '../config.js';
import { CORE } from './core.tokens.js';
import { provide } from './token.js';

/** The defaults every slice shares, each made once: the clock and the Prometheus metrics. */
export const coreModule = new ContainerModule(({ bind }) => {
  provide(bind, CORE.Clock, [], () => new SystemClock());
  provide(bind, CORE.Metrics, [], () => new HttpMetrics());
});

/** How far below the event loop every other thread of the registry runs (HELPER_THREAD_NICE; see thread-priority.ts). */
export const helperNice = (config: Config): number => helperNiceFor(config.helperThreadNice, availableParallelism());
