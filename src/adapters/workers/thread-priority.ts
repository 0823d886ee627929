import { readdirSync, readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { isMainThread } from 'node:worker_threads';

/**
 * Thread priorities (Linux): the event loop, which serves every request, before the threads
 * that work for it.
 *
 * A submission passes from the event loop to a verify worker, to the writer thread, and to
 * libuv's pool (SQLite's work). Each hand-off wakes a thread, and on a machine with few cores
 * the scheduler often runs the woken thread at once, on the event loop's core, because a
 * thread that sleeps a lot is owed time: the event loop then waits for a core with requests
 * queued behind it. With its helpers `nice`d below it, the event loop keeps its core and the
 * helpers run in the time it leaves; the helpers still get every idle moment, so nothing
 * starves while the event loop waits on them.
 *
 * Linux sets a priority per thread (`setpriority` on a thread id). Elsewhere, and where
 * /proc is not mounted, these functions do nothing and say so. A priority is only ever
 * lowered: an unprivileged process cannot raise it again.
 */

/** The highest niceness Linux gives (lowest priority). */
export const NICEST = 19;

/** The helpers' niceness increment where none is configured. */
export const DEFAULT_HELPER_NICE = 10;

/**
 * The increment to use: the configured one, or by default DEFAULT_HELPER_NICE with two cores
 * or more and 0 with one. On a single core the event loop and its helpers share that core:
 * under a load beyond the machine's capacity the event loop would be busy all the time taking
 * in requests, and helpers far below it would get too little of the core to finish any.
 */
export function helperNiceFor(configured: number | null, cores: number): number {
  return configured ?? (cores >= 2 ? DEFAULT_HELPER_NICE : 0);
}

/** The kernel's id of the calling thread (its /proc/thread-self), or null where there is none. */
export function currentThreadId(): number | null {
  try {
    const id = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}

/**
 * Lowers one thread to `base + increment` niceness (at most NICEST), where `base` is the
 * niceness it has now. True when its priority is now that low (or lower already); false when
 * it could not be set: the thread has ended, or the system refuses.
 */
export function lowerThreadPriority(threadId: number, increment: number): boolean {
  if (!Number.isInteger(increment) || increment < 0) throw new RangeError(`a niceness increment is an integer ≥ 0 (got ${increment})`);
  try {
    return lowerTo(threadId, getPriority(threadId) + increment);
  } catch {
    return false;
  }
}

/** Sets a thread's niceness to `target` (at most NICEST) unless it is that nice already; false where that cannot be done. */
function lowerTo(threadId: number, target: number): boolean {
  try {
    const niceness = Math.min(NICEST, target);
    if (getPriority(threadId) < niceness) setPriority(threadId, niceness);
    return true;
  } catch {
    return false;
  }
}

/** Lowers the calling thread (a worker, as it starts); false where that cannot be done. */
export function lowerCurrentThreadPriority(increment: number): boolean {
  const id = currentThreadId();
  return id !== null && lowerThreadPriority(id, increment);
}

/**
 * From the main thread: every other thread of the process `increment` below the main thread's
 * own niceness: libuv's pool, V8's helpers, and the worker threads running so far. Threads
 * started later begin at the main thread's priority (workers started by spawnWorker with a
 * `niceIncrement` lower themselves). Returns how many threads it lowered; 0 off the main
 * thread (a library embedded in someone else's worker leaves their threads alone), with an
 * increment of 0, or where threads cannot be listed.
 */
export function lowerHelperThreads(increment: number): number {
  if (!isMainThread || increment === 0) return 0;
  const self = currentThreadId();
  if (self === null) return 0;
  let base: number;
  let threads: number[];
  try {
    base = getPriority(self);
    threads = readdirSync('/proc/self/task').map(Number);
  } catch {
    return 0;
  }
  // A thread that ended meanwhile, or that the system refuses to lower, keeps its priority.
  return threads.filter((id) => id !== self && lowerTo(id, base + increment)).length;
}
