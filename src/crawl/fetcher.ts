// One HTTP client per job: keep-alive connections through the address guard, redirects
// followed by hand (each hop re-checked), and a bound on every dimension a server controls.
import type { IncomingHttpHeaders } from 'node:http';
import type { Agent, Dispatcher } from 'undici';
import { AddressRefusedError, assertHostAllowed, createGuardedAgent, type GuardOptions } from './address-guard.ts';
import { decodeBody } from './charset.ts';
import { DecompressedTooLargeError, UnsupportedEncodingError, decodeContentEncoding, formatBytes } from './decompress.ts';
import { DEFAULT_CRAWL_LIMITS, USER_AGENT, type CrawlLimits } from './limits.ts';
import { normalizeUrl } from './normalize-url.ts';

export type FetchErrorCode =
  | 'BAD_URL'
  | 'REFUSED_ADDRESS'
  | 'DNS'
  | 'CONNECTION'
  | 'TIMEOUT'
  | 'ABORTED'
  | 'TOO_LARGE'
  | 'TOO_MANY_REDIRECTS'
  | 'REDIRECT_LOOP'
  | 'BAD_ENCODING';

export class FetchError extends Error {
  readonly code: FetchErrorCode;
  readonly url: string;
  constructor(code: FetchErrorCode, message: string, url: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.url = url;
    this.name = 'FetchError';
  }
}

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
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const EMPTY = Buffer.alloc(0);

export function createFetcher(options: FetcherOptions = {}): Fetcher {
  const limits = { ...DEFAULT_CRAWL_LIMITS, ...options.limits };
  const guard: GuardOptions = { allowPrivate: options.allowPrivate, resolve: options.resolve, isAllowedAddress: options.isAllowedAddress };
  const agent = createGuardedAgent({ ...guard, connections: limits.concurrencyPerHost, connectTimeoutMs: limits.requestTimeoutMs });
  const userAgent = options.userAgent ?? USER_AGENT;

  let interval = 0;
  let nextStartAt = 0;
  async function politeTurn(signal: AbortSignal | undefined) {
    if (interval <= 0) return;
    const now = Date.now();
    const wait = nextStartAt - now;
    nextStartAt = Math.max(now, nextStartAt) + interval;
    if (wait > 0) await sleep(wait, signal);
  }

  async function fetchUrl(input: string, fetchOptions: FetchOptions = {}): Promise<FetchResponse> {
    const start = normalizeUrl(input, undefined, limits.maxUrlLength);
    if (!start) throw new FetchError('BAD_URL', `Not a fetchable http(s) URL: ${truncateUrl(input)}`, input);
    await politeTurn(fetchOptions.signal);
    const timeoutMs = fetchOptions.timeoutMs ?? limits.requestTimeoutMs;
    const maxBytes = fetchOptions.maxBytes ?? limits.maxPageBytes;

    // One timer for the whole exchange, redirects and body included: a server dripping a
    // byte a second never trips an idle timeout, but it does trip this.
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const outer = fetchOptions.signal;
    const onOuterAbort = () => controller.abort();
    if (outer?.aborted) controller.abort();
    else outer?.addEventListener('abort', onOuterAbort, { once: true });

    let url = start;
    const redirects: string[] = [];
    const seen = new Set([start]);
    try {
      for (;;) {
        const response = await requestOnce(agent, guard, url, fetchOptions, controller.signal, userAgent, maxBytes);
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
      throw toFetchError(err, url, { aborted: outer?.aborted === true, timedOut: controller.signal.aborted, timeoutMs, maxBytes });
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    }
  }

  return {
    fetch: fetchUrl,
    pace: (intervalMs) => {
      interval = Math.max(0, intervalMs);
    },
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

interface RawExchange {
  status: number;
  headers: IncomingHttpHeaders;
  redirectTo: string | null;
  body: Buffer;
  /** The body was not kept (error status, redirect, or a type the caller did not want). */
  skipped: boolean;
}

/** Bodies we do not keep are still read this far, so the connection can be reused. */
const DISCARD_LIMIT = 64 * 1024;

/**
 * One request/response through undici's dispatch API: the body arrives as plain chunks
 * in callbacks, with no stream, async iterator or AbortSignal plumbing per request (the
 * crawler makes hundreds of these a second).
 */
function exchange(
  agent: Agent,
  url: URL,
  signal: AbortSignal,
  options: { headers: Record<string, string>; maxBytes: number; truncate: boolean; wantBody?: (contentType: string | null) => boolean },
): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | null = null;
    let settled = false;
    let keep = true;
    let size = 0;
    const chunks: Buffer[] = [];
    const response: RawExchange = { status: 0, headers: {}, redirectTo: null, body: EMPTY, skipped: false };

    const settle = (err: unknown, abortReason?: Error) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else {
        if (keep) response.body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
        resolve(response);
      }
      if (abortReason) controller?.abort(abortReason);
    };
    const onAbort = () => settle(signal.reason ?? new Error('aborted'), new Error('aborted'));
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        if (settled) c.abort(new Error('aborted'));
      },
      onResponseStart(_controller, status, headers) {
        response.status = status;
        response.headers = headers;
        const location = headerValue(headers.location);
        if (REDIRECT_STATUSES.has(status) && location) response.redirectTo = location;
        const contentType = headerValue(headers['content-type']);
        if (response.redirectTo !== null || status < 200 || status > 299 || (options.wantBody && !options.wantBody(contentType))) {
          keep = false;
          response.skipped = response.redirectTo === null;
          return;
        }
        const declared = Number(headerValue(headers['content-length']));
        if (!options.truncate && declared > options.maxBytes) settle(new TooLargeSignal(), new TooLargeSignal());
      },
      onResponseData(_controller, chunk) {
        if (settled) return;
        size += chunk.length;
        if (!keep) {
          if (size > DISCARD_LIMIT) settle(null, new Error('body not needed'));
          return;
        }
        if (size <= options.maxBytes) {
          chunks.push(chunk);
          return;
        }
        if (!options.truncate) return settle(new TooLargeSignal(), new TooLargeSignal());
        chunks.push(chunk.subarray(0, chunk.length - (size - options.maxBytes)));
        size = options.maxBytes;
        settle(null, new Error('truncated'));
      },
      onResponseEnd() {
        settle(null);
      },
      onResponseError(_c, err) {
        settle(err);
      },
    };
    try {
      agent.dispatch({ origin: url.origin, path: url.pathname + url.search, method: 'GET', headers: options.headers }, handler);
    } catch (err) {
      settle(err);
    }
  });
}

