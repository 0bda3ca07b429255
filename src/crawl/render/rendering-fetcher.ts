/**
 * A fetcher whose HTML pages come back rendered: the page is fetched as always, then, when the job
 * asks for it (`always`, or `auto` and the page looks like an application shell), rendered in the
 * browser from the fetched HTML, and the rendered HTML stands for the page's body. Everything after
 * (links, reading, extraction) is the same as for a fetched page. A page that does not render within
 * its budgets keeps its fetched HTML.
 */
import { isHtmlContentType } from '../page-visits.ts';
import type { Fetcher, FetchOptions, FetchResponse } from '../fetcher.ts';
import type { KnownRobots } from '../known-robots.ts';
import { looksLikeAppShell } from './app-shell.ts';
import type { BrowserPool } from './browser-pool.ts';
import type { RenderMode } from './modes.ts';
import { renderPage } from './render-page.ts';


/** Pages looked at, when not rendering, to tell whether the site builds its pages in the browser. */
const SHELL_SAMPLE = 5;

export interface RenderingFetcher extends Fetcher {
  /** Pages rendered so far. */
  readonly rendered: number;
  /** True when every page of the first few looked like an application shell (and none was rendered). */
  readonly looksScriptRendered: boolean;
}

export interface RenderingOptions {
  mode: RenderMode;
  /** required unless `mode` is never */
  pool?: BrowserPool;
  /** the largest page, rendered or fetched */
  maxPageBytes: number;
  /** what the browser may request of the site */
  robots: KnownRobots;
  /** pages rendered at most; later ones keep their fetched HTML */
  maxRendered?: number;
}

export function createRenderingFetcher(inner: Fetcher, options: RenderingOptions): RenderingFetcher {
  let rendered = 0;
  const sample = { pages: 0, shells: 0 };

  /** Same origin as the page, allowed by its robots.txt, and fetched through the guard without leaving the origin. */
  const fetchResource = (origin: string) => async (url: string, signal: AbortSignal) => {
    const target = new URL(url);
    if (target.origin !== origin || !(await options.robots.allows(target, signal))) return null;
    const response = await inner.fetch(target.href, { signal, accept: '*/*', maxBytes: options.maxPageBytes });
    if (new URL(response.url).origin !== origin) return null;
    return { status: response.status, contentType: response.contentType, body: response.body };
  };

  async function render(response: FetchResponse, fetchOptions: FetchOptions): Promise<FetchResponse> {
    const origin = new URL(response.url).origin;
    const pool = options.pool!;
    const html = await pool.use((browser) =>
      renderPage(browser, {
        url: response.url,
        html: response.body,
        contentType: response.contentType ?? 'text/html',
        fetchResource: fetchResource(origin),
        timeoutMs: pool.settings.pageTimeoutMs,
        maxBytes: options.maxPageBytes,
        signal: fetchOptions.signal,
      }),
    );
    if (html === null) return response;
    rendered++;
    const body = Buffer.from(html);
    return { ...response, contentType: 'text/html; charset=utf-8', body, text: () => html, bytesAreUtf8Text: () => true };
  }

  return {
    async fetch(url, fetchOptions = {}) {
      const response = await inner.fetch(url, fetchOptions);
      if (response.status !== 200 || response.bodySkipped || response.body.length === 0 || !isHtmlContentType(response.contentType)) return response;
      if (rendered >= (options.maxRendered ?? Infinity)) return response;
      if (options.mode === 'always') return render(response, fetchOptions);
      if (options.mode === 'auto') return looksLikeAppShell(response.text()) ? render(response, fetchOptions) : response;
      if (sample.pages < SHELL_SAMPLE) {
        sample.pages++;
        if (looksLikeAppShell(response.text())) sample.shells++;
      }
      return response;
    },
    pace: (intervalMs) => inner.pace(intervalMs),
    close: () => inner.close(),
    get rendered() {
      return rendered;
    },
    get looksScriptRendered() {
      return rendered === 0 && sample.pages > 0 && sample.shells === sample.pages;
    },
  };
}
