import { api, ApiError, credentialHeaders, query, refusal, sessionWallet } from './api.js';
import { sseParser } from './sse.js';
import type { EventType, RegistryEvent } from './types.js';

/**
 * The wallet's events as they happen, for every view of the tab: one stream
 * (GET /v1/events/stream) read with fetch, since EventSource cannot send the token. It runs
 * while a view uses it (and a little longer, so moving between views does not reconnect),
 * resumes after the last event it saw (Last-Event-ID) so a dropped connection misses
 * nothing, and backs off between attempts.
 *
 * proof.logged is not followed: it comes a second after each proof.accepted, whose line
 * already names the leaf, and would double what the feed and the stream carry.
 */
export const FOLLOWED: readonly EventType[] = ['proof.accepted', 'proof.rejected', 'device.status_changed', 'key.created', 'key.updated', 'key.deleted'];

/** Events the feed keeps: what a person scrolls through, not an archive. */
export const KEEP = 200;
const GRACE_MS = 15_000;
/** The service sends a keep-alive every 15 s: three missed ones mean a connection that died without saying so. */
const SILENT_MS = 45_000;
const MAX_DELAY_MS = 30_000;

export type LinkState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'connecting' }
  | { readonly kind: 'live' }
  | { readonly kind: 'reconnecting'; readonly atMs: number; readonly why: string }
  | { readonly kind: 'stopped'; readonly error: Error };

/** The recent past shown before the stream: the newest KEEP events, read newest first. */
export type History = { readonly kind: 'none' | 'loading' | 'loaded' } | { readonly kind: 'failed'; readonly error: Error };

export interface LiveSnapshot {
  readonly state: LinkState;
  readonly history: History;
  /** Newest first, at most KEEP. */
  readonly events: readonly RegistryEvent[];
}

/** What an event listener hears: each event, or `resync` when the stream started with no place to resume from (a view re-reads once). */
export type Heard = RegistryEvent | 'resync';

const IDLE: LinkState = { kind: 'idle' };

class LiveEvents {
  private snap: LiveSnapshot = { state: IDLE, history: { kind: 'none' }, events: [] };
  private wallet: string | null = null;
  /** Bumped by reset(): answers for an earlier wallet are dropped. */
  private generation = 0;
  private lastId = '';
  private users = 0;
  private running = false;
  private connection: AbortController | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private failures = 0;
  private retryMs = 1000;
  private historyRun: Promise<void> | null = null;
  private readonly changes = new Set<() => void>();
  private readonly listeners = new Set<(e: Heard) => void>();
  private notifying = false;

  constructor() {
    // Back on the network: try now rather than at the end of the back-off.
    window.addEventListener('online', () => {
      if (this.running && this.snap.state.kind === 'reconnecting') this.connectNow();
    });
  }

  get current(): LiveSnapshot {
    return this.snap;
  }

  onChange(f: () => void): () => void {
    this.changes.add(f);
    return () => void this.changes.delete(f);
  }

  onEvent(f: (e: Heard) => void): () => void {
    this.listeners.add(f);
    return () => void this.listeners.delete(f);
  }

