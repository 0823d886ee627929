/**
 * Opaque cursors of the fleet lists: base64url of "<kind>:<position>". The kind keeps a
 * device cursor from being replayed against the group list and vice versa.
 */
export type CursorKind = 'device' | 'group';
const PREFIX: Record<CursorKind, string> = { device: 'd:', group: 'g:' };

export function encodeFleetCursor(kind: CursorKind, position: string): string {
  return Buffer.from(PREFIX[kind] + position, 'utf8').toString('base64url');
}

/** Refuses bytes that are not UTF-8, where Buffer would put U+FFFD in their place. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export function decodeFleetCursor(kind: CursorKind, text: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,1000}$/.test(text)) return null;
  let decoded: string;
  try {
    // A position that is not valid UTF-8 was not issued by us. (U+FFFD itself is a character
    // like any other: a name may hold it, and its cursor must work.)
    decoded = strictUtf8.decode(Buffer.from(text, 'base64url'));
  } catch {
    return null;
  }
  if (!decoded.startsWith(PREFIX[kind]) || decoded.length === PREFIX[kind].length) return null;
  return decoded.slice(PREFIX[kind].length);
}
