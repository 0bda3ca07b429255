/**
 * Serves the web dashboard (the Vite build in web/dist) at `/`. Client routes of the single-page
 * app answer its index.html; `/api/*`, `/pay/*` and `/docs*` stay with the routes that own them.
 * Without a build the service still starts: it logs a warning and `/` says the dashboard is not built.
 * Any other page a browser asks for gets the dashboard's own "Page not found" with a 404 status;
 * API clients (and paths the API owns) keep the JSON 404.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { messages } from '../errors.ts';
import type { FastifyRequest } from 'fastify';
import type { App } from '../http/types.ts';
import { CLIENT_ROUTES } from './client-routes.ts';

/** Paths owned by the API and the hosted payment pages: their unknown paths answer JSON. */
const SERVICE_PREFIXES = ['/api/', '/pay/', '/docs', '/webhooks/', '/mcp', '/metrics'];

function asksForAPage(request: FastifyRequest): boolean {
  const path = request.url.split('?')[0];
  return (request.headers.accept ?? '').includes('text/html') && !SERVICE_PREFIXES.some((prefix) => path.startsWith(prefix));
}

export const WEB_DIST = fileURLToPath(new URL('../../web/dist/', import.meta.url));

export async function registerWebApp(app: App, root: string = WEB_DIST): Promise<void> {
  if (!existsSync(join(root, 'index.html'))) {
    app.log.warn({ root }, 'The web dashboard is not built (run `npm run build:web`); serving the API only');
    app.get('/', { schema: { hide: true } }, async () => ({ message: messages.dashboardNotBuilt }));
    return;
  }
  // One route per built file (wildcard: false), so unknown paths keep the API's JSON 404.
  await app.register(fastifyStatic, { root, prefix: '/', wildcard: false, index: false, serve: true, decorateReply: true });
  for (const { path } of CLIENT_ROUTES) {
    app.get(path, { schema: { hide: true } }, (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return reply.sendFile('index.html', root);
    });
  }
  // Browsers ask for /favicon.ico whatever the page says (the API docs' pages too).
  app.get('/favicon.ico', { schema: { hide: true } }, (_request, reply) => reply.redirect('/favicon.svg', 301));
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    if (!asksForAPage(request)) return reply.callNotFound();
    reply.code(404).header('cache-control', 'no-cache');
    return reply.sendFile('index.html', root);
  });
}
