import { openApiDocument } from './openapi/openapi-document.js';
import type { AnyRoute } from './route.js';

/**
 * Every route the app serves, in the order they were added (the router's and the OpenAPI
 * document's), and that document, made once when first asked for.
 */
export class RouteCatalog {
  private readonly all: AnyRoute[] = [];
  private document: unknown;

  constructor(private readonly info: { readonly version: string; readonly serverUrl?: string }) {}

  add(routes: readonly AnyRoute[]): void {
    this.all.push(...routes);
    this.document = undefined;
  }

  get routes(): readonly AnyRoute[] {
    return this.all;
  }

  openApi(): unknown {
    return (this.document ??= openApiDocument(this.all, this.info));
  }
}
