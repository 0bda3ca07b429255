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
import type { ExtractedPage, Extractor } from '../llms-txt/index.ts';
import type { ExtractTask, PageWorkerData, ReadTask } from './page-worker.ts';
import { readCrawledPage, type CrawledPageReading } from './crawled-page-reading.ts';
import { readMadeUpManual } from './made-up-manual.ts';

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
   * Ends the extracting threads once no page is being extracted (unless a page is handed over
   * first; the next page starts them again, about 0.1 s). A job calls it when it has read its
   * pages: an extracting thread holds about 60 MB, which the rest of the job (describing,
   * rendering and storing llms-full.txt) would otherwise run beside. Each thread first shrinks
   * its heap (`releaseMemory`), as V8 keeps an ended thread's heap for 8 seconds. The reading
   * threads hold little, and stay, warm for the next job.
   */
  retireWhenIdle(): void;
  /** Settles once the warm-up (see createPagePool) is over, at once without one. */
  warmedUp: Promise<void>;
  close(): Promise<void>;
}

/** How many threads read crawled pages, and how many extract pages' content. */
export interface PageThreads {
  reading: number;
  extracting: number;
}

/**
 * Reading: one thread per core but one, at the event loop's priority: the event loop keeps a core
 * for itself, as it fetches the pages (and answers the API), and the crawler waits on the links
 * the thread reads (docs/decisions.md, issue 12, eighth part). Extracting: one thread per core,
 * below the event loop's priority (PAGE_THREAD_NICENESS), so that they use the cores the event
 * loop and the generation threads leave idle: with one thread at the event loop's priority, the
 * event loop's core idled once the crawl was done while the thread extracted the rest of a
 * full-text job's pages. A simple job's reading was slower in threads below the event loop's
 * priority (docs/decisions/page-reading.md).
 */
export function defaultPageThreads(cores = availableParallelism()): PageThreads {
  return { reading: Math.max(1, cores - 1), extracting: Math.max(1, cores) };
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

/** page-worker.ts beside this file in the repository, page-worker.mjs beside the bundle in the CLI's package (scripts/pack-cli.ts). */
const PAGE_WORKER = new URL(`./page-worker${extname(new URL(import.meta.url).pathname)}`, import.meta.url);

/**
 * The threads start with the first page, unless `warm`: then a reading thread starts at once and
 * reads a made-up manual (see warmUp), so that a service's first job finds it ready. They run
 * `workerFile`: a service's bundle of the page worker (see bundlePageWorker), else its modules.
 */
export function createPagePool(threads = defaultPageThreads(), { warm = false, workerFile = PAGE_WORKER } = {}): PagePool {
  // One reading thread stays between jobs: a new one would compile the tokenizer again.
  const readers = threadGroup({ maxThreads: threads.reading, lowered: false, workerFile });
  const extractors = threadGroup({ maxThreads: threads.extracting, lowered: true, workerFile });
  const warmedUp = warm ? readers.run(null, 'warmUp').then(() => {}, () => {}) : Promise.resolve();
  // The event loop reads the pages of the jobs whose threads extract (see pageReader): its code is warmed up too.
  if (warm) readMadeUpManual((html, url) => readCrawledPage(html, url, {}));
  let retiring = false;
  const retireIfAsked = () => {
    if (!retiring || extractors.running > 0) return;
    retiring = false;
    extractors.end();
  };
  return {
    read({ body, contentType }, url, linkOptions) {
      // A copy the thread takes over rather than a clone: the page keeps its bytes, in case the
      // generator wants its HTML after all.
      const task: ReadTask = { bytes: new Uint8Array(body), contentType, url, linkOptions };
      return readers.run(task, 'read', [task.bytes.buffer as ArrayBuffer]);
    },
    async extract(html, url, wants) {
      retiring = false;
      const task: ExtractTask = { html, url, content: wants?.content ?? false };
      try {
        return await extractors.run<ExtractedPage>(task, 'extract');
      } finally {
        retireIfAsked();
      }
    },
    // Piscina starts a second thread only once the first holds TASKS_PER_THREAD pages.
    concurrency: threads.extracting * TASKS_PER_THREAD,
    retireWhenIdle() {
      retiring = true;
      retireIfAsked();
    },
    warmedUp,
    async close() {
      await Promise.all([readers.close(), extractors.close()]);
    },
  };
}

/** Threads of one kind, started by their first task. */
function threadGroup({ maxThreads, lowered, workerFile }: { maxThreads: number; lowered: boolean; workerFile: URL }) {
  let pool: Piscina | null = null;
  const group = {
    running: 0,
    async run<T>(task: object | null, name: string, transferList?: ArrayBuffer[]): Promise<T> {
      pool ??= new Piscina({
        filename: workerFile.href,
        workerData: { lowered } satisfies PageWorkerData,
        minThreads: 1,
        maxThreads,
        idleTimeout: 30_000,
        concurrentTasksPerWorker: TASKS_PER_THREAD,
      });
      group.running++;
      try {
        return (await pool.run(task, { name, transferList })) as T;
      } finally {
        group.running--;
      }
    },
    /** Ends the threads, each shrinking its heap first. */
    end() {
      if (pool) void releaseAndDestroy(pool);
      pool = null;
    },
    async close() {
      await pool?.destroy();
      pool = null;
    },
  };
  return group;
}

/**
 * One `releaseMemory` per thread (Piscina hands each to the least busy thread, so idle threads
 * take one each), then the end of the threads.
 */
async function releaseAndDestroy(pool: Piscina): Promise<void> {
  await Promise.allSettled(pool.threads.map(() => pool.run(null, { name: 'releaseMemory' })));
  await pool.destroy();
}
