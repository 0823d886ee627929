/** One signed webhook, ready to send: the body is sent byte for byte as given, since the signature covers it. */
export interface WebhookRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What one attempt came to. statusCode null when no response arrived (refused address, DNS failure, connect error, timeout). */
export interface WebhookResponse {
  readonly statusCode: number | null;
  readonly latencyMs: number;
  /** A short sentence saying why the attempt failed (`answered 500`, `timed out after 15 s`); null for any 2xx. */
  readonly error: string | null;
  /** The start of the response body, at most the transport's cap, as UTF-8 text (lossy). */
  readonly bodyExcerpt: string;
}

/**
 * Sends webhooks to receivers the registry does not control. It never throws: every failure,
 * refused addresses included, comes back as a WebhookResponse, so a delivery loop can record
 * it and decide on a retry. A redirect is a failure and is never followed.
 */
export interface WebhookTransport {
  post(request: WebhookRequest): Promise<WebhookResponse>;
  /** Closes the kept-alive connections; no post may follow. */
  close(): Promise<void>;
}
