/**
 * A pool of worker threads that extract pages (Piscina), so a 1,000-page generation uses the
 * machine's cores and leaves the process's event loop free for API requests.
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { ExtractedPage } from './extract.ts';
import type { PageInput } from './types.ts';

export interface ExtractorPool {
  extract(page: PageInput, url: string): Promise<ExtractedPage>;
  /** how many pages to hand over at once to keep every thread busy */
  concurrency: number;
  /**
   * Ends the threads once no page is being extracted, unless a page is handed over first; the next
   * page starts them again (about 0.1 s). A job calls it when it has read its pages: each thread
   * holds about 60 MB, which the rest of the job (describing, rendering and storing llms-full.txt)
   * would otherwise run beside. Each thread first shrinks its heap (`releaseMemory`), as V8 keeps
   * an ended thread's heap for 8 seconds.
   */
  retireWhenIdle(): void;
  close(): Promise<void>;
}

/**
 * One thread per core but one: the event loop keeps a core for itself, as it fetches and outlines
 * the pages the threads extract (and answers the API). On two cores, the PostgreSQL manual with
 * full text took 5.0-5.2 s with one thread against 4.5 s with two, and peaked 372-387 MB against
 * 391-402 (docs/decisions.md, issue 12, eighth part).
 */
export function defaultExtractionThreads(cores = availableParallelism()): number {
  return Math.max(1, cores - 1);
}

export function createExtractorPool(threads = defaultExtractionThreads()): ExtractorPool {
  let pool: Piscina | null = null;
  let extracting = 0;
  let retiring = false;
  const retireIfAsked = () => {
    if (!retiring || extracting > 0 || !pool) return;
    void releaseAndDestroy(pool);
    pool = null;
    retiring = false;
  };
  return {
    async extract(page, url) {
      retiring = false;
      pool ??= new Piscina({ filename: new URL('./extract-worker.ts', import.meta.url).href, minThreads: 0, maxThreads: threads, idleTimeout: 30_000 });
      extracting++;
      try {
        return await pool.run({ html: page.html, url });
      } finally {
        extracting--;
        retireIfAsked();
      }
    },
    concurrency: threads * 2,
    retireWhenIdle() {
      retiring = true;
      retireIfAsked();
    },
    async close() {
      await pool?.destroy();
      pool = null;
    },
  };
}

/** One `releaseMemory` per thread (an idle thread takes one task at a time), then the end of the threads. */
async function releaseAndDestroy(pool: Piscina): Promise<void> {
  await Promise.allSettled(pool.threads.map(() => pool.run(null, { name: 'releaseMemory' })));
  await pool.destroy();
}
