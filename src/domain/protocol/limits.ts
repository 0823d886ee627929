/** Defaults from docs/protocol.md "Limits"; every one is configurable. */
export interface ProtocolLimits {
  readonly maxDepth: number;
  readonly maxEvents: number;
  readonly maxBatch: number;
}

export const DEFAULT_LIMITS: ProtocolLimits = { maxDepth: 32, maxEvents: 10_000, maxBatch: 1_000 };

/**
 * Nesting depth of a JSON value (a scalar is 0, `{}` is 1). Stops counting once past `cap`,
 * so a hostile, deeply nested body costs at most `cap` levels of work: the result is the
 * depth when it is at most `cap`, and otherwise the first whole depth past `cap`.
 *
 * Every object counts as a level and its children are its own enumerable string-keyed
 * values (an array's, its elements), as JSON sees it.
 */
export function jsonDepth(value: unknown, cap = Number.MAX_SAFE_INTEGER): number {
  if (value === null || typeof value !== 'object') return 0;
  // Recursion is bounded by the cap: with a small one (the protocol's is 32) it is the
  // fastest walk; with a large or no cap, a hostile body must not overflow the stack.
  return cap <= RECURSION_CAP ? depthBelow(value, 1, cap) : depthIterative(value, cap);
}

/** Deepest recursion depthBelow may reach: cap + 1 levels, well within any JS stack. */
const RECURSION_CAP = 256;

/**
 * Depth of `node` (an object at depth `depth`), or the first depth past `cap` found under it.
 * Children are visited last first, the order of the explicit stack below, so that even a
 * getter met on the way runs in the same order as before.
 */
function depthBelow(node: object, depth: number, cap: number): number {
  if (depth > cap) return depth;
  const children: readonly unknown[] = Array.isArray(node) ? node : Object.values(node);
  let deepest = depth;
  for (let i = children.length - 1; i >= 0; i--) {
    const child = children[i];
    if (child !== null && typeof child === 'object') {
      const d = depthBelow(child, depth + 1, cap);
      if (d > cap) return d;
      if (d > deepest) deepest = d;
    }
  }
  return deepest;
}

/** The same walk with an explicit stack (two parallel arrays: no tuple per node). */
function depthIterative(value: object, cap: number): number {
  const nodes: object[] = [value];
  const depths: number[] = [1];
  let deepest = 0;
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth > deepest) deepest = depth;
    if (deepest > cap) return deepest;
    const children: readonly unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (let i = 0; i < children.length; i++) {
      const child = children[i];
      if (child !== null && typeof child === 'object') {
        nodes.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return deepest;
}
