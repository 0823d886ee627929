import { openApiDocument, type WebhookDoc } from './openapi/openapi-document.js';
import type { AnyRoute } from './route.js';

/**
 * Every route the app serves, in the order they were added (the router's and the OpenAPI
 * document's), and that document, made once when first asked for.
 */
export class RouteCatalog {
  private readonly all: AnyRoute[] = [];
  private readonly webhooks: WebhookDoc[] = [];
  private document: unknown;

  constructor(private readonly info: { readonly version: string; readonly serverUrl?: string }) {}

  add(routes: readonly AnyRoute[]): void {
    this.all.push(...routes);
    this.document = undefined;
  }

  get routes(): readonly AnyRoute[] {
    return this.all;
  }

  /** A request the service sends to its users' endpoints, described beside the routes. */
  addWebhook(webhook: WebhookDoc): void {
    this.webhooks.push(webhook);
    this.document = undefined;
  }

  openApi(): unknown {
    return (this.document ??= openApiDocument(this.all, this.info, this.webhooks));
  }
}
