import { MAX_CURSOR_LENGTH, type ProofCursor, type ProofQuery } from '../ports/proof-store.js';

/** The part of a query a cursor belongs to: its order and filters, not its page. */
export type CursorQuery = Omit<ProofQuery, 'limit' | 'after' | 'offset'>;

/**
 * Cursors are opaque to clients: base64url of "<createdAtMs>.<proofId>.<query>", followed by
 * ".<key>" in the task and robot orders (base64url of the id, or "~" for a proof without a
 * robot id). They carry a position, not a page number, so inserts between pages never repeat
 * or drop a proof.
 *
 * `<query>` is a digest of the order and filters of the list the cursor came from: a position
 * only means "the next page" within the same order and filters, so a cursor sent with others
 * (a client that changed a filter, or flipped the order, and kept paging) is refused instead of
 * answered with a page of some other list. The page size may change from page to page.
 * Cursors issued before the digest existed ("<createdAtMs>.<proofId>") are still taken.
 */
export function encodeCursor(cursor: ProofCursor, query: CursorQuery): string {
  const key = cursor.key === undefined ? '' : cursor.key === null ? '.~' : `.${Buffer.from(cursor.key, 'utf8').toString('base64url')}`;
  return Buffer.from(`${cursor.createdAtMs}.${cursor.proofId}.${queryDigest(query)}${key}`, 'utf8').toString('base64url');
}

/** The position, 'other-query' for a cursor of another order or other filters, or null for text that is no cursor of ours. */
export function decodeCursor(text: string, query: CursorQuery): ProofCursor | 'other-query' | null {
  if (text.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
  const m = /^(-?\d{1,16})\.([0-9a-f]{64})(?:\.([0-9a-z]{1,16})(?:\.(~|[A-Za-z0-9_-]{0,1400}))?)?$/.exec(Buffer.from(text, 'base64url').toString('utf8'));
  if (!m) return null;
  const createdAtMs = Number(m[1]);
  if (!Number.isSafeInteger(createdAtMs)) return null;
  if (m[3] !== undefined && m[3] !== queryDigest(query)) return 'other-query';
  const keyed = query.sort === 'task_id' || query.sort === 'robot_id';
  // A digest that matches says the order is the same, so a key comes exactly with the keyed orders.
  if (keyed !== (m[4] !== undefined)) return m[3] === undefined ? 'other-query' : null;
  const position = { createdAtMs, proofId: m[2]! };
  if (!keyed) return position;
  if (m[4] === '~') return query.sort === 'robot_id' ? { ...position, key: null } : null;
  const key = Buffer.from(m[4]!, 'base64url');
  const id = key.toString('utf8');
  // Only the canonical spelling of valid UTF-8 is a key this service wrote.
  if (Buffer.from(id, 'utf8').toString('base64url') !== m[4]) return null;
  return { ...position, key: id };
}

/**
 * 53 bits of a hash (cyrb53) of the order and the filters, in base 36. It tells lists apart,
 * which a client could only confuse by mistake; it guards nothing (the wallet is not in it,
 * and every read is scoped to the caller's wallet anyway).
 */
function queryDigest(q: CursorQuery): string {
  const fields = [q.order, q.taskId, q.robotId, q.runId, q.signerPublicKeyB64, q.createdAfterMs, q.createdBeforeMs, q.topic, q.text];
  // The default order adds nothing, so cursors issued before the other orders existed still match.
  const text = JSON.stringify(q.sort === undefined || q.sort === 'created_at' ? fields : [...fields, q.sort]);
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
