/**
 * Pages for the generator, as they arrive: the crawler hands over the HTML it already fetched,
 * and the pages only a sitemap listed are fetched here, a few at a time, through the same fetcher
 * and so at the same pace. Nothing is fetched twice. More pages than `maxUrls` are read (see
 * candidateBudget); the generator keeps the most important.
 */
import pLimit from 'p-limit';
import {
  createJobFetchers,
  discover,
  extractLinks,
  MarkdownCopies,
  type BrowserPool,
  type CrawlOptions,
  type DiscoveredUrl,
  type LinkOptions,
  type PageLinks,
  type PathFilters,
  type ReadLinks,
  type RenderMode,
  type ResponseBody,
  type SiteMarkdown,
} from '../crawl/index.ts';
import type { PageInput, PageReading } from '../llms-txt/index.ts';
import { readCrawledPage, type CrawledPageReading } from './crawled-page-reading.ts';

export interface CollectOptions {
  maxUrls: number;
  signal: AbortSignal;
  crawl: CrawlOptions;
  paths: PathFilters;
  /** the number of URLs found so far, then of pages fetched */
  onDiscovered?: (found: number) => void;
  onFetched?: (fetched: number, total: number) => void;
  /** Reads each page's links, outline and hash elsewhere (a worker thread, see PagePool.read); on the event loop when absent. */
  read?: ReadPage;
  /** Whether pages are rendered in a browser first; the pool is required unless `never`. */
  render?: { mode: RenderMode; pool?: BrowserPool };
  /** Look for the markdown the site publishes for its pages (see MarkdownCopies). */
  siteMarkdown?: boolean;
}

type ReadPage = (page: ResponseBody, url: string, linkOptions: LinkOptions) => Promise<CrawledPageReading>;

/** A page with the response it was decoded from (its bytes cross to the generation thread, see generation-thread.ts). */
export type CollectedPage = PageInput & { response: Pick<ResponseBody, 'body' | 'contentType'> };

export interface CollectedPages {
  pages: AsyncIterable<CollectedPage>;
  /** every URL discovery listed, with where it came from; resolved once discovery ends */
  discovered: Promise<DiscoveredUrl[]>;
  /** URLs whose page could not be fetched, with the reason */
  failures: Map<string, string>;
  /** Pages rendered, and whether the site looked built in the browser when none was (see RenderingFetcher). */
  rendering: { readonly rendered: number; readonly looksScriptRendered: boolean };
  /** The site's own markdown copies found, when looked for. */
  markdownCopies: { readonly found: number } | null;
}

const FETCH_CONCURRENCY = 8;

/**
 * Pages read to choose the `maxUrls` listed ones from: the site's navigation decides which pages
 * matter, and it can only rank what was read. Bounded in pages here and in time by the crawl limits.
 */
export function candidateBudget(maxUrls: number): number {
  return Math.min(10 * maxUrls, maxUrls + 2000);
}
/**
 * Pages rendered at most: the listed ones and as many again to choose from. Rendering costs a
 * browser's time, and the pages beyond are mostly not listed (docs/decisions/rendering.md).
 */
export function renderedPagesBudget(maxUrls: number): number {
  return 2 * maxUrls + 10;
}
/** Pages waiting for the generator; the crawler waits when this many are queued. */
const BUFFERED_PAGES = 32;

