/**
 * The typed client of the service's API: openapi-fetch over the types generated from the
 * OpenAPI document (api-types.ts), so a request's path, parameters, body and answer are checked
 * against the routes as they are. Used by the CLI's remote mode.
 *
 *   const api = createApiClient({ baseUrl: 'http://localhost:3000', apiKey });
 *   const { data, error } = await api.GET('/api/v1/credits/balance/api');
 */
import createClient from 'openapi-fetch';
import type { paths } from './api-types.ts';

export type { paths };

export function createApiClient(options: { baseUrl: string; apiKey?: string; fetch?: typeof fetch }) {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
    fetch: options.fetch,
  });
}

export type ApiClient = ReturnType<typeof createApiClient>;
