/**
 * Worker threads that read a generation's pages (Piscina): each crawled page's links and outline
 * as it arrives, and the chosen pages' content. A 1,000-page generation uses the machine's cores,
 * and the process's event loop stays free to fetch pages and answer API requests.
 */
import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { Piscina } from 'piscina';
import type { ResponseBody } from '../crawl/fetcher.ts';
import type { ExtractOptions as LinkOptions } from '../crawl/links.ts';
import type { Extractor } from '../llms-txt/index.ts';
import type { ExtractTask, ReadTask } from './page-worker.ts';
import type { CrawledPageReading } from './crawled-page-reading.ts';

export interface PagePool {
  /**
   * A crawled page's links, outline and hash (see readCrawledPage), read from its bytes: the
   * thread decodes them, so that the event loop neither decodes nor hashes the page, nor copies
   * its text over (a tenth of a second in a 1,000-page job).
   */
  read(page: Pick<ResponseBody, 'body' | 'contentType'>, url: string, linkOptions: LinkOptions): Promise<CrawledPageReading>;
  extract: Extractor;
  /** how many pages to hand over for extraction at once to keep every thread busy */
  concurrency: number;
  /**
   * Ends the threads once no page is being read, if they extracted any (unless a page is handed
   * over first; the next page starts them again, about 0.1 s). A job calls it when it has read
   * its pages: an extracting thread holds about 60 MB, which the rest of the job (describing,
   * rendering and storing llms-full.txt) would otherwise run beside. Each thread first shrinks
   * its heap (`releaseMemory`), as V8 keeps an ended thread's heap for 8 seconds. Threads that
   * only read links and outlines hold little, and stay, warm for the next job.
   */
  retireWhenIdle(): void;
  close(): Promise<void>;
}

/**
 * One thread per core but one: the event loop keeps a core for itself, as it fetches the pages
 * (and answers the API). On two cores, the PostgreSQL manual with full text took 5.0-5.2 s with
 * one thread against 4.5 s with two, and peaked 372-387 MB against 391-402 (docs/decisions.md,
 * issue 12, eighth part).
 */
export function defaultPageThreads(cores = availableParallelism()): number {
  return Math.max(1, cores - 1);
}

/**
 * Who reads a job's crawled pages (links and outlines): the pool's threads, unless they also
 * extract the job's pages (`enhanced`, or with llms-full.txt). Those keep the threads busy while
 * the event loop waits on them: full-text jobs were 5% slower with the threads reading too
 * (docs/decisions.md, issue 12, fourteenth part).
 */
export function pageReader(pool: PagePool | undefined, { extractsContent }: { extractsContent: boolean }): PagePool['read'] | undefined {
  return extractsContent ? undefined : pool?.read;
}

/**
 * Pages handed to a thread before it finishes the one it reads, so that it does not wait for the
 * event loop between two pages.
 */
const TASKS_PER_THREAD = 4;

/**
 * The threads start with the first page, unless `warm`: then one starts at once and reads a
 * made-up manual (see warmUp), so that a service's first job finds it ready.
 */
export function createPagePool(threads = defaultPageThreads(), { warm = false } = {}): PagePool {
  const start = () =>
    new Piscina({
      // page-worker.ts beside this file in the repository, page-worker.mjs beside the bundle in the CLI's package (scripts/pack-cli.ts).
      filename: new URL(`./page-worker${extname(new URL(import.meta.url).pathname)}`, import.meta.url).href,
      // One thread stays between jobs: a new one would compile the tokenizer again.
      minThreads: 1,
      maxThreads: threads,
      idleTimeout: 30_000,
      concurrentTasksPerWorker: TASKS_PER_THREAD,
    });
  let pool: Piscina | null = warm ? start() : null;
  pool?.run(null, { name: 'warmUp' }).catch(() => {});
  let running = 0;
  let extracted = false;
  let retiring = false;
  const retireIfAsked = () => {
    if (!retiring || running > 0 || !pool) return;
    retiring = false;
    if (!extracted) return;
    extracted = false;
    void releaseAndDestroy(pool);
    pool = null;
  };
  const run = async <T>(task: object, name: string, transferList?: ArrayBuffer[]): Promise<T> => {
    retiring = false;
    pool ??= start();
    running++;
    try {
      return (await pool.run(task, { name, transferList })) as T;
    } finally {
      running--;
      retireIfAsked();
    }
  };
  return {
    read({ body, contentType }, url, linkOptions) {
      // A copy the thread takes over rather than a clone: the page keeps its bytes, in case the
      // generator wants its HTML after all.
      const task: ReadTask = { bytes: new Uint8Array(body), contentType, url, linkOptions };
      return run(task, 'read', [task.bytes.buffer as ArrayBuffer]);
    },
    extract(html, url, wants) {
      extracted = true;
      const task: ExtractTask = { html, url, content: wants?.content ?? false };
      return run(task, 'extract');
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

/**
 * One `releaseMemory` per thread (Piscina hands each to the least busy thread, so idle threads
 * take one each), then the end of the threads.
 */
async function releaseAndDestroy(pool: Piscina): Promise<void> {
  await Promise.allSettled(pool.threads.map(() => pool.run(null, { name: 'releaseMemory' })));
  await pool.destroy();
}
