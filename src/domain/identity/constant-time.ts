/**
 * Equality of two byte strings in time that depends only on their lengths, not on where they
 * first differ: comparing a presented secret's hash with a stored one must not tell an
 * attacker how many leading bytes were right.
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
