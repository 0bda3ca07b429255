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
  close(): Promise<void>;
}

export function createExtractorPool(threads = availableParallelism()): ExtractorPool {
  const pool = new Piscina({
    filename: new URL('./extract-worker.ts', import.meta.url).href,
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: 30_000,
  });
  return {
    extract: (page, url) => pool.run({ html: page.html, url }),
    concurrency: threads * 2,
    close: () => pool.destroy(),
  };
}
