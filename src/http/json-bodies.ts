/**
 * What a request body may be: how large (per route) and, for JSON, how deeply nested. Bodies of
 * this API are small and flat; a large or deep one is refused before it costs parsing.
 */
import { errors } from '../errors.ts';
import type { App } from './types.ts';

/**
 * Body size limits in bytes. Most routes take a few fields; the job routes take path patterns
 * (at most 2 × 50 of 200 characters, each character escaped in the worst case); the payment
 * provider's events are its own to size.
 */
export const BODY_LIMITS = {
  default: 16 * 1024,
  jobOptions: 256 * 1024,
  paymentEvents: 1024 * 1024,
} as const;

/** No body of this API nests deeper than a few levels. */
export const MAX_JSON_DEPTH = 16;

/**
 * Whether a JSON text opens arrays and objects more than `max` levels deep: a scan of its
 * brackets outside strings, stopped at the first level too deep (JSON.parse would build the
 * whole tree first, and validation would then walk it).
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === BACKSLASH) i++;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) inString = true;
    else if (char === OPEN_BRACKET || char === OPEN_BRACE) {
      if (++depth > max) return true;
    } else if (char === CLOSE_BRACKET || char === CLOSE_BRACE) depth--;
  }
  return false;
}

const [QUOTE, BACKSLASH, OPEN_BRACKET, CLOSE_BRACKET, OPEN_BRACE, CLOSE_BRACE] = ['"', '\\', '[', ']', '{', '}'].map((c) => c.charCodeAt(0));

/**
 * JSON bodies: an empty one is read as no body (bodyless POSTs such as login and logout often
 * still carry `Content-Type: application/json`), one nested too deep is refused with 400, and
 * anything else goes through Fastify's own safe parser.
 */
export function registerJsonParser(app: App): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return done(errors.validation(`the JSON body nests deeper than ${MAX_JSON_DEPTH} levels`), undefined);
    parseJson(request, text, done);
  });
}
