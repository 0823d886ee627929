/**
 * Opaque cursors of the fleet lists: base64url of "<kind>:<position>". The kind keeps a
 * device cursor from being replayed against the group list and vice versa.
 */
export type CursorKind = 'device' | 'group';
const PREFIX: Record<CursorKind, string> = { device: 'd:', group: 'g:' };

export function encodeFleetCursor(kind: CursorKind, position: string): string {
  return Buffer.from(PREFIX[kind] + position, 'utf8').toString('base64url');
}

export function decodeFleetCursor(kind: CursorKind, text: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,1000}$/.test(text)) return null;
  const decoded = Buffer.from(text, 'base64url').toString('utf8');
  if (!decoded.startsWith(PREFIX[kind]) || decoded.length === PREFIX[kind].length) return null;
  // A position that is not valid UTF-8 was not issued by us.
  if (decoded.includes('\ufffd')) return null;
  return decoded.slice(PREFIX[kind].length);
}
