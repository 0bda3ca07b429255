// A thread's heap brought down to what is alive, for the threads that outlive their work: the
// page pool's before it ends them (page-worker.ts), the generation thread between jobs
// (generation-worker.ts). An idle thread allocates nothing, so V8 would not collect on its own.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A memory-reducing collection: the pages it frees go back to the system at once. It also drops
 * compiled code: for a thread about to end.
 */
export function releaseMemory(): void {
  collectGarbage({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

/**
 * A full collection that keeps compiled code, for a thread that waits for more work: after a
 * full-text job, the generation thread's heap went from 88 MB to its 44 MB of live data.
 */
export function collectGarbageBetweenJobs(): void {
  collectGarbage({ type: 'major', execution: 'sync', flavor: 'regular' });
}

const GC_ATTEMPTS = 100;

/**
 * V8's `gc`, which only a context created while --expose-gc is set has (as jest-leak-detector gets
 * it). The flag is the process's, not the thread's: another thread turning it off between our
 * setting it and creating the context leaves that context without `gc`, so the pair is retried.
 */
const collectGarbage: (options: object) => void = (() => {
  for (let attempt = 1; ; attempt++) {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
    setFlagsFromString('--no-expose-gc');
    if (typeof gc === 'function') return gc as (options: object) => void;
    if (attempt === GC_ATTEMPTS) throw new Error(`V8's gc could not be reached in ${GC_ATTEMPTS} attempts`);
  }
})();
