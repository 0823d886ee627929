import type { SeriesFailure } from '../../../application/dashboard/get-activity-series.js';
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
