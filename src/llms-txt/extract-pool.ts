/**
 * A pool of worker threads that extract pages (Piscina), so a 1,000-page generation uses every
 * core and leaves the process's event loop free for API requests.
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
   * would otherwise run beside.
   */
  retireWhenIdle(): void;
  close(): Promise<void>;
}

export function createExtractorPool(threads = availableParallelism()): ExtractorPool {
  let pool: Piscina | null = null;
  let extracting = 0;
  let retiring = false;
  const retireIfAsked = () => {
    if (!retiring || extracting > 0 || !pool) return;
    void pool.destroy();
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
