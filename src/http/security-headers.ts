import helmet from 'helmet';
import { API_PREFIX } from './paths.ts';
import type { App } from './types.ts';

/**
 * The dashboard's policy: its own scripts, styles and API only, never framed (clickjacking).
 * Pages with inline parts of their own (the local provider's pages, Swagger UI) set theirs.
 */
export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/**
 * What an API answer (JSON, or a hosted text file) needs, as OWASP's REST cheat sheet puts it:
 * nothing may run or be framed if a browser is ever made to render it, no sniffing, no referrer
 * beyond the origin. Helmet's other headers speak to HTML documents only; on the API's most
 * frequent reads they doubled the bytes each answer carries.
 */
const API_HEADERS: Array<[string, string]> = [
  ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
  ['x-content-type-options', 'nosniff'],
  ['referrer-policy', 'strict-origin-when-cross-origin'],
];

/**
 * Security headers on every answer: the API's own set under the API prefix, helmet's for pages;
 * HSTS only where the request came over TLS (directly or via a trusted proxy). Helmet's
 * middleware is built once: @fastify/helmet builds it again for every request, which cost a
 * tenth of a cached read's time.
 */
export async function registerSecurityHeaders(app: App): Promise<void> {
  const setHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Sent by hand below: over plain HTTP (a laptop, a test) it would only mislead.
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    if (request.url.startsWith(`${API_PREFIX}/`)) {
      for (const [name, value] of API_HEADERS) reply.raw.setHeader(name, value);
      return done();
    }
    setHeaders(request.raw, reply.raw, (error) => done(error instanceof Error ? error : undefined));
  });
}
