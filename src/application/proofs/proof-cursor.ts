import type { ProofCursor, ProofQuery } from '../ports/proof-store.js';

/**
 * Cursors are opaque to clients: base64url of "<createdAtMs>.<proofId>.<query>". They carry a
 * position, not a page number, so inserts between pages never repeat or drop a proof.
 *
 * `<query>` is a digest of the order and filters of the list the cursor came from: a position
 * only means "the next page" within the same order and filters, so a cursor sent with others
 * (a client that changed a filter, or flipped the order, and kept paging) is refused instead of
 * answered with a page of some other list. The page size may change from page to page.
 * Cursors issued before the digest existed ("<createdAtMs>.<proofId>") are still taken.
 */
export function encodeCursor(cursor: ProofCursor, query: Omit<ProofQuery, 'limit' | 'after'>): string {
  return Buffer.from(`${cursor.createdAtMs}.${cursor.proofId}.${queryDigest(query)}`, 'utf8').toString('base64url');
}

/** The position, 'other-query' for a cursor of another order or other filters, or null for text that is no cursor of ours. */
export function decodeCursor(text: string, query: Omit<ProofQuery, 'limit' | 'after'>): ProofCursor | 'other-query' | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(text)) return null;
  const m = /^(-?\d{1,16})\.([0-9a-f]{64})(?:\.([0-9a-z]{1,16}))?$/.exec(Buffer.from(text, 'base64url').toString('utf8'));
  if (!m) return null;
  const createdAtMs = Number(m[1]);
  if (!Number.isSafeInteger(createdAtMs)) return null;
  if (m[3] !== undefined && m[3] !== queryDigest(query)) return 'other-query';
  return { createdAtMs, proofId: m[2]! };
}

/**
 * 53 bits of a hash (cyrb53) of the order and the filters, in base 36. It tells lists apart,
 * which a client could only confuse by mistake; it guards nothing (the wallet is not in it,
 * and every read is scoped to the caller's wallet anyway).
 */
function queryDigest(q: Omit<ProofQuery, 'limit' | 'after'>): string {
  const text = JSON.stringify([q.order, q.taskId, q.robotId, q.runId, q.signerPublicKeyB64, q.createdAfterMs, q.createdBeforeMs, q.topic, q.text]);
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}
