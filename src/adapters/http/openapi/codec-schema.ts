import * as t from 'io-ts';

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it). */
export type JsonSchema = { readonly [key: string]: unknown };

const overrides = new WeakMap<t.Mixed, JsonSchema>();

const SHARED_CODECS: ReadonlySet<t.Mixed> = new Set<t.Mixed>([
  t.string,
  t.number,
  t.boolean,
  t.null,
  t.undefined,
  t.unknown,
  t.UnknownRecord,
  t.UnknownArray,
  t.Int,
]);

/**
 * Attaches the documented schema to a codec whose rule io-ts cannot express structurally
 * (a refinement, a custom type, or a raw `unknown` that a later check validates).
 */
export function documented<C extends t.Mixed>(codec: C, schema: JsonSchema): C {
  // io-ts's own codecs are shared by every schema that uses them: documenting one would
  // document them all (every t.string a date-time). A refinement gets a codec of its own.
  if (SHARED_CODECS.has(codec)) throw new Error(`documented() needs a codec of its own, not io-ts's shared ${codec.name}`);
  overrides.set(codec, schema);
  return codec;
}

/**
 * JSON Schema of an io-ts codec. The OpenAPI document is generated from the same codecs that
 * decode requests, so the two cannot drift apart.
 */
export function schemaOf(codec: t.Mixed): JsonSchema {
  const override = overrides.get(codec);
  if (override) return override;
  const type = codec as unknown as { _tag?: string };
  switch (type._tag) {
    case 'StringType':
      return { type: 'string' };
    case 'NumberType':
      return { type: 'number' };
    case 'BooleanType':
      return { type: 'boolean' };
    case 'NullType':
      return { type: 'null' };
    case 'UnknownType':
      return {};
    case 'UnknownRecordType':
    case 'AnyDictionaryType':
      return { type: 'object' };
    case 'UnknownArrayType':
    case 'AnyArrayType':
      return { type: 'array' };
    case 'LiteralType':
      return { const: (codec as unknown as t.LiteralType<string>).value };
    case 'KeyofType':
      return { type: 'string', enum: Object.keys((codec as unknown as t.KeyofType<Record<string, unknown>>).keys) };
    case 'ArrayType':
    case 'ReadonlyArrayType':
      return { type: 'array', items: schemaOf((codec as unknown as t.ArrayType<t.Mixed>).type) };
    case 'InterfaceType':
      return objectSchema((codec as unknown as t.InterfaceType<t.Props>).props, true);
    case 'PartialType':
      return objectSchema((codec as unknown as t.PartialType<t.Props>).props, false);
    case 'ExactType':
    case 'ReadonlyType':
      return schemaOf((codec as unknown as t.ExactType<t.Mixed>).type);
    case 'RefinementType':
      return schemaOf((codec as unknown as t.RefinementType<t.Mixed>).type);
    case 'IntersectionType':
      return mergeObjects((codec as unknown as t.IntersectionType<t.Mixed[]>).types.map(schemaOf));
    case 'UnionType': {
      const members = (codec as unknown as t.UnionType<t.Mixed[]>).types.map(schemaOf);
      if (members.every((m) => 'const' in m)) return { enum: members.map((m) => m['const']) };
      return { anyOf: members };
    }
    case 'DictionaryType':
      return { type: 'object', additionalProperties: schemaOf((codec as unknown as t.DictionaryType<t.Mixed, t.Mixed>).codomain) };
    default:
      throw new Error(`no JSON Schema for codec ${codec.name}; wrap it with documented()`);
  }
}

function objectSchema(props: t.Props, required: boolean): JsonSchema {
  const properties = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, schemaOf(v)]));
  return { type: 'object', properties, ...(required && Object.keys(props).length ? { required: Object.keys(props) } : {}) };
}

function mergeObjects(parts: JsonSchema[]): JsonSchema {
  if (!parts.every((p) => p['type'] === 'object' && !('additionalProperties' in p))) return { allOf: parts };
  const properties = Object.assign({}, ...parts.map((p) => p['properties'] ?? {})) as Record<string, unknown>;
  const required = parts.flatMap((p) => (p['required'] as string[] | undefined) ?? []);
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}