class TooLargeSignal extends Error {}

function makeResult(
  url: string,
  status: number,
  contentType: string | null,
  headers: IncomingHttpHeaders,
  body: Buffer,
  bodySkipped: boolean,
): Omit<FetchResponse, 'redirects'> {
  let text: string | undefined;
  return {
    url,
    status,
    contentType,
    headers,
    body,
    bodySkipped,
    text: () => (text ??= decodeBody(body, contentType)),
  };
}

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? (value[0] ?? null) : value;
}

function toFetchError(
  err: unknown,
  url: string,
  context: { aborted: boolean; timedOut: boolean; timeoutMs: number; maxBytes: number },
): FetchError {
  if (err instanceof FetchError) return err;
  if (err instanceof TooLargeSignal || err instanceof DecompressedTooLargeError) {
    return new FetchError('TOO_LARGE', `Response larger than ${formatBytes(context.maxBytes)}: ${url}`, url);
  }
  if (err instanceof UnsupportedEncodingError) return new FetchError('BAD_ENCODING', `${err.message}: ${url}`, url);
  const refused = findCause(err, (e) => e instanceof AddressRefusedError);
  if (refused) return new FetchError('REFUSED_ADDRESS', refused.message, url, { cause: refused });
  if (context.aborted) return new FetchError('ABORTED', `Aborted: ${url}`, url, { cause: err });
  if (context.timedOut) {
    return new FetchError('TIMEOUT', `Timed out after ${context.timeoutMs / 1000} s: ${url}`, url, { cause: err });
  }
  const code = (findCause(err, (e) => typeof (e as NodeJS.ErrnoException).code === 'string') as NodeJS.ErrnoException | null)?.code;
  const host = safeHost(url);
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
    case 'EAI_NODATA':
      return new FetchError('DNS', `Could not resolve host ${host}`, url, { cause: err });
    case 'ECONNREFUSED':
      return new FetchError('CONNECTION', `Connection refused by ${host}`, url, { cause: err });
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'ETIMEDOUT':
      return new FetchError('TIMEOUT', `Timed out: ${url}`, url, { cause: err });
    default: {
      const detail = err instanceof Error ? err.message : String(err);
      return new FetchError('CONNECTION', `Could not fetch ${url}: ${detail}`, url, { cause: err });
    }
  }
}

/** Looks through `cause` chains and AggregateErrors (Happy Eyeballs reports one per address). */
function findCause(err: unknown, predicate: (e: Error) => boolean, depth = 0): Error | null {
  if (!(err instanceof Error) || depth > 5) return null;
  if (predicate(err)) return err;
  if (err instanceof AggregateError) {
    for (const inner of err.errors) {
      const found = findCause(inner, predicate, depth + 1);
      if (found) return found;
    }
  }
  return findCause(err.cause, predicate, depth + 1);
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
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
