import type { OpenApiDocument, Schema } from './openapi.js';
import { resolve } from './openapi.js';

/** A schema as a nested list a person reads: each member with its type, whether it is required, its limits and its description. */
export function SchemaTree({ doc, schema }: { doc: OpenApiDocument; schema: Schema }) {
  return (
    <div class="schema-tree">
      <SchemaNode doc={doc} raw={schema} seen={[]} />
    </div>
  );
}

const refName = (raw: unknown): string | null => {
  const ref = (raw as Schema | undefined)?.['$ref'];
  return typeof ref === 'string' ? ref.slice(ref.lastIndexOf('/') + 1) : null;
};

const typeOf = (s: Schema): string | undefined => (Array.isArray(s['type']) ? (s['type'] as string[]).join(' or ') : (s['type'] as string | undefined));

/** "string", "array of objects", "integer or null": what a reader needs before the members. */
function typeLabel(doc: OpenApiDocument, s: Schema): string {
  if ('const' in s) return `always ${JSON.stringify(s['const'])}`;
  if (s['anyOf'] || s['oneOf']) return 'one of';
  const type = typeOf(s);
  if (type === 'array') {
    const items = resolve(doc, s['items']);
    const inner = typeOf(items) ?? (items['anyOf'] || items['oneOf'] ? 'values of several kinds' : 'values');
    return `array of ${inner === 'object' ? 'objects' : inner}`;
  }
  if (type) return s['format'] ? `${type} (${String(s['format'])})` : type;
  if (s['properties']) return 'object';
  return 'any value';
}

/** minimum, maxLength, pattern, enum…: the limits the service checks, as short phrases. */
function limits(s: Schema): string[] {
  const out: string[] = [];
  if (Array.isArray(s['enum'])) out.push(`one of ${s['enum'].map((v) => JSON.stringify(v)).join(', ')}`);
  const pairs: [string, string][] = [
    ['minimum', '≥'],
    ['exclusiveMinimum', '>'],
    ['maximum', '≤'],
    ['exclusiveMaximum', '<'],
    ['minLength', 'length ≥'],
    ['maxLength', 'length ≤'],
    ['minItems', 'items ≥'],
    ['maxItems', 'items ≤'],
  ];
  for (const [key, words] of pairs) if (typeof s[key] === 'number') out.push(`${words} ${String(s[key])}`);
  if (typeof s['pattern'] === 'string') out.push(`matches ${s['pattern']}`);
  if ('default' in s) out.push(`default ${JSON.stringify(s['default'])}`);
  return out;
}

/** The other member of a union of one schema and null, else null. */
function nullableOf(doc: OpenApiDocument, s: Schema): unknown {
  const union = (s['anyOf'] ?? s['oneOf']) as unknown[] | undefined;
  if (!union || union.length !== 2) return null;
  const others = union.filter((m) => resolve(doc, m)['type'] !== 'null');
  return others.length === 1 && s['description'] === undefined ? others[0] : null;
}

function SchemaNode({ doc, raw, seen, orNull }: { doc: OpenApiDocument; raw: unknown; seen: readonly string[]; orNull?: boolean }) {
  const name = refName(raw);
  // A schema that contains itself is shown once; the inner mention names it.
  if (name && seen.includes(name)) return <span class="schema-type">{name} (as above)</span>;
  const path = name ? [...seen, name] : seen;
  const s = resolve(doc, raw);
  // "string or null" reads better than a two-member union.
  const nullable = nullableOf(doc, s);
  if (nullable) return <SchemaNode doc={doc} raw={nullable} seen={path} orNull />;
  const description = typeof s['description'] === 'string' ? s['description'] : null;
  const type = typeOf(s);
  const props = Object.entries((s['properties'] as Record<string, unknown> | undefined) ?? {});
  const required = new Set((s['required'] as string[] | undefined) ?? []);
  const union = (s['anyOf'] ?? s['oneOf']) as unknown[] | undefined;
  const items = type === 'array' ? resolve(doc, s['items']) : null;
  const extra = s['additionalProperties'];
  return (
    <>
      <span class="schema-type">
        {typeLabel(doc, s)}
        {orNull ? ' or null' : ''}
      </span>
      {limits(s).map((l) => (
        <span key={l} class="schema-limit">
          {l}
        </span>
      ))}
      {description ? <span class="schema-description">{description}</span> : null}
      {props.length > 0 ? (
        <ul class="schema-members">
          {props.map(([key, value]) => (
            <li key={key}>
              <code class="schema-name">{key}</code>
              {required.has(key) ? <span class="schema-required">required</span> : null}
              <SchemaNode doc={doc} raw={value} seen={path} />
            </li>
          ))}
        </ul>
      ) : null}
      {extra && typeof extra === 'object' ? (
        <ul class="schema-members">
          <li>
            <code class="schema-name">{'{any name}'}</code>
            <SchemaNode doc={doc} raw={extra} seen={path} />
          </li>
        </ul>
      ) : null}
      {union ? (
        <ol class="schema-members">
          {union.map((member, i) => (
            <li key={i}>
              <SchemaNode doc={doc} raw={member} seen={path} />
            </li>
          ))}
        </ol>
      ) : null}
      {items && (items['properties'] || items['anyOf'] || items['oneOf'] || items['items']) ? (
        <ul class="schema-members">
          <li>
            <span class="schema-name">each item</span>
            <SchemaNode doc={doc} raw={s['items']} seen={path} />
          </li>
        </ul>
      ) : null}
    </>
  );
}
