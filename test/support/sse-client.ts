import { authHeaders } from './test-authenticator.js';

export interface StreamedEvent {
  readonly id: string;
  readonly type: string;
  readonly data: Record<string, unknown>;
}

export interface EventStream {
  readonly status: number;
  readonly events: StreamedEvent[];
  /** Resolves once `count` events arrived in all (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  close(): void;
}

/** A test's reader of GET /v1/events/stream as `wallet`: frames parsed into events as they come. */
export async function openStream(baseUrl: string, wallet: string, options: { lastEventId?: string; query?: string } = {}): Promise<EventStream> {
  const controller = new AbortController();
  const res = await fetch(`${baseUrl}/v1/events/stream${options.query ?? ''}`, {
    headers: { ...authHeaders(wallet), ...(options.lastEventId ? { 'last-event-id': options.lastEventId } : {}) },
    signal: controller.signal,
  });
  const events: StreamedEvent[] = [];
  const waiters: Array<() => void> = [];
  let buffer = '';
  const ended = (async () => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame
            .split('\n')
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n');
          if (data === '') continue;
          const parsed = JSON.parse(data) as StreamedEvent;
          events.push(parsed);
          for (const w of waiters.splice(0)) w();
        }
      }
    } catch {
      // aborted by the test
    }
  })();
  return {
    status: res.status,
    events,
    ended,
    close: () => controller.abort(),
    waitFor: (count, timeoutMs = 30_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the stream gave ${events.length} events, not ${count}, within ${timeoutMs} ms`)), timeoutMs);
        const check = () => {
          if (events.length >= count) {
            clearTimeout(timer);
            resolve();
          } else waiters.push(check);
        };
        check();
      }),
  };
}
