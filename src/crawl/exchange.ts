// One request/response through undici's dispatch API, its body kept within the caller's bounds.
import type { IncomingHttpHeaders } from 'node:http';
import type { Agent, Dispatcher } from 'undici';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
export const EMPTY = Buffer.alloc(0);

export interface RawExchange {
  status: number;
  headers: IncomingHttpHeaders;
  redirectTo: string | null;
  body: Buffer;
  /** The body was not kept (error status, redirect, or a type the caller did not want). */
  skipped: boolean;
}

export interface ExchangeOptions {
  headers: Record<string, string>;
  maxBytes: number;
  truncate: boolean;
  wantBody?: (contentType: string | null) => boolean;
}

/** Bodies we do not keep are still read this far, so the connection can be reused. */
const DISCARD_LIMIT = 64 * 1024;

/** Thrown inside the exchange when the body outgrows maxBytes; the fetcher names the failure. */
export class TooLargeSignal extends Error {}

/**
 * One request/response through undici's dispatch API: the body arrives as plain chunks
 * in callbacks, with no stream, async iterator or AbortSignal plumbing per request (the
 * crawler makes hundreds of these a second).
 */
export function exchange(agent: Agent, url: URL, signal: AbortSignal, options: ExchangeOptions): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const handler = new BodyCollector(options, signal, resolve, reject);
    try {
      agent.dispatch({ origin: url.origin, path: url.pathname + url.search, method: 'GET', headers: options.headers }, handler);
    } catch (err) {
      handler.settle(err);
    }
  });
}

/** Collects one response's status, headers and (when wanted, up to the cap) body, then settles once. */
class BodyCollector implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | null = null;
  private settled = false;
  private keep = true;
  private size = 0;
  private readonly chunks: Buffer[] = [];
  private readonly response: RawExchange = { status: 0, headers: {}, redirectTo: null, body: EMPTY, skipped: false };
  private readonly options: ExchangeOptions;
  private readonly signal: AbortSignal;
  private readonly resolve: (response: RawExchange) => void;
  private readonly reject: (err: unknown) => void;
  private readonly onAbort = () => this.settle(this.signal.reason ?? new Error('aborted'), new Error('aborted'));

  constructor(options: ExchangeOptions, signal: AbortSignal, resolve: (response: RawExchange) => void, reject: (err: unknown) => void) {
    this.options = options;
    this.signal = signal;
    this.resolve = resolve;
    this.reject = reject;
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  settle(err: unknown, abortReason?: Error) {
    if (this.settled) return;
    this.settled = true;
    this.signal.removeEventListener('abort', this.onAbort);
    if (err) this.reject(err);
    else {
      if (this.keep) this.response.body = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.size);
      this.resolve(this.response);
    }
    if (abortReason) this.controller?.abort(abortReason);
  }

  onRequestStart(controller: Dispatcher.DispatchController) {
    this.controller = controller;
    if (this.settled) controller.abort(new Error('aborted'));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders) {
    const { response, options } = this;
    response.status = status;
    response.headers = headers;
    const location = headerValue(headers.location);
    if (REDIRECT_STATUSES.has(status) && location) response.redirectTo = location;
    const contentType = headerValue(headers['content-type']);
    if (response.redirectTo !== null || status < 200 || status > 299 || (options.wantBody && !options.wantBody(contentType))) {
      this.keep = false;
      response.skipped = response.redirectTo === null;
      return;
    }
    const declared = Number(headerValue(headers['content-length']));
    if (!options.truncate && declared > options.maxBytes) this.settle(new TooLargeSignal(), new TooLargeSignal());
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer) {
    if (this.settled) return;
    const { maxBytes, truncate } = this.options;
    this.size += chunk.length;
    if (!this.keep) {
      if (this.size > DISCARD_LIMIT) this.settle(null, new Error('body not needed'));
      return;
    }
    if (this.size <= maxBytes) {
      this.chunks.push(chunk);
      return;
    }
    if (!truncate) return this.settle(new TooLargeSignal(), new TooLargeSignal());
    this.chunks.push(chunk.subarray(0, chunk.length - (this.size - maxBytes)));
    this.size = maxBytes;
    this.settle(null, new Error('truncated'));
  }

  onResponseEnd() {
    this.settle(null);
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error) {
    this.settle(err);
  }
}

export function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? (value[0] ?? null) : value;
}
