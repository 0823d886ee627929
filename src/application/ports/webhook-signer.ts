/** Standard Webhooks signing: the `webhook-signature` header, one `v1,` signature per secret. */
export interface WebhookSigner {
  header(secrets: readonly string[], id: string, timestampS: number, body: string): string;
}
