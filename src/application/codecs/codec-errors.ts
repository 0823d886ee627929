import * as t from 'io-ts';

/**
 * Turns io-ts errors into one sentence naming the failing member by its JSON path, e.g.
 * `payload.subject.task_id is required` or `payload.telemetry_normalized.events[2].topic must
 * be a non-empty string`. Intersection and union members are not part of the path.
 */
export function firstProblem(errors: t.Errors): { path: string; problem: string } {
  const error = errors[0];
  if (!error) return { path: '(body)', problem: 'is invalid' };
  return { path: pathOf(error.context), problem: problemOf(error) };
}

export function pathOf(context: t.Context): string {
  let path = '';
  for (let i = 1; i < context.length; i++) {
    const parent = context[i - 1]!.type;
    if (parent instanceof t.IntersectionType || parent instanceof t.UnionType || parent instanceof t.RefinementType) continue;
    const key = context[i]!.key;
    if (parent instanceof t.ArrayType) path += `[${key}]`;
    else path += path === '' ? key : `.${key}`;
  }
  return path === '' ? '(body)' : path;
}

function problemOf(error: t.ValidationError): string {
  if (error.message) return error.message;
  const leaf = error.context[error.context.length - 1];
  if (!leaf) return 'is invalid';
  if (leaf.actual === undefined) return 'is required';
  const objectLike =
    leaf.type instanceof t.InterfaceType || leaf.type instanceof t.PartialType || leaf.type instanceof t.IntersectionType || leaf.type instanceof t.ExactType;
  return `must be ${objectLike ? 'an object' : describeType(leaf.type.name)} (got ${kindOf(leaf.actual)})`;
}

function describeType(name: string): string {
  switch (name) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'UnknownRecord':
      return 'an object';
    case 'UnknownArray':
      return 'an array';
    default:
      return name.startsWith('Array<') ? 'an array' : name.startsWith('{') || name.startsWith('(') ? 'an object' : name;
  }
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value;
}

/** A string refinement whose failure message is a phrase (used in `… <path> <message>`). */
export function stringMatching(name: string, test: (s: string) => boolean, phrase: string): t.Type<string, string, unknown> {
  return new t.Type<string, string, unknown>(
    name,
    (u): u is string => typeof u === 'string' && test(u),
    (u, c) =>
      typeof u !== 'string'
        ? t.failure(u, c, u === undefined ? 'is required' : `must be a string (got ${kindOf(u)})`)
        : test(u)
          ? t.success(u)
          : t.failure(u, c, phrase),
    t.identity,
  );
}
