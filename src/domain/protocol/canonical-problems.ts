/**
 * Why a value has no canonical JSON form (CanonicalJson gave null), named at the first place
 * it happens, so that a failure can say which member to fix. Members are visited in canonical
 * order (names sorted by UTF-16 code units), as CanonicalJson writes them, and a member whose
 * value is `undefined` is skipped as it skips it.
 *
 * Over the wire the usual cause is a number beyond the range of a double: JSON.parse turns
 * `1e400` into Infinity, which JSON cannot write back. The other is a string, or a member
 * name, holding a lone UTF-16 surrogate (`"\ud800"` is valid JSON text), which has no UTF-8
 * bytes to hash. The rest can only come from code that builds values by hand.
 */
export interface CanonicalProblem {
  readonly path: string;
  readonly problem: string;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

const memberPath = (path: string, name: string): string => (IDENTIFIER.test(name) ? `${path}.${name}` : `${path}[${JSON.stringify(name)}]`);

/** The first reason `value` (found at `path`) has no canonical JSON form, or null if none is found. */
export function canonicalProblem(value: unknown, path: string): CanonicalProblem | null {
  return visit(value, path, new Set());
}

const notJson = (path: string, what: string): CanonicalProblem => ({ path, problem: `is ${what}, which JSON cannot represent` });

function visit(value: unknown, path: string, open: Set<object>): CanonicalProblem | null {
  switch (typeof value) {
    case 'number':
      if (Number.isFinite(value)) return null;
      return Number.isNaN(value)
        ? notJson(path, 'NaN')
        : { path, problem: 'is a number beyond the range of an IEEE 754 double (it reads as Infinity), which has no JSON form' };
    case 'string':
      return LONE_SURROGATE.test(value) ? { path, problem: 'is a string with a lone surrogate, which has no canonical JSON form' } : null;
    case 'boolean':
      return null;
    case 'bigint':
      return notJson(path, 'a BigInt');
    case 'object':
      if (value === null) return null;
      if (open.has(value)) return { path, problem: 'refers back to an enclosing value (a cycle), which JSON cannot represent' };
      open.add(value);
      try {
        return Array.isArray(value) ? visitArray(value, path, open) : visitObject(value, path, open);
      } finally {
        open.delete(value);
      }
    default:
      return notJson(path, value === undefined ? 'undefined' : `a ${typeof value}`);
  }
}

function visitArray(array: readonly unknown[], path: string, open: Set<object>): CanonicalProblem | null {
  if (Object.getPrototypeOf(array) !== Array.prototype) return notJson(path, 'an array of a class of its own');
  for (let i = 0; i < array.length; i++) {
    const found = i in array ? visit(array[i], `${path}[${i}]`, open) : notJson(`${path}[${i}]`, 'a hole in an array');
    if (found) return found;
  }
  return null;
}

function visitObject(object: object, path: string, open: Set<object>): CanonicalProblem | null {
  const proto: unknown = Object.getPrototypeOf(object);
  if (proto !== Object.prototype && proto !== null) return notJson(path, 'an object that is not a plain one (a Date, a Map, an instance of a class)');
  const record = object as Record<string, unknown>;
  for (const name of Object.keys(record).sort()) {
    const member = record[name];
    if (member === undefined) continue;
    if (LONE_SURROGATE.test(name))
      return { path, problem: `has a member name with a lone surrogate (${JSON.stringify(name)}), which has no canonical JSON form` };
    const found = visit(member, memberPath(path, name), open);
    if (found) return found;
  }
  return null;
}
