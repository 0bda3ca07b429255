// One HTTP client per job: keep-alive connections through the address guard, redirects
// followed by hand (each hop re-checked), and a bound on every dimension a server controls.
import type { IncomingHttpHeaders } from 'node:http';
import type { Agent } from 'undici';
import { assertHostAllowed, createGuardedAgent, type GuardOptions } from './address-guard.ts';
import { decodePage } from './charset.ts';
import { decodeContentEncoding } from './decompress.ts';
import { EMPTY, exchange, headerValue } from './exchange.ts';
import { FetchError, toFetchError } from './fetch-error.ts';
import { DEFAULT_CRAWL_LIMITS, USER_AGENT, type CrawlLimits } from './limits.ts';
import { normalizeUrl } from './normalize-url.ts';
import { timeBudget } from './time-budget.ts';

export interface FetcherOptions extends GuardOptions {
  userAgent?: string;
  limits?: Partial<Pick<CrawlLimits, 'requestTimeoutMs' | 'maxPageBytes' | 'maxRedirects' | 'maxUrlLength' | 'concurrencyPerHost'>>;
}

export interface FetchOptions {
  signal?: AbortSignal;
  /** Accept header; defaults to HTML first. */
  accept?: string;
  /** Cap on the body, on the wire and decompressed. Defaults to limits.maxPageBytes. */
  maxBytes?: number;
  /** Keep the first maxBytes instead of failing (robots.txt). */
  truncate?: boolean;
  /** When it returns false for the response's Content-Type, the body is not downloaded. */
  wantBody?: (contentType: string | null) => boolean;
  timeoutMs?: number;
}

/** A response's body as it arrived (decompressed), with what it takes to decode it. */
export interface ResponseBody {
  contentType: string | null;
  /** Decompressed bytes; empty for non-2xx responses and for bodies `wantBody` declined. */
  body: Buffer;
  /** The body decoded by its charset (header, BOM, <meta>), once, on the first call; never throws. */
  text(): string;
  /** Whether `body` is text()'s UTF-8 byte for byte (see decodePage): hashed for the text, it need not be encoded again. */
  bytesAreUtf8Text(): boolean;
}

export interface FetchResponse extends ResponseBody {
  /** URL of the last hop, normalized. */
  url: string;
  status: number;
  headers: IncomingHttpHeaders;
  bodySkipped: boolean;
  redirects: string[];
}

export interface Fetcher {
  fetch(url: string, options?: FetchOptions): Promise<FetchResponse>;
  /**
   * The host's politeness (robots.txt Crawl-delay, or the configured delay): the least time between
   * the starts of two requests. One fetcher serves a whole job, so crawled pages and pages only a
   * sitemap listed keep the same pace.
   */
  pace(intervalMs: number): void;
  close(): Promise<void>;
}

const DEFAULT_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

