/** An error with an HTTP status and a sentence for the client: the only kind that reaches the wire. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly extra: Readonly<Record<string, unknown>> = {},
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(detail);
    this.name = 'HttpError';
  }
}

export const problem = (status: number, detail: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  new HttpError(status, detail, extra, headers);
