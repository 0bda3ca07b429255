// A worker thread's scheduling priority. Node sets priorities per process (os.setPriority takes a
// pid), but Linux schedules threads: given a thread's id, setpriority(2) sets that thread's nice
// value alone, and a thread finds its own id in /proc/thread-self. Raising one's own nice value
// needs no privilege.
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * How much nicer than the process the page pool's threads are (nice values run from -20 to 19,
 * higher is lower): the kernel's scheduler gives a thread about nine times the CPU of one 10
 * nicer when both want it, so the event loop and the generation threads are served first and the
 * page threads take what is left.
 */
export const PAGE_THREAD_NICENESS = 10;

/**
 * How much nicer than the process a generation thread is: a simple job's crawl is paced by the
 * reading thread, which the generation thread's work on arriving pages (about a fifth of a core)
 * slowed on two cores; the generation thread takes the time the event loop and the reading
 * thread leave, and is still served before the extracting threads. Alone after the crawl, it
 * runs at full speed.
 */
export const GENERATION_THREAD_NICENESS = 5;

/** The nice value at most. */
const LOWEST_PRIORITY = 19;

/**
 * Makes the calling thread `by` nicer than it is, on Linux; false where it cannot (another
 * system, no /proc): the thread then runs at the process's priority.
 */
export function lowerThreadPriority(by: number): boolean {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isSafeInteger(threadId)) return false;
    setPriority(threadId, Math.min(LOWEST_PRIORITY, getPriority(threadId) + by));
    return true;
  } catch {
    return false;
  }
}