  /** A view starts using the stream (and the recent history, with `history`); call the answer to stop. */
  acquire(o: { history?: boolean } = {}): () => void {
    const wallet = sessionWallet();
    if (wallet !== this.wallet) {
      this.reset();
      this.wallet = wallet;
    }
    this.users++;
    clearTimeout(this.idleTimer);
    const h = this.snap.history.kind;
    if (o.history && (h === 'none' || h === 'failed')) this.loadHistory();
    if (!this.running) {
      this.running = true;
      void this.connect();
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.users === 0) this.idleTimer = setTimeout(() => this.stop(), GRACE_MS);
    };
  }

  /** Reads the recent history again (after it failed). */
  retryHistory(): void {
    this.loadHistory();
  }

  /** Forgets everything: another wallet signed in, or none. */
  reset(): void {
    this.stop();
    this.generation++;
    this.lastId = '';
    this.historyRun = null;
    this.set({ state: IDLE, history: { kind: 'none' }, events: [] });
  }

  private stop(): void {
    this.running = false;
    this.connection?.abort();
    this.connection = null;
    clearTimeout(this.retryTimer);
    clearTimeout(this.idleTimer);
    if (this.snap.state.kind !== 'idle') this.set({ ...this.snap, state: IDLE });
  }

  private loadHistory(): void {
    const generation = this.generation;
    this.set({ ...this.snap, history: { kind: 'loading' } });
    this.historyRun = (async () => {
      const page: { items: RegistryEvent[] } = await api('GET', `/v1/events${query({ types: FOLLOWED.join(','), limit: KEEP, order: 'desc' })}`);
      if (generation !== this.generation) return;
      // The stream goes on from the newest event shown, unless it already runs from somewhere.
      const newest = page.items[0];
      if (this.lastId === '' && newest) this.lastId = newest.id;
      this.set({ ...this.snap, history: { kind: 'loaded' }, events: merge(this.snap.events, page.items) });
    })().catch((error: Error) => {
      if (generation === this.generation) this.set({ ...this.snap, history: { kind: 'failed', error } });
    });
  }

  private connectNow(): void {
    clearTimeout(this.retryTimer);
    void this.connect();
  }

  private async connect(): Promise<void> {
    const generation = this.generation;
    const connection = new AbortController();
    this.connection?.abort();
    this.connection = connection;
    // Opening the page: the history gives the place to resume from, so wait for it.
    if (this.lastId === '' && this.historyRun) await this.historyRun;
    if (this.connection !== connection || generation !== this.generation) return;
    if (this.snap.state.kind !== 'reconnecting') this.set({ ...this.snap, state: { kind: 'connecting' } });
    const resumed = this.lastId !== '';
    let silent = false;
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const listen = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => ((silent = true), connection.abort()), SILENT_MS);
    };
    let why = 'the stream ended';
    try {
      const res = await fetch(`/v1/events/stream${query({ types: FOLLOWED.join(',') })}`, {
        headers: { accept: 'text/event-stream', ...credentialHeaders(), ...(resumed ? { 'last-event-id': this.lastId } : {}) },
        signal: connection.signal,
        cache: 'no-store',
      });
      if (!res.ok || !res.body) {
        const error = res.ok ? new Error('the stream has no body') : await refusal(res);
        if (this.connection !== connection) return;
        if (error instanceof ApiError && error.sessionEnded) return this.stop();
        // A busy or restarting service is tried again; any other refusal would be refused again.
        if (error instanceof ApiError && error.status !== 429 && error.status < 500) return this.set({ ...this.snap, state: { kind: 'stopped', error } });
        return this.retry(error.message, (error instanceof ApiError ? (error.retryAfterS ?? 0) : 0) * 1000);
      }
      this.failures = 0;
      this.set({ ...this.snap, state: { kind: 'live' } });
      if (!resumed) this.emit('resync');
      const parser = sseParser(
        { message: (m) => this.receive(m.data), retry: (ms) => (this.retryMs = Math.min(Math.max(ms, 500), MAX_DELAY_MS)) },
        this.lastId,
      );
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      listen();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        listen();
        parser.push(value);
      }
    } catch (err) {
      why = silent ? 'no word from the service for 45 s' : (err as Error).message || 'the connection failed';
    } finally {
      clearTimeout(watchdog);
    }
    if (this.connection === connection && this.running) this.retry(why, 0);
  }

  private retry(why: string, atLeastMs: number): void {
    this.failures++;
    const backoff = Math.min(MAX_DELAY_MS, this.retryMs * 2 ** Math.min(this.failures - 1, 5));
    // Spread, so tabs cut off together do not all come back at the same moment.
    const delay = Math.max(atLeastMs, Math.round(backoff * (0.8 + 0.4 * Math.random())));
    this.set({ ...this.snap, state: { kind: 'reconnecting', atMs: Date.now() + delay, why } });
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.connect(), delay);
  }

  private receive(data: string): void {
    let event: RegistryEvent;
    try {
      event = JSON.parse(data) as RegistryEvent;
    } catch {
      return;
    }
    if (typeof event?.id !== 'string' || typeof event.type !== 'string') return;
    this.lastId = event.id;
    const held = this.snap.events;
    this.set({ ...this.snap, events: held.length === 0 || event.id > held[0]!.id ? [event, ...held.slice(0, KEEP - 1)] : merge(held, [event]) });
    this.emit(event);
  }

  private emit(e: Heard): void {
    for (const f of this.listeners) f(e);
  }

  /** Views re-render once per batch of events (a read of the stream may carry hundreds), not once per event. */
  private set(next: LiveSnapshot): void {
    this.snap = next;
    if (this.notifying) return;
    this.notifying = true;
    queueMicrotask(() => {
      this.notifying = false;
      for (const f of this.changes) f();
    });
  }
}

/** Newest first, each id once: ids sort as text in the order events were committed. */
function merge(held: readonly RegistryEvent[], more: readonly RegistryEvent[]): RegistryEvent[] {
  const byId = new Map<string, RegistryEvent>();
  for (const e of [...held, ...more]) byId.set(e.id, e);
  return [...byId.values()].sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)).slice(0, KEEP);
}

export const live = new LiveEvents();
