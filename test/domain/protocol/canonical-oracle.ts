import assert from 'node:assert/strict';
import { CanonicalJson, canonicalText } from '../../../src/domain/protocol/canonical.js';
import { legacyCanonicalText } from './legacy-helpers.js';

/**
 * The hand-written RFC 8785 writer against the `canonicalize` package, the oracle: the same
 * text for every JSON value, and null for every value that is not JSON (which canonicalize
 * would write in ways of its own). What the canonical-fast*.test.ts files share: the oracle, and
 * one writer for many values.
 */

/** What CanonicalJson takes, written independently: JSON values, members holding undefined left out. */
export function isJsonValue(value: unknown, open = new Set<object>()): boolean {
  switch (typeof value) {
    case 'string':
      return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value);
    case 'number':
      return Number.isFinite(value);
    case 'boolean':
      return true;
    case 'object': {
      if (value === null) return true;
      if (open.has(value)) return false;
      open.add(value);
      try {
        if (Array.isArray(value)) {
          if (Object.getPrototypeOf(value) !== Array.prototype) return false;
          for (let i = 0; i < value.length; i++) if (!(i in value) || !isJsonValue(value[i], open)) return false;
          return true;
        }
        const proto: unknown = Object.getPrototypeOf(value);
        if (proto !== Object.prototype && proto !== null) return false;
        return Object.entries(value).every(([name, member]) => member === undefined || (isJsonValue(name) && isJsonValue(member, open)));
      } finally {
        open.delete(value);
      }
    }
    default:
      return false;
  }
}

/**
 * A copy of a JSON value with nothing but its JSON: canonicalize called an array's own `map`
 * and `constructor`, which a JSON value's extra members must not decide.
 */
export function jsonCopy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    for (let i = 0; i < value.length; i++) copy.push(jsonCopy(value[i]));
    return copy;
  }
  const copy: Record<string, unknown> = {};
  // defineProperty: a name "__proto__" must be a member, not the prototype.
  for (const [k, v] of Object.entries(value)) Object.defineProperty(copy, k, { value: jsonCopy(v), enumerable: true, writable: true, configurable: true });
  return copy;
}

/** What canonicalize writes for a JSON value: the oracle. */
export const oracle = (value: unknown): string | null => legacyCanonicalText(jsonCopy(value));

export const same = (value: unknown): void => assert.equal(canonicalText(value), isJsonValue(value) ? oracle(value) : null);

/** One writer for many values, as the protocol keeps one: nothing of one value may leak into the next. */
export const kept = new CanonicalJson();
