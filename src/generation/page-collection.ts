/**
 * Pages for the generator, as they arrive: the crawler hands over the HTML it already fetched,
 * then the pages only a sitemap listed, fetched by the crawler's visits too (discover's `listed`).
 * Nothing is fetched twice. More pages than `maxUrls` are read (see candidateBudget); the
 * generator keeps the most important.
 */
import {
  createJobFetchers,
  discover,
  extractLinks,
  MarkdownCopies,
  type BrowserPool,
  type CrawlOptions,
  type KnownRobots,
  type DiscoveredUrl,
  type LinkOptions,
  type ListedPage,
  type ListedPageHandlers,
  type PageLinks,
  type PathFilters,
  type ReadLinks,
  type RenderingFetcher,
  type RenderMode,
  type ResponseBody,
  type SiteMarkdown,
} from '../crawl/index.ts';
import type { PageReading } from '../llms-txt/index.ts';
import { readCrawledPage, type CrawledPageReading } from './crawled-page-reading.ts';
import { PageChannel, type CollectedPage } from './page-channel.ts';

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

export type { CollectedPage } from './page-channel.ts';

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
  const { direct, pages: fetcher, robots, maxPageBytes } = createJobFetchers(options.crawl, {
    mode: options.render?.mode ?? 'never',
    pool: options.render?.pool,
    maxRendered: renderedPagesBudget(options.maxUrls),
  });
  const copies = options.siteMarkdown ? new MarkdownCopies({ fetcher: direct, robots, maxBytes: maxPageBytes, signal: options.signal }) : null;
  const collection: Collection = {
    options,
    channel: new PageChannel(BUFFERED_PAGES),
    failures: new Map<string, string>(),
    fetcher,
    crawlReading: createCrawlReading(options.read, copies),
  };
  const discovered = crawlThenFetchListed(siteUrl, robots, collection);
  // The error reaches the generator through the channel; this promise must not also crash the process.
  discovered.catch(() => {});
  return { pages: collection.channel, discovered, failures: collection.failures, rendering: fetcher, markdownCopies: copies };
}

/** One job's collection under way: what its parts share. */
interface Collection {
  options: CollectOptions;
  channel: PageChannel;
  failures: Map<string, string>;
  fetcher: RenderingFetcher;
  crawlReading: CrawlReading;
}

/** Crawls the site, handing over its pages as they come, then the pages only a sitemap listed. */
async function crawlThenFetchListed(siteUrl: string, robots: KnownRobots, collection: Collection): Promise<DiscoveredUrl[]> {
  const { options, channel, fetcher, crawlReading } = collection;
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
        readLinks: crawlReading.readLinks,
        onPage: async (page) => {
          const { reading, markdown } = crawlReading.take(page.finalUrl);
          // Read in a thread, the page stays bytes until the generator wants its HTML; read here, it was decoded.
          await channel.push({ url: page.url, html: options.read ? page.text : page.text(), lastModified: null, reading, ownMarkdown: markdown, response: page });
        },
        listed: listedPages(collection),
      },
      { ...options.crawl, fetcher },
    );
    channel.close();
    return result.urls;
  } catch (error) {
    channel.close(error);
    throw error;
  } finally {
    await Promise.allSettled(crawlReading.lookups);
    await fetcher.close();
  }
}

/** The pages the crawl did not hand over, as the crawler fetches them: each handed over when it is HTML, else recorded as a failure with its reason. */
function listedPages(collection: Collection): ListedPageHandlers {
  const { options, channel, failures, crawlReading } = collection;
  let fetched = 0;
  let total = 0;
  return {
    onListed: (urls, handedOver) => {
      crawlReading.clear();
      channel.setLastModified(new Map(urls.map((u) => [u.url, u.lastModified])));
      fetched = handedOver;
      total = urls.length;
    },
    onPage: async (page) => {
      await handOverListed(page, collection);
      options.onFetched?.(++fetched, total);
    },
    onMissed: (url, reason) => {
      failures.set(url, reason);
      options.onFetched?.(++fetched, total);
    },
  };
}

