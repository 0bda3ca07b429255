/**
 * One page rendered in a browser context of its own. The page's document is the HTML the crawler
 * already fetched (no second request); each request the page's scripts make is answered by
 * `fetchResource` (the crawler's fetcher: address guard, robots.txt) or refused; every navigation
 * after the first is answered 204, which leaves the page where it is. The page has a time budget
 * and a byte budget, and ends with its context.
 */
import type { Browser, Route } from 'playwright-core';

export interface RenderInput {
  url: string;
  html: Buffer;
  contentType: string;
  /**
   * The bytes of a subresource the page asks for, or null to refuse it. Only GET requests of the
   * kinds not in NOT_LOADED reach it.
   */
  fetchResource(url: string, signal: AbortSignal): Promise<{ status: number; contentType: string | null; body: Buffer } | null>;
  timeoutMs: number;
  /** the largest rendered HTML, and the most bytes the page's requests may bring in */
  maxBytes: number;
  signal?: AbortSignal;
}

/** What is not loaded at all: it cannot change the page's text or links. */
const NOT_LOADED = new Set(['image', 'media', 'font', 'stylesheet', 'texttrack', 'manifest', 'other', 'beacon', 'ping', 'csp_report']);
/** Requests one page may make. */
const MAX_REQUESTS = 200;
/**
 * How long the page must be without a request in flight for its rendering to count as done: long
 * enough for a script to start its next request after one ends, on a busy machine too (150 ms
 * lost the second request of a page now and then).
 */
const QUIET_MS = 500;
/** A healthy browser opens a page in well under a second; a busy machine may take several. */
const SETUP_TIMEOUT_MS = 30_000;

/** The rendered HTML, or null when the page did not render within its budgets. */
export async function renderPage(browser: Browser, input: RenderInput): Promise<string | null> {
  const context = await browser.newContext({ serviceWorkers: 'block', acceptDownloads: false, javaScriptEnabled: true });
  const traffic = { inFlight: 0, requests: 0, bytes: 0, lastEnded: Date.now(), documentServed: false };
  try {
    // The browser's own work (a renderer process for the page) is not the page's: its budget starts at navigation.
    const page = await untilAborted(context.newPage(), AbortSignal.any([AbortSignal.timeout(SETUP_TIMEOUT_MS), ...(input.signal ? [input.signal] : [])]));
    if (!page) return null;
    const budget = AbortSignal.any([AbortSignal.timeout(input.timeoutMs), ...(input.signal ? [input.signal] : [])]);
    await context.route('**/*', (route) => answer(route, input, traffic, budget));
    const rendering = (async () => {
      await page.goto(input.url, { waitUntil: 'load', timeout: input.timeoutMs });
      // The quiet counts from the load too: on a busy machine the load can come more than QUIET_MS
      // after the last script was served, before the requests those scripts then start reach us.
      traffic.lastEnded = Math.max(traffic.lastEnded, Date.now());
      while (!budget.aborted && (traffic.inFlight > 0 || Date.now() - traffic.lastEnded < QUIET_MS)) await delay(QUIET_MS / 3);
      return page.content();
    })();
    const html = await untilAborted(rendering, budget);
    return html !== null && Buffer.byteLength(html) <= input.maxBytes ? html : null;
  } catch {
    return null;
  } finally {
    // A page stuck in a script does not stop its context from closing (its renderer is ended).
    await context.close().catch(() => {});
  }
}

type Traffic = { inFlight: number; requests: number; bytes: number; lastEnded: number; documentServed: boolean };

async function answer(route: Route, input: RenderInput, traffic: Traffic, budget: AbortSignal): Promise<void> {
  const request = route.request();
  try {
    if (request.isNavigationRequest()) {
      if (traffic.documentServed || request.frame().parentFrame() !== null) return await route.fulfill({ status: 204 });
      traffic.documentServed = true;
      return await route.fulfill({ status: 200, contentType: input.contentType, body: input.html });
    }
    if (budget.aborted || request.method() !== 'GET' || NOT_LOADED.has(request.resourceType()) || ++traffic.requests > MAX_REQUESTS) {
      return await route.abort('blockedbyclient');
    }
    traffic.inFlight++;
    try {
      const resource = await input.fetchResource(request.url(), budget).catch(() => null);
      traffic.bytes += resource?.body.length ?? 0;
      if (!resource || traffic.bytes > input.maxBytes) return await route.abort('blockedbyclient');
      await route.fulfill({ status: resource.status, contentType: resource.contentType ?? undefined, body: resource.body });
    } finally {
      traffic.inFlight--;
      traffic.lastEnded = Date.now();
    }
  } catch {
    // The page or its context closed meanwhile: nobody waits for this answer.
  }
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | null> {
  work.catch(() => {});
  if (signal.aborted) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(null);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
