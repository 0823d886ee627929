import type Koa from 'koa';
import type { AnyRoute } from '../adapters/http/route.js';
import type { GetActivitySeries } from '../application/dashboard/get-activity-series.js';
import type { GetStatistics } from '../application/dashboard/get-statistics.js';
import type { ProofBreakdownReader } from '../application/ports/proof-breakdown.js';
import type { ProofSeriesReader } from '../application/ports/usage-series.js';
import { token } from './token.js';

/** The dashboard slice: the overview's series, the page's settings, and the page itself. */
export const DASHBOARD = {
  /** A wallet's proofs per hour or day: grouped in SQL (a test with an in-memory proof store rebinds it to the memory reader). */
  ProofSeries: token<ProofSeriesReader>('dashboard.ProofSeries'),
  GetActivitySeries: token<GetActivitySeries>('dashboard.GetActivitySeries'),
  /** A wallet's proofs of a window by robot or task: grouped in SQL (rebound to the memory reader with an in-memory proof store). */
  ProofBreakdown: token<ProofBreakdownReader>('dashboard.ProofBreakdown'),
  GetStatistics: token<GetStatistics>('dashboard.GetStatistics'),
  Routes: token<readonly AnyRoute[]>('dashboard.Routes'),
  /** The web page and its assets, read into memory at start-up, served after the API's routes. */
  Page: token<Koa.Middleware>('dashboard.Page'),
} as const;
