import type { ProofCursor } from '../ports/proof-store.js';

/**
 * Cursors are opaque to clients: base64url of "<createdAtMs>.<proofId>". They carry a
 * position, not a page number, so inserts between pages never repeat or drop a proof.
 */
export function encodeCursor(cursor: ProofCursor): string {
  return Buffer.from(`${cursor.createdAtMs}.${cursor.proofId}`, 'utf8').toString('base64url');
}

export function decodeCursor(text: string): ProofCursor | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(text)) return null;
  const m = /^(-?\d{1,16})\.([0-9a-f]{64})$/.exec(Buffer.from(text, 'base64url').toString('utf8'));
  if (!m) return null;
  const createdAtMs = Number(m[1]);
  return Number.isSafeInteger(createdAtMs) ? { createdAtMs, proofId: m[2]! } : null;
}
