/** The server-sent events parser `events tail` reads the stream with (the HTML standard's EventSource rules). */

/** A server-sent event as dispatched: the last id seen (ids carry over), its type, its data lines joined by LF. */
export type SseMessage = { readonly id: string; readonly type: string; readonly data: string };

/**
 * Where a parse stands between chunks, as the HTML standard's EventSource keeps it: the text after the last line ending, whether
 * that was a CR (an LF opening the next chunk belongs to it), the event being read, and the last id dispatched (for Last-Event-ID).
 */
export type SseState = {
  readonly partial: string;
  readonly afterCr: boolean;
  readonly data: string;
  readonly type: string;
  readonly idBuffer: string;
  readonly lastEventId: string;
  readonly retryMs: number | null;
};

export const sseStart = (lastEventId = '', retryMs: number | null = null): SseState => ({
  partial: '',
  afterCr: false,
  data: '',
  type: '',
  idBuffer: lastEventId,
  lastEventId,
  retryMs,
});

/**
 * Feeds decoded text to the parser: lines end with CRLF, LF or CR; `:` starts a comment; a
 * blank line dispatches the event (none when no data came). An unfinished event is never
 * dispatched: a connection cut inside one leaves lastEventId at the last whole event.
 */
export function parseSse(state: SseState, chunk: string): { state: SseState; messages: SseMessage[] } {
  const text = state.afterCr && chunk.startsWith('\n') ? chunk.slice(1) : chunk;
  const lines = (state.partial + text).split(/\r\n|\r|\n/);
  const partial = lines.pop()!;
  let { data, type, idBuffer, lastEventId, retryMs } = state;
  const messages: SseMessage[] = [];
  for (const line of lines) {
    if (line === '') {
      lastEventId = idBuffer;
      if (data !== '') messages.push({ id: lastEventId, type: type || 'message', data: data.slice(0, -1) });
      [data, type] = ['', ''];
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
    if (field === 'data') data += `${value}\n`;
    else if (field === 'event') type = value;
    else if (field === 'id' && !value.includes('\0')) idBuffer = value;
    else if (field === 'retry' && /^[0-9]+$/.test(value)) retryMs = Number(value);
  }
  const afterCr = chunk === '' ? state.afterCr : text.endsWith('\r');
  return { state: { partial, afterCr, data, type, idBuffer, lastEventId, retryMs }, messages };
}
