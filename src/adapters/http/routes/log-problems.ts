import type { LogQueryFailure } from '../../../application/log/log-failures.js';
import { HttpError } from '../http-error.js';
import { errorResponses } from './error-responses.js';

/** Every failure of the log's queries, to its status: one exhaustive switch. */
export function logProblem(e: LogQueryFailure): HttpError {
  switch (e._tag) {
    case 'NotInLog':
      return new HttpError(
        404,
        'this proof is not in the log yet: no published checkpoint covers it (the next one will, within LOG_CHECKPOINT_INTERVAL_MS of its acceptance)',
        { code: 'not_in_log' },
      );
    case 'TreeSizeOutOfRange':
      return new HttpError(422, e.detail, { code: 'invalid_tree_size' });
    case 'TileNotFound':
      return new HttpError(404, 'no such tile in the published tree', { code: 'tile_not_found' });
    case 'NoCheckpoint':
      return new HttpError(503, 'the log has not published its first checkpoint yet', { code: 'log_starting' }, { 'Retry-After': '1' });
  }
}

/** What the log's error statuses mean, for the OpenAPI document. */
export const errors = errorResponses({
  404: 'Not in the log: no published checkpoint covers this proof or tile yet.',
  422: 'A tree size outside what the latest checkpoint allows, or a malformed parameter.',
  503: 'The log has not published its first checkpoint yet, or the database is down; see Retry-After.',
});
