import type { ProofNotFound } from '../../../application/proofs/get-proof.js';
import type { SearchFailure } from '../../../application/proofs/search-proofs.js';
import { describeUnstorable, type UnstorableProof } from '../../../domain/proof/proof-record.js';
import { checkOf, describeFailure, failureCode, type ProofFailure } from '../../../domain/protocol/failures.js';
import type { RobotNotAllowed } from '../../../domain/identity/key-grant.js';
import { robotProblem } from '../auth-problems.js';
import { HttpError } from '../http-error.js';

/** Every business failure of the proof use cases. */
export type ProofsFailure = ProofFailure | UnstorableProof | ProofNotFound | SearchFailure | RobotNotAllowed;

/**
 * Each failure to its status, in one switch: a proof that fails verification is 422 naming
 * the check, with its tag in snake_case as the code (failureCode, as in the verification
 * report and the proof.rejected event); one that verifies but is not stored is still the
 * client's to fix, so 422 as well. A new failure of another kind that gets no case here does
 * not compile, as the default case takes only verification failures.
 */
export function proofProblem(e: ProofsFailure): HttpError {
  switch (e._tag) {
    case 'ProofNotFound':
      return new HttpError(404, `proof ${e.proofId} not found`, { code: 'not_found' });
    case 'InvalidCursor':
      return new HttpError(422, 'cursor is not one this service issued', { code: 'invalid_cursor' });
    case 'CursorOfOtherQuery':
      return new HttpError(422, 'cursor belongs to a list with another order or other filters; page on with the same ones, or start again without a cursor', {
        code: 'invalid_cursor',
      });
    case 'InvalidRange':
      return new HttpError(422, e.detail, { code: 'validation_error' });
    case 'RobotNotAllowed':
      return robotProblem(e);
    case 'UnstorableProof':
      return new HttpError(422, `proof not stored: ${describeUnstorable(e)}`, {
        code: failureCode(e._tag),
        path: e.path,
        ...(e.problem === 'too_long' && { max: e.max }),
      });
    default:
      return new HttpError(422, `invalid proof: ${describeFailure(e)}`, { code: failureCode(e._tag), check: checkOf(e) });
  }
}
