/**
 * What the API reference reads of an OpenAPI 3.1 document: operations grouped by tag, their
 * parameters, bodies and responses, with `$ref`s resolved against the same document. The
 * documents are this service's own (GET /openapi.json and /acto/openapi.json); nothing in them
 * is ever rendered as markup, only as text.
 */
export type Schema = { readonly [key: string]: unknown };
export type OpenApiDocument = {
  readonly info?: { readonly title?: string; readonly version?: string; readonly description?: string };
  readonly tags?: readonly { readonly name: string; readonly description?: string }[];
  readonly paths?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly components?: Schema;
};

/** The two documents the service serves, by the name the page's switch uses. */
export const DOCUMENTS = {
  v1: { url: '/openapi.json', label: '/v1', title: 'Proof Registry API (/v1)' },
  acto: { url: '/acto/openapi.json', label: '/acto', title: 'ACTO personality (/acto)' },
} as const;
export type DocumentName = keyof typeof DOCUMENTS;

export interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  readonly required: boolean;
  readonly description?: string;
  readonly schema: Schema;
}

export interface Response {
  readonly status: string;
  readonly description: string;
  readonly mediaType: string | null;
  readonly schema: Schema | null;
}

export interface Operation {
  /** Unique in its document: `get /v1/fleet`. */
  readonly key: string;
  readonly method: string;
  readonly path: string;
  readonly operationId?: string;
  readonly summary: string;
  readonly description?: string;
  readonly tag: string;
  readonly parameters: readonly Parameter[];
  readonly body: Schema | null;
  readonly responses: readonly Response[];
  /** The API key scope it needs; null: any key; undefined: no key is taken (a dashboard token, or no credential). */
  readonly scope: string | null | undefined;
  /** How it may be called: no credential, a dashboard token only, or an API key or a dashboard token. */
  readonly auth: 'none' | 'jwt' | 'api_key';
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Follows a local `$ref` (`#/components/schemas/X`); an unknown one resolves to an empty schema. */
export function resolve(doc: OpenApiDocument, value: unknown): Schema {
  let node = value as Schema | undefined;
  for (let hops = 0; node && typeof node['$ref'] === 'string' && hops < 32; hops++) {
    const ref = node['$ref'];
    if (!ref.startsWith('#/')) return {};
    node = ref
      .slice(2)
      .split('/')
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((at, key) => (at && typeof at === 'object' ? (at as Schema)[key] : undefined), doc) as Schema | undefined;
  }
  return node && typeof node === 'object' ? node : {};
}

function jsonContent(doc: OpenApiDocument, content: unknown): { mediaType: string; schema: Schema | null } | null {
  if (!content || typeof content !== 'object') return null;
  const entries = Object.entries(content as Record<string, Schema>);
  const chosen = entries.find(([type]) => type.includes('json')) ?? entries[0];
  if (!chosen) return null;
  return { mediaType: chosen[0], schema: chosen[1]['schema'] === undefined ? null : resolve(doc, chosen[1]['schema']) };
}

/** Every operation of the document, in the order of its paths. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method] as Schema | undefined;
      if (!op) continue;
      const params = [...((item['parameters'] as unknown[]) ?? []), ...((op['parameters'] as unknown[]) ?? [])].map((p) => resolve(doc, p));
      const security = (op['security'] as readonly Schema[] | undefined) ?? [];
      const body = resolve(doc, op['requestBody']);
      out.push({
        key: `${method} ${path}`,
        method,
        path,
        ...(typeof op['operationId'] === 'string' ? { operationId: op['operationId'] } : {}),
        summary: typeof op['summary'] === 'string' ? op['summary'] : '',
        ...(typeof op['description'] === 'string' ? { description: op['description'] } : {}),
        tag: ((op['tags'] as string[] | undefined) ?? [])[0] ?? 'other',
        parameters: params.map((p) => ({
          name: String(p['name']),
          in: p['in'] as Parameter['in'],
          required: p['required'] === true,
          ...(typeof p['description'] === 'string' ? { description: p['description'] } : {}),
          schema: resolve(doc, p['schema']),
        })),
        body: jsonContent(doc, body['content'])?.schema ?? null,
        responses: Object.entries((op['responses'] as Record<string, unknown> | undefined) ?? {}).map(([status, r]) => {
          const res = resolve(doc, r);
          const content = jsonContent(doc, res['content']);
          return { status, description: String(res['description'] ?? ''), mediaType: content?.mediaType ?? null, schema: content?.schema ?? null };
        }),
        scope: 'x-required-scope' in op ? (op['x-required-scope'] as string | null) : undefined,
        auth: security.length === 0 ? 'none' : security.some((s) => 'apiKey' in s) ? 'api_key' : 'jwt',
      });
    }
  }
  return out;
}

/** Operations by tag, tags in the document's order (then any others as they come). */
export function byTag(doc: OpenApiDocument, ops: readonly Operation[]): { tag: string; operations: Operation[] }[] {
  const order = (doc.tags ?? []).map((t) => t.name);
  for (const op of ops) if (!order.includes(op.tag)) order.push(op.tag);
  return order.map((tag) => ({ tag, operations: ops.filter((o) => o.tag === tag) })).filter((g) => g.operations.length > 0);
}

/**
 * A value to start a body from: the schema's own example when it has one, else one made from
 * its shape (required members only, the first choice of a union, a field's minimum).
 */
export function exampleOf(doc: OpenApiDocument, schema: unknown, depth = 0): unknown {
  const s = resolve(doc, schema);
  if ('example' in s) return s['example'];
  if (Array.isArray(s['examples']) && s['examples'].length > 0) return s['examples'][0];
  if ('default' in s) return s['default'];
  if ('const' in s) return s['const'];
  if (Array.isArray(s['enum'])) return s['enum'][0];
  if (depth > 6) return null;
  const union = (s['anyOf'] ?? s['oneOf']) as unknown[] | undefined;
  if (union?.length) return exampleOf(doc, union.find((m) => resolve(doc, m)['type'] !== 'null') ?? union[0], depth + 1);
  if (Array.isArray(s['allOf'])) return Object.assign({}, ...s['allOf'].map((m) => exampleOf(doc, m, depth + 1)));
  const type = Array.isArray(s['type']) ? (s['type'] as string[]).find((t) => t !== 'null') : s['type'];
  switch (type) {
    case 'object': {
      const required = new Set((s['required'] as string[] | undefined) ?? []);
      const props = Object.entries((s['properties'] as Record<string, unknown> | undefined) ?? {});
      return Object.fromEntries(props.filter(([k]) => required.has(k)).map(([k, v]) => [k, exampleOf(doc, v, depth + 1)]));
    }
    case 'array':
      return s['items'] === undefined ? [] : [exampleOf(doc, s['items'], depth + 1)];
    case 'integer':
    case 'number':
      return typeof s['minimum'] === 'number' ? s['minimum'] : 0;
    case 'boolean':
      return false;
    case 'string':
      return s['format'] === 'date-time' ? new Date(0).toISOString() : '';
    default:
      return null;
  }
}
