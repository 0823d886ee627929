import * as E from 'fp-ts/lib/Either.js';

/** An error with an HTTP status and a sentence for the client: the only kind that reaches the wire. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly extra: Readonly<Record<string, unknown>> = {},
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    // An answer for the client, not a fault: nothing logs where it was thrown, and capturing
    // the stack was the costliest single step of refusing a request (a 401, 403 or 429).
    const depth = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(detail);
    Error.stackTraceLimit = depth;
    this.name = 'HttpError';
  }
}

/**
 * A use case's answer for a route: its result, or its failure thrown as the HTTP error the
 * route family's one exhaustive mapping (`*-problems.ts`) makes of it.
 */
export function orProblem<F, A>(result: E.Either<F, A>, problem: (failure: F) => HttpError): A {
  if (E.isLeft(result)) throw problem(result.left);
  return result.right;
}
