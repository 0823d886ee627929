/** Defaults from PROTOCOL.md "Limits"; every one is configurable. */
export interface ProtocolLimits {
  readonly maxDepth: number;
  readonly maxEvents: number;
  readonly maxBatch: number;
}

export const DEFAULT_LIMITS: ProtocolLimits = { maxDepth: 32, maxEvents: 10_000, maxBatch: 1_000 };

/**
 * Nesting depth of a JSON value (a scalar is 0, `{}` is 1). Stops counting once past `cap`,
 * so a hostile, deeply nested body costs at most `cap` levels of work.
 */
export function jsonDepth(value: unknown, cap = Number.MAX_SAFE_INTEGER): number {
  if (value === null || typeof value !== 'object') return 0;
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > deepest) deepest = depth;
    if (deepest > cap) return deepest;
    const children = Array.isArray(node) ? node : Object.values(node as object);
    for (const child of children) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return deepest;
}
