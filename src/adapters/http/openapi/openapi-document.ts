import type * as t from 'io-ts';
import { ROBOT_SCOPES, SCOPES } from '../../../domain/identity/key-grant.js';
import { ErrorBody } from '../codecs/common.codecs.js';
import type { AnyRoute } from '../route.js';
import { schemaOf, type JsonSchema } from './codec-schema.js';

const WALLET_HEADER = {
  name: 'X-Wallet-Address',
  in: 'header',
  required: true,
  description: "The caller's wallet (base58). Must equal the credential's wallet; it scopes every read and write.",
  schema: { type: 'string' },
};

/** A request the service sends (OpenAPI 3.1 `webhooks`): what a receiver gets. */
export interface WebhookDoc {
  readonly name: string;
  readonly summary: string;
  readonly description: string;
  readonly body: t.Mixed;
  readonly headers: Readonly<Record<string, string>>;
  readonly responses: Readonly<Record<string, string>>;
}

/** The OpenAPI 3.1 document, generated from the same route specs and codecs that serve requests. */
export function openApiDocument(
  routes: readonly AnyRoute[],
  info: { version: string; serverUrl?: string; title?: string; description?: string },
  webhooks: readonly WebhookDoc[] = [],
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const path = r.path.replace(/\{([^}*]+)\*\}/g, '{$1}');
    paths[path] ??= {};
    paths[path]![r.method] = operation(r);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: info.title ?? 'Proof Registry',
      version: info.version,
      description:
        info.description ??
        'Registry of signed execution proofs from robots and other devices: submit, verify, search and score proofs, and manage fleets. Every authenticated request carries X-Wallet-Address; data is scoped to that wallet.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    ...(info.serverUrl ? { servers: [{ url: info.serverUrl }] } : {}),
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    ...(webhooks.length > 0 ? { webhooks: Object.fromEntries(webhooks.map((w) => [w.name, { post: webhookOperation(w) }])) } : {}),
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: `An API key created at POST /v1/keys. A key holds scopes (${SCOPES.join(', ')}); each operation lists the one it needs in its security requirement and in x-required-scope (null: any key).`,
        },
        walletJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A dashboard token from wallet sign-in (POST /v1/auth/wallet/verify).' },
      },
    },
  };
}

function operation(r: AnyRoute): Record<string, unknown> {
  const parameters: unknown[] = [];
  for (const name of [...r.path.matchAll(/\{([^}*]+)\*?\}/g)].map((m) => m[1]!)) {
    parameters.push({ name, in: 'path', required: true, schema: propertySchema(r.params, name) });
  }
  if (r.query) {
    const schema = schemaOf(r.query);
    const required = new Set((schema['required'] as string[] | undefined) ?? []);
    for (const [name, s] of Object.entries((schema['properties'] as Record<string, JsonSchema> | undefined) ?? {})) {
      parameters.push({ name, in: 'query', required: required.has(name), schema: s });
    }
  }
  if (r.auth !== 'none') parameters.push(WALLET_HEADER);
  const scoped = r.auth === 'api_key' && r.scope !== undefined && r.scope !== 'any';
  return {
    operationId: r.operationId,
    summary: r.summary,
    ...(r.description ? { description: r.description } : {}),
    tags: [r.tag],
    // OpenAPI 3.1 lets a bearer scheme's requirement list roles: the key's scope goes there.
    security: r.auth === 'none' ? [] : r.auth === 'jwt' ? [{ walletJwt: [] }] : [{ apiKey: scoped ? [r.scope] : [] }, { walletJwt: [] }],
    ...(r.auth === 'api_key' ? { 'x-required-scope': scoped ? r.scope : null } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(r.body ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(r.body) } } } } : {}),
    responses: Object.fromEntries(
      Object.entries(withScopeRefusal(r, withBadRequest(r))).map(([status, spec]) => [
        status,
        {
          description: spec.description,
          ...(spec.body || spec.mediaType || spec.mediaTypes
            ? {
                content: {
                  ...(spec.body ? { [spec.mediaType ?? 'application/json']: { schema: schemaOf(spec.body) } } : {}),
                  ...(spec.mediaType && !spec.body ? { [spec.mediaType]: { schema: { type: 'string' } } } : {}),
                  ...Object.fromEntries(
                    Object.entries(spec.mediaTypes ?? {}).map(([type, description]) => [type, { schema: { type: 'string', description } }]),
                  ),
                },
              }
            : {}),
          ...(spec.headers
            ? { headers: Object.fromEntries(Object.entries(spec.headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }])) }
            : {}),
        },
      ]),
    ),
  };
}

/**
 * Every route answers 400 to a query parameter given twice, and one with a path parameter to a
 * broken percent-escape in it: documented where the route's own responses do not say 400.
 */
function withBadRequest(r: AnyRoute): AnyRoute['responses'] {
  if (400 in r.responses) return r.responses;
  const description = r.path.includes('{')
    ? 'A path segment with a broken percent-escape, or a query parameter given twice.'
    : 'A query parameter given twice, or one with a broken percent-escape.';
  return { ...r.responses, 400: { description, body: ErrorBody } };
}

/** A route that needs a scope answers 403 `insufficient_scope` to a key without it: said in its 403. */
function withScopeRefusal(r: AnyRoute, responses: AnyRoute['responses']): AnyRoute['responses'] {
  if (r.auth !== 'api_key' || r.scope === undefined || r.scope === 'any') return responses;
  const bound = ROBOT_SCOPES.includes(r.scope) ? ' A key bound to robots, for a robot not its own (code robot_not_allowed, robot_id named).' : '';
  const refusal = `An API key without the scope \`${r.scope}\` (code insufficient_scope).${bound}`;
  const forbidden = responses[403];
  return { ...responses, 403: { description: forbidden ? `${forbidden.description} ${refusal}` : refusal, body: forbidden?.body ?? ErrorBody } };
}

function propertySchema(codec: t.Mixed | undefined, name: string): JsonSchema {
  if (!codec) return { type: 'string' };
  const props = schemaOf(codec)['properties'] as Record<string, JsonSchema> | undefined;
  return props?.[name] ?? { type: 'string' };
}

function webhookOperation(w: WebhookDoc): Record<string, unknown> {
  return {
    summary: w.summary,
    description: w.description,
    parameters: Object.entries(w.headers).map(([name, description]) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } })),
    requestBody: { required: true, content: { 'application/json': { schema: schemaOf(w.body) } } },
    responses: Object.fromEntries(Object.entries(w.responses).map(([status, description]) => [status, { description }])),
  };
}
