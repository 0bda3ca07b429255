import type { RouteOptions } from 'fastify';
import type { App } from './types.ts';

type TwinRoute = Omit<RouteOptions<any, any, any, any, any, any, any, any>, 'url' | 'config'> & { config?: Record<string, unknown> };

/**
 * Registers a route the contract exposes twice: `path` for session callers (JWT only) and
 * `path/api` for third parties (API key only), with one schema and one handler.
 */
export function registerTwins(app: App, path: string, route: TwinRoute): void {
  app.route({ ...route, url: path, config: { ...route.config, auth: 'jwt' } } as RouteOptions);
  app.route({
    ...route,
    url: `${path}/api`,
    config: { ...route.config, auth: 'apiKey' },
    schema: { ...route.schema, summary: `${route.schema?.summary ?? ''} (API key)`.trim() },
  } as RouteOptions);
}