/** One listed page to the generator; with a reader, read in its thread too, else by the generator, on the event loop. */
async function handOverListed(page: ListedPage, { options, channel, crawlReading }: Collection): Promise<void> {
  const { url, lastModified } = page;
  const read = options.read && readElsewhere(options.read, page, url, {});
  const reading = read ? readingForGenerator(read) : undefined;
  const markdown = crawlReading.hasCopies ? crawlReading.ownMarkdown(url, read ? read.then((r) => r.links) : extractLinks(page.text(), url)) : undefined;
  await channel.push({ url, html: page.text, lastModified, reading, ownMarkdown: markdown, response: page });
}

/** The crawler's pages read as it reads their links, each page's reading and markdown lookup kept until the page is handed over. */
interface CrawlReading {
  readLinks: ReadLinks;
  /** The reading and markdown lookup of a crawled page, forgotten once taken. */
  take(url: string): { reading?: PageReading | Promise<PageReading>; markdown?: Promise<SiteMarkdown | null> };
  clear(): void;
  hasCopies: boolean;
  /** The site's markdown for a page, looked for once its links (and so its announcement) are read. */
  ownMarkdown(url: string, links: PageLinks | Promise<PageLinks>): Promise<SiteMarkdown | null> | undefined;
  /** The markdown lookups started; the fetcher is closed once these have ended too. */
  lookups: Array<Promise<unknown>>;
}

function createCrawlReading(read: ReadPage | undefined, copies: MarkdownCopies | null): CrawlReading {
  const lookups: Array<Promise<unknown>> = [];
  const ownMarkdown = (url: string, links: PageLinks | Promise<PageLinks>): Promise<SiteMarkdown | null> | undefined => {
    if (!copies) return undefined;
    const found = Promise.resolve(links).then((read) => copies.find(url, read.markdown));
    found.catch(() => {});
    lookups.push(found);
    return found;
  };
  const copiesFor = new Map<string, Promise<SiteMarkdown | null> | undefined>();
  // Outlines and hashes the crawler's pages as it reads their links, in one parse; each goes with its page.
  const readings = new Map<string, PageReading | Promise<PageReading>>();
  const readLinks: ReadLinks = (page, url, linkOptions) => {
    if (!read) {
      const { links, ...reading } = readOnEventLoop(page, url, linkOptions);
      readings.set(url, reading);
      copiesFor.set(url, ownMarkdown(url, links));
      return links;
    }
    const reading = readElsewhere(read, page, url, linkOptions);
    readings.set(url, readingForGenerator(reading));
    const links = reading.then((read) => read.links);
    copiesFor.set(url, ownMarkdown(url, links));
    return links;
  };
  const take = (url: string) => {
    const taken = { reading: readings.get(url), markdown: copiesFor.get(url) };
    readings.delete(url);
    copiesFor.delete(url);
    return taken;
  };
  const clear = () => {
    readings.clear();
    copiesFor.clear();
  };
  return { readLinks, take, clear, hasCopies: copies !== null, ownMarkdown, lookups };
}

/** In the reader's thread; a thread that fails (ended by a shutdown, say) leaves the page to the event loop. */
function readElsewhere(read: ReadPage, page: ResponseBody, url: string, linkOptions: LinkOptions): Promise<CrawledPageReading> {
  return read(page, url, linkOptions).catch(() => readOnEventLoop(page, url, linkOptions));
}

function readOnEventLoop(page: ResponseBody, url: string, linkOptions: LinkOptions): CrawledPageReading {
  return readCrawledPage(page.text(), url, linkOptions, { utf8: page.bytesAreUtf8Text() ? page.body : undefined });
}

function readingForGenerator(reading: Promise<CrawledPageReading>): Promise<PageReading> {
  const forGenerator = reading.then(({ outline, contentHash }) => ({ outline, contentHash }));
  // Not every page's reading is awaited (a page the crawler does not report, a job stopped).
  forGenerator.catch(() => {});
  return forGenerator;
}