export function createFetcher(options: FetcherOptions = {}): Fetcher {
  const limits = { ...DEFAULT_CRAWL_LIMITS, ...options.limits };
  const guard: GuardOptions = { allowPrivate: options.allowPrivate, resolve: options.resolve, isAllowedAddress: options.isAllowedAddress };
  const agent = createGuardedAgent({ ...guard, connections: limits.concurrencyPerHost, connectTimeoutMs: limits.requestTimeoutMs });
  const userAgent = options.userAgent ?? USER_AGENT;
  const pacer = new Pacer();

  async function fetchUrl(input: string, fetchOptions: FetchOptions = {}): Promise<FetchResponse> {
    const start = normalizeUrl(input, undefined, limits.maxUrlLength);
    if (!start) throw new FetchError('BAD_URL', `Not a fetchable http(s) URL: ${truncateUrl(input)}`, input);
    await pacer.turn(fetchOptions.signal);
    const timeoutMs = fetchOptions.timeoutMs ?? limits.requestTimeoutMs;
    const maxBytes = fetchOptions.maxBytes ?? limits.maxPageBytes;

    // One timer for the whole exchange, redirects and body included: a server dripping a
    // byte a second never trips an idle timeout, but it does trip this.
    const budget = timeBudget(timeoutMs, fetchOptions.signal);

    let url = start;
    const redirects: string[] = [];
    const seen = new Set([start]);
    try {
      for (;;) {
        const response = await requestOnce(agent, guard, url, fetchOptions, budget.signal, userAgent, maxBytes);
        if (response.redirectTo === undefined) return { ...response.result, redirects };
        const next = normalizeUrl(response.redirectTo, url, limits.maxUrlLength);
        if (!next) throw new FetchError('BAD_URL', `Redirect to a non-http(s) or invalid URL from ${url}`, url);
        if (seen.has(next)) throw new FetchError('REDIRECT_LOOP', `Redirect loop: ${next} was already visited`, url);
        if (redirects.length >= limits.maxRedirects) {
          throw new FetchError('TOO_MANY_REDIRECTS', `Too many redirects (more than ${limits.maxRedirects}) from ${start}`, url);
        }
        seen.add(next);
        redirects.push(url);
        url = next;
      }
    } catch (err) {
      throw toFetchError(err, url, { aborted: fetchOptions.signal?.aborted === true, timedOut: budget.signal.aborted, timeoutMs, maxBytes });
    } finally {
      budget.release();
    }
  }

  return {
    fetch: fetchUrl,
    pace: (intervalMs) => pacer.pace(intervalMs),
    close: () => agent.close(),
  };
}

interface OnceResult {
  redirectTo?: string;
  result: Omit<FetchResponse, 'redirects'>;
}

async function requestOnce(
  agent: Agent,
  guard: GuardOptions,
  url: string,
  options: FetchOptions,
  signal: AbortSignal,
  userAgent: string,
  maxBytes: number,
): Promise<OnceResult> {
  const parsed = new URL(url);
  // The connector checks too; checking here fails fast (an unroutable 10.x address would
  // otherwise only end with the connect timeout) and names the hop in the error.
  assertHostAllowed(parsed.hostname, guard);
  const raw = await exchange(agent, parsed, signal, {
    headers: { 'user-agent': userAgent, accept: options.accept ?? DEFAULT_ACCEPT, 'accept-encoding': 'gzip, deflate, br' },
    maxBytes,
    truncate: options.truncate === true,
    wantBody: options.wantBody,
  });
  const contentType = headerValue(raw.headers['content-type']);
  if (raw.redirectTo !== null) {
    return { redirectTo: raw.redirectTo, result: makeResult(url, raw.status, contentType, raw.headers, EMPTY, false) };
  }
  let bytes = raw.body;
  const encoding = headerValue(raw.headers['content-encoding']);
  if (encoding && !raw.skipped) bytes = await decodeContentEncoding(bytes, encoding, maxBytes);
  return { result: makeResult(url, raw.status, contentType, raw.headers, bytes, raw.skipped) };
}

function makeResult(
  url: string,
  status: number,
  contentType: string | null,
  headers: IncomingHttpHeaders,
  body: Buffer,
  bodySkipped: boolean,
): Omit<FetchResponse, 'redirects'> {
  let decoded: ReturnType<typeof decodePage> | undefined;
  return {
    url,
    status,
    contentType,
    headers,
    body,
    bodySkipped,
    text: () => (decoded ??= decodePage(body, contentType)).text,
    bytesAreUtf8Text: () => (decoded ??= decodePage(body, contentType)).bytesAreUtf8Text,
  };
}

/** The least time between the starts of two requests (see Fetcher.pace). */
class Pacer {
  private interval = 0;
  private nextStartAt = 0;

  pace(intervalMs: number) {
    this.interval = Math.max(0, intervalMs);
  }

  async turn(signal: AbortSignal | undefined) {
    if (this.interval <= 0) return;
    const now = Date.now();
    const wait = this.nextStartAt - now;
    this.nextStartAt = Math.max(now, this.nextStartAt) + this.interval;
    if (wait > 0) await sleep(wait, signal);
  }
}

function truncateUrl(url: string): string {
  return url.length > 200 ? url.slice(0, 200) + '…' : url;
}

/** Resolves after `ms`, or at once when the signal aborts (the request then fails as aborted). */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
