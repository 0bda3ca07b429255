// Runs in a worker thread (see page-pool.ts): parsing a page is CPU work that would otherwise hold
// the API's event loop, a few milliseconds per page to read it and tens to extract it.
import { workerData } from 'node:worker_threads';
import { decodePage } from '../crawl/charset.ts';
import type { ExtractOptions as LinkOptions } from '../crawl/links.ts';
import type { ExtractedPage } from '../llms-txt/extract.ts';
import { readCrawledPage, type CrawledPageReading } from './crawled-page-reading.ts';
import { readMadeUpManual } from './made-up-manual.ts';
import { lowerThreadPriority, PAGE_THREAD_NICENESS } from './thread-priority.ts';

/** What a thread of the pool is for (see defaultPageThreads). */
export interface PageWorkerData {
  /** below the event loop and the generation threads: an extracting thread */
  lowered: boolean;
}

if ((workerData as PageWorkerData | null)?.lowered) lowerThreadPriority(PAGE_THREAD_NICENESS);

// Loaded by the first page to extract: a thread that only reads links and outlines (every
// `simple` job without llms-full.txt) does without linkedom, Readability and turndown: an idle
// service held 16 MB less.
export async function extract(task: ExtractTask): Promise<ExtractedPage> {
  const { extractPage } = await import('../llms-txt/extract.ts');
  return extractPage(task.html, task.url, {}, { content: task.content });
}

/** A page to extract; `content`: its content facts too, from the same parse (see extractPage). */
export interface ExtractTask {
  html: string;
  url: string;
  content: boolean;
}

/** A page's bytes as they arrived, handed over (see PagePool.read): decoded, hashed and read here. */
export interface ReadTask {
  bytes: Uint8Array;
  contentType: string | null;
  url: string;
  linkOptions: LinkOptions;
}

export function read({ bytes, contentType, url, linkOptions }: ReadTask): CrawledPageReading {
  const page = decodePage(bytes, contentType);
  return readCrawledPage(page.text, url, linkOptions, { copy: false, utf8: page.bytesAreUtf8Text ? bytes : undefined });
}

/** The made-up manual read here when the service starts (see readMadeUpManual). */
export function warmUp(): void {
  readMadeUpManual((html, url) => read({ bytes: Buffer.from(html), contentType: 'text/html; charset=utf-8', url, linkOptions: {} }));
}

/**
 * Shrinks the thread's heap to what is alive, just before the pool ends the thread. Node 24's V8
 * keeps the heap pages of an ended thread for 8 seconds, garbage or not (in case another thread
 * wants them): about 60 MB per extraction thread, while the job goes on to render and store its
 * files. Not run between pages: extraction became several times slower when it ran every 50
 * pages (see releaseMemory).
 */
export { releaseMemory } from './heap.ts';
