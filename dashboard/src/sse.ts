/**
 * A parser for `text/event-stream`, as the HTML standard's "interpreting an event stream"
 * says, fed text in chunks cut anywhere (mid-line, mid-CRLF). The page cannot use
 * EventSource: it sends no Authorization header, and the stream takes the dashboard token.
 * Pure (no DOM), so Node tests run it as it is.
 */
export interface SseMessage {
  /** The stream's last event id when this message was dispatched ('' if none yet). */
  readonly id: string;
  readonly event: string;
  readonly data: string;
}

export interface SseHandlers {
  message(m: SseMessage): void;
  /** The server's `retry:` field: how long to wait before reconnecting, in ms. */
  retry?(ms: number): void;
}

export interface SseParser {
  push(text: string): void;
  /** What to send as Last-Event-ID on reconnecting: the id of the last dispatched message. */
  readonly lastEventId: string;
}

export function sseParser(handlers: SseHandlers, lastEventId = ''): SseParser {
  let buffer = '';
  let started = false;
  // A chunk that ended on CR: a LF opening the next one belongs to the same line end.
  let skipLf = false;
  let data = '';
  let event = '';
  let idBuffer = lastEventId;
  let dispatchedId = lastEventId;

  const dispatch = () => {
    dispatchedId = idBuffer;
    if (data === '') {
      event = '';
      return;
    }
    const message = { id: idBuffer, event: event || 'message', data: data.endsWith('\n') ? data.slice(0, -1) : data };
    data = '';
    event = '';
    handlers.message(message);
  };

  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return; // a comment: the server's keep-alive
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data += `${value}\n`;
    else if (field === 'event') event = value;
    else if (field === 'id') {
      // An id holding NUL is ignored, so it can never reach a header.
      if (!value.includes('\0')) idBuffer = value;
    } else if (field === 'retry' && /^[0-9]+$/.test(value)) handlers.retry?.(Number(value));
  };

  return {
    push(text: string) {
      if (skipLf && text.startsWith('\n')) text = text.slice(1);
      skipLf = false;
      if (!started && text !== '') {
        started = true;
        if (text.startsWith('\uFEFF')) text = text.slice(1);
      }
      buffer += text;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer[i];
        if (c !== '\r' && c !== '\n') continue;
        line(buffer.slice(start, i));
        if (c === '\r') {
          if (i + 1 === buffer.length) skipLf = true;
          else if (buffer[i + 1] === '\n') i++;
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
    get lastEventId() {
      return dispatchedId;
    },
  };
}