export function collectPages(siteUrl: string, options: CollectOptions): CollectedPages {
  const channel = new PageChannel(BUFFERED_PAGES);
  const failures = new Map<string, string>();
  const { direct, pages: fetcher, robots, maxPageBytes } = createJobFetchers(options.crawl, {
    mode: options.render?.mode ?? 'never',
    pool: options.render?.pool,
    maxRendered: renderedPagesBudget(options.maxUrls),
  });
  const copies = options.siteMarkdown ? new MarkdownCopies({ fetcher: direct, robots, maxBytes: maxPageBytes, signal: options.signal }) : null;
  // The site's markdown for each page, looked for once its links (and so its announcement) are read.
  const ownMarkdown = (url: string, links: PageLinks | Promise<PageLinks>): Promise<SiteMarkdown | null> | undefined => {
    if (!copies) return undefined;
    const found = Promise.resolve(links).then((read) => copies.find(url, read.markdown));
    found.catch(() => {});
    lookups.push(found);
    return found;
  };
  // The fetcher is closed once these have ended too.
  const lookups: Array<Promise<unknown>> = [];
  const copiesFor = new Map<string, Promise<SiteMarkdown | null> | undefined>();
  const crawled = new Set<string>();
  // Outlines and hashes the crawler's pages as it reads their links, in one parse; each goes with its page.
  const readings = new Map<string, PageReading | Promise<PageReading>>();
  // In the reader's thread; a thread that fails (ended by a shutdown, say) leaves the page to the event loop.
  const readElsewhere = (read: ReadPage, page: ResponseBody, url: string, linkOptions: LinkOptions) =>
    read(page, url, linkOptions).catch(() => readCrawledPage(page.text(), url, linkOptions));
  const readingForGenerator = (reading: Promise<CrawledPageReading>): Promise<PageReading> => {
    const forGenerator = reading.then(({ outline, contentHash }) => ({ outline, contentHash }));
    // Not every page's reading is awaited (a page the crawler does not report, a job stopped).
    forGenerator.catch(() => {});
    return forGenerator;
  };
  const readLinks: ReadLinks = (page, url, linkOptions) => {
    if (!options.read) {
      const { links, ...reading } = readCrawledPage(page.text(), url, linkOptions);
      readings.set(url, reading);
      copiesFor.set(url, ownMarkdown(url, links));
      return links;
    }
    const reading = readElsewhere(options.read, page, url, linkOptions);
    readings.set(url, readingForGenerator(reading));
    const links = reading.then((read) => read.links);
    copiesFor.set(url, ownMarkdown(url, links));
    return links;
  };

  const discovered = (async () => {
    try {
      const result = await discover(
        siteUrl,
        {
          mode: 'full',
          maxUrls: candidateBudget(options.maxUrls),
          paths: options.paths,
          signal: options.signal,
          onProgress: options.onDiscovered,
          onRobots: (origin, rules) => robots.set(origin, rules),
          readLinks,
          onPage: async (page) => {
            crawled.add(page.url);
            const reading = readings.get(page.finalUrl);
            const markdown = copiesFor.get(page.finalUrl);
            readings.delete(page.finalUrl);
            copiesFor.delete(page.finalUrl);
            // Read in a thread, the page stays bytes until the generator wants its HTML; read here, it was decoded.
            await channel.push({ url: page.url, html: options.read ? page.text : page.text(), lastModified: null, reading, ownMarkdown: markdown, response: page });
          },
        },
        { ...options.crawl, fetcher },
      );
      readings.clear();
      copiesFor.clear();
      const lastModified = new Map(result.urls.map((u) => [u.url, u.lastModified]));
      channel.setLastModified(lastModified);
      const toFetch = result.urls.filter((u) => !crawled.has(u.url)).map((u) => u.url);
      let fetched = crawled.size;
      const total = result.urls.length;
      const limit = pLimit(FETCH_CONCURRENCY);
      const fetchOne = async (url: string) => {
        if (options.signal.aborted) return;
        try {
          const response = await fetcher.fetch(url, { signal: options.signal });
          if (response.status !== 200 || !/html/i.test(response.contentType ?? '')) {
            failures.set(url, response.status !== 200 ? `HTTP ${response.status}` : `not HTML (${response.contentType})`);
          } else {
            // With a reader, read in its thread too; else by the generator, on the event loop.
            const read = options.read && readElsewhere(options.read, response, url, {});
            const reading = read ? readingForGenerator(read) : undefined;
            const markdown = copies ? ownMarkdown(url, read ? read.then((r) => r.links) : extractLinks(response.text(), url)) : undefined;
            await channel.push({ url, html: response.text, lastModified: lastModified.get(url) ?? null, reading, ownMarkdown: markdown, response });
          }
        } catch (error) {
          failures.set(url, error instanceof Error ? error.message : String(error));
        }
        options.onFetched?.(++fetched, total);
      };
      await Promise.all(toFetch.map((url) => limit(() => fetchOne(url))));
      channel.close();
      return result.urls;
    } catch (error) {
      channel.close(error);
      throw error;
    } finally {
      await Promise.allSettled(lookups);
      await fetcher.close();
    }
  })();
  // The error reaches the generator through the channel; this promise must not also crash the process.
  discovered.catch(() => {});
  return { pages: channel, discovered, failures, rendering: fetcher, markdownCopies: copies };
}

/** A bounded async queue of pages: push waits while it is full, iteration waits while it is empty. */
class PageChannel implements AsyncIterable<CollectedPage> {
  private readonly buffer: CollectedPage[] = [];
  private closed = false;
  private failure: unknown = null;
  private wakeConsumer: (() => void) | null = null;
  private wakeProducers: Array<() => void> = [];
  private lastModified = new Map<string, string | null>();

  private readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  /** Crawled pages arrive before the sitemap dates are known; they get them on the way out. */
  setLastModified(map: Map<string, string | null>): void {
    this.lastModified = map;
  }

  async push(page: CollectedPage): Promise<void> {
    while (this.buffer.length >= this.capacity && !this.closed) await new Promise<void>((r) => this.wakeProducers.push(r));
    this.buffer.push(page);
    this.wakeConsumer?.();
  }

  close(error?: unknown): void {
    this.closed = true;
    this.failure = error ?? null;
    this.wakeConsumer?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<CollectedPage> {
    for (;;) {
      const page = this.buffer.shift();
      if (page) {
        this.wakeProducers.shift()?.();
        yield { ...page, lastModified: page.lastModified ?? this.lastModified.get(page.url) ?? null };
        continue;
      }
      if (this.closed) {
        if (this.failure) throw this.failure;
        return;
      }
      await new Promise<void>((r) => (this.wakeConsumer = r));
      this.wakeConsumer = null;
    }
  }
}
