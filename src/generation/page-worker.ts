// Runs in a worker thread (see page-pool.ts): parsing a page is CPU work that would otherwise hold
// the API's event loop, a few milliseconds per page to read it and tens to extract it.
import { workerData } from 'node:worker_threads';
import { decodeBody } from '../crawl/charset.ts';
import type { ExtractOptions as LinkOptions } from '../crawl/links.ts';
import type { ExtractedPage } from '../llms-txt/extract.ts';
import { readCrawledPage, type CrawledPageReading } from './crawled-page-reading.ts';
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
  return readCrawledPage(decodeBody(bytes, contentType), url, linkOptions, false);
}

/** Enough for the first pages of a real manual to be read as fast as later ones (measured on PostgreSQL's). */
const WARM_UP_PAGES = 150;

/**
 * Reads a made-up manual's pages, so that the first job's pages find the tokenizer and the
 * outline's code compiled: a service's first job took 1.46-1.55 s without it (the thread then
 * starting with the first page), 1.28-1.32 s with it (docs/decisions.md, issue 12, fourteenth
 * part). Run once, when the service starts.
 */
export function warmUp(): void {
  for (let n = 0; n < WARM_UP_PAGES; n++) {
    read({ bytes: Buffer.from(manualPage(n)), contentType: 'text/html; charset=utf-8', url: `http://manual.invalid/page-${n}.html`, linkOptions: {} });
  }
}

/** A page as documentation generators write them: navigation bars, a contents list, sections of prose and code. */
export function manualPage(n: number): string {
  const contents = Array.from({ length: 30 }, (_, i) => `<li class="toctree-l1"><a class="reference internal" href="section-${n}-${i}.html">${n}.${i}. Section ${i}</a></li>`);
  const sections = Array.from({ length: 20 }, (_, i) =>
    [
      `<div class="section" id="s${i}"><h2>${n}.${i}. A part &amp; its settings<a class="headerlink" href="#s${i}">¶</a></h2>`,
      `<p>Paragraph ${i} explains the <code class="literal">setting_${i}</code>, with a link to <a class="xref" href="other-${i}.html#id" title="Other">another page</a> and enough words to make a sentence.</p>`,
      `<pre class="programlisting">SELECT * FROM t WHERE a = ${i};</pre><dl><dt>term ${i}</dt><dd><p>What the term means.</p></dd></dl>`,
      `<ul class="itemizedlist"><li class="listitem"><p>An item that says something.</p></li></ul></div>`,
    ].join('\n'),
  );
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${n}. Chapter ${n}</title>
<meta name="description" content="What chapter ${n} is about."><link rel="stylesheet" href="style.css"></head><body>
<div class="navheader"><table><tr><td><a accesskey="p" href="page-${n - 1}.html">Prev</a></td><td><a accesskey="u" href="index.html">Up</a></td><td><a accesskey="n" href="page-${n + 1}.html">Next</a></td></tr></table></div>
<div class="chapter"><h1 class="title">${n}. Chapter ${n}</h1><div class="toc"><ul>${contents.join('')}</ul></div>
${sections.join('\n')}</div><div class="navfooter"><a href="index.html">Home</a></div></body></html>`;
}

/**
 * Shrinks the thread's heap to what is alive, just before the pool ends the thread. Node 24's V8
 * keeps the heap pages of an ended thread for 8 seconds, garbage or not (in case another thread
 * wants them): about 60 MB per extraction thread, while the job goes on to render and store its
 * files. Not run between pages: extraction became several times slower when it ran every 50
 * pages (see releaseMemory).
 */
export { releaseMemory } from './heap.ts';
