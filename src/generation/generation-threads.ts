// The jobs' generation threads (see generation-thread.ts): one waits between jobs, its code
// loaded and compiled; a job takes it, or starts its own.
import { Worker } from 'node:worker_threads';

/** What the thread is started with (see GenerationThreads). */
export interface GenerationWorkerData {
  /** the thread a service starts with: it generates a made-up manual before it says it has loaded */
  warmUp: boolean;
}

const WORKER_FILE = new URL('./generation-worker.ts', import.meta.url);

export function startThread(memoryMb: number, warmUp = false): Worker {
  const worker = new Worker(WORKER_FILE, { resourceLimits: { maxOldGenerationSizeMb: memoryMb }, workerData: { warmUp } satisfies GenerationWorkerData });
  // A thread that fails between jobs is not taken again (see GenerationThreads); a job listens for its own.
  worker.on('error', () => {});
  return worker;
}

/**
 * The jobs' threads. A thread whose job completed waits for the next job, its modules loaded and
 * its code compiled; a thread whose job failed (over its time or memory budget, canceled, or
 * the generator threw) is ended, as it may be in any state, and a new one starts to wait once it
 * has ended (started beside a running job, it slowed that job on two cores). One thread waits
 * at most; jobs that run at once beyond it start their own. A waiting thread does not keep the
 * process alive.
 */
export interface GenerationThreads {
  /** Settles once the first waiting thread has loaded its code and tokenizer (and warmed up, when asked), or has ended. */
  loaded: Promise<void>;
  /** The waiting thread if it has this heap limit, else a new one. */
  take(memoryMb: number): Worker;
  /** A thread whose job completed: it waits for the next job, unless another already does. */
  give(worker: Worker, memoryMb: number): void;
  close(): Promise<void>;
}

/** `warm`: the first thread generates a made-up manual before it waits (see warmUpGeneration). */
export function createGenerationThreads(memoryMb: number, { warm = false } = {}): GenerationThreads {
  let waiting: { worker: Worker; memoryMb: number } | null = null;
  let closed = false;
  const wait = (worker: Worker, limit: number) => {
    if (closed || waiting) return void worker.terminate();
    worker.unref();
    waiting = { worker, memoryMb: limit };
  };
  const taken = new WeakSet<Worker>();
  // One exit listener per thread, added when it starts: a thread goes back to waiting after each
  // completed job, and a listener per wait added one per job (11 on a thread that ran 11 jobs).
  const start = (limit: number, warmUp = false) => {
    const worker = startThread(limit, warmUp);
    worker.once('exit', () => {
      if (waiting?.worker === worker) waiting = null;
      // A thread ends while a job runs on it only when that job failed: one starts to wait in its place.
      else if (taken.has(worker) && !closed && !waiting) wait(start(limit), limit);
    });
    return worker;
  };
  const first = start(memoryMb, warm);
  const loaded = new Promise<void>((resolve) => {
    first.once('message', () => resolve());
    first.once('exit', () => resolve());
  });
  wait(first, memoryMb);
  return {
    loaded,
    take(limit) {
      const ready = waiting?.memoryMb === limit ? waiting.worker : null;
      if (!ready) void waiting?.worker.terminate();
      waiting = null;
      const worker = ready ?? start(limit);
      worker.ref();
      taken.add(worker);
      return worker;
    },
    give(worker, limit) {
      wait(worker, limit);
    },
    async close() {
      closed = true;
      await waiting?.worker.terminate();
      waiting = null;
    },
  };
}
