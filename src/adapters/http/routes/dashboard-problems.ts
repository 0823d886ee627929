import type { SeriesFailure } from '../../../application/dashboard/get-activity-series.js';
import type { StatisticsFailure } from '../../../application/dashboard/get-statistics.js';
import { HttpError } from '../http-error.js';

/** Every business failure of the dashboard's use cases, to its status: one exhaustive switch. */
export function dashboardProblem(e: SeriesFailure): HttpError {
  switch (e._tag) {
    case 'NotYourWallet':
      return new HttpError(403, 'statistics are only available for your own wallet', { code: 'forbidden_wallet' });
    case 'EmptyWindow':
      return new HttpError(422, 'to must be later than from', { code: 'validation_error', path: 'to' });
    case 'TooManyPoints':
      return new HttpError(422, `the window holds ${e.points} buckets; at most ${e.max} (use bucket=day or a shorter window)`, {
        code: 'too_many_points',
        path: 'from',
      });
  }
}

/** The statistics' business failures, to their status. */
export function statisticsProblem(e: StatisticsFailure): HttpError {
  switch (e._tag) {
    case 'NotYourWallet':
    case 'EmptyWindow':
      return dashboardProblem(e);
    case 'WindowConflict':
      return new HttpError(422, 'give either range or from and to, not both', { code: 'validation_error', path: 'range' });
    case 'WindowIncomplete':
      return new HttpError(422, `a custom window needs both from and to; ${e.missing} is missing`, { code: 'validation_error', path: e.missing });
    case 'WindowTooLong':
      return new HttpError(422, `the window spans ${e.days} days; at most ${e.maxDays}`, { code: 'validation_error', path: 'from' });
  }
}
