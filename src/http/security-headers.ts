import helmet from 'helmet';
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
 * Security headers on every answer; HSTS only where the request came over TLS (directly or via a
 * trusted proxy). Helmet's middleware is built once: @fastify/helmet builds it again for every
 * request, which cost a tenth of a cached read's time.
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
    setHeaders(request.raw, reply.raw, (error) => done(error instanceof Error ? error : undefined));
  });
}
