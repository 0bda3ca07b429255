// What a fetch can fail with, one code per kind of failure, and the translation of whatever the
// network stack threw into it (causes chained by undici, Happy Eyeballs and the address guard).
import { AddressRefusedError } from './address-guard.ts';
import { DecompressedTooLargeError, UnsupportedEncodingError, formatBytes } from './decompress.ts';
import { TooLargeSignal } from './exchange.ts';

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

export function toFetchError(
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
