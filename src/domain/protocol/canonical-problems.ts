/**
 * Why a value has no canonical JSON form (canonicalText gave null), named at the first place
 * it happens, so that a failure can say which member to fix. Members are visited in canonical
 * order (names sorted by UTF-16 code units), as canonicalText writes them, and members it
 * leaves out (undefined, functions, symbols) are skipped as it skips them.
 *
 * Over the wire the usual cause is a number beyond the range of a double: JSON.parse turns
 * `1e400` into Infinity, which JSON cannot write back. The other is a string, or a member
 * name, holding a lone UTF-16 surrogate (`"\ud800"` is valid JSON text), which has no UTF-8
 * bytes to hash.
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

function visit(value: unknown, path: string, open: Set<object>): CanonicalProblem | null {
  switch (typeof value) {
    case 'number':
      if (Number.isFinite(value)) return null;
      return {
        path,
        problem: Number.isNaN(value)
          ? 'is NaN, which JSON cannot represent'
          : 'is a number beyond the range of an IEEE 754 double (it reads as Infinity), which has no JSON form',
      };
    case 'string':
      return LONE_SURROGATE.test(value) ? { path, problem: 'is a string with a lone surrogate, which has no canonical JSON form' } : null;
    case 'bigint':
      return { path, problem: 'is a BigInt, which JSON cannot represent' };
    case 'object':
      if (value === null) return null;
      if (open.has(value)) return { path, problem: 'refers back to an enclosing value (a cycle), which JSON cannot represent' };
      open.add(value);
      try {
        if (Array.isArray(value)) {
          for (let i = 0; i < value.length; i++) {
            const found = visit(value[i], `${path}[${i}]`, open);
            if (found) return found;
          }
          return null;
        }
        const record = value as Record<string, unknown>;
        for (const name of Object.keys(record).sort()) {
          const member = record[name];
          if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
          if (LONE_SURROGATE.test(name)) return { path, problem: `has a member name with a lone surrogate (${JSON.stringify(name)}), which has no canonical JSON form` };
          const found = visit(member, memberPath(path, name), open);
          if (found) return found;
        }
        return null;
      } finally {
        open.delete(value);
      }
    default:
      return null;
  }
}
