import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { OPENAPI_PATH } from './paths.ts';
import { errorAnswers, type ErrorStatus } from './schemas.ts';
import type { App } from './types.ts';

/** The OpenAPI 3.1 document is generated from the route schemas, so it cannot drift from them. */
export async function registerOpenApi(app: App): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'llms.txt generation API',
        version: '1.0.0',
        description: 'Turns any website into an llms.txt and an llms-full.txt. Paid with credits.',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', description: 'An API key: `Authorization: Bearer llmstxt_…`' },
          accessToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A session access token from /auth/login or /auth/refresh' },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transform: ({ schema, url }) => ({ schema: schema && { ...schema, body: optionalDefaults(schema.body), querystring: optionalDefaults(schema.querystring) }, url }),
  });
  // Swagger UI's page has inline parts: it sends its own Content-Security-Policy with their hashes.
  // Its script also sets style attributes as it renders, which no hash can allow: inline styles
  // (never scripts) are allowed on its pages, or the browser logs a violation on every visit.
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    transformStaticCSP: (header: string) => header.replace("style-src 'self' https:", "style-src 'self' https: 'unsafe-inline'"),
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
  documentCommonErrorAnswers(app);
}

/**
 * The error answers that follow from how a route is declared, added to its documented responses:
 * 400 when it reads input, 401 when it needs credentials, 429 when the rate limiter counts it.
 * Errors of the route's own logic (402, 403, 404, 409, 502) are written in its schema.
 */
function documentCommonErrorAnswers(app: App): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema;
    if (!schema || schema.hide) return;
    const statuses: ErrorStatus[] = [];
    if (schema.body || schema.querystring || schema.params) statuses.push(400);
    if (route.config?.auth && route.config.auth !== 'none') statuses.push(401);
    if (route.config?.rateLimit !== false) statuses.push(429);
    route.schema = { ...schema, response: { ...errorAnswers(...statuses), ...(schema.response as object) } };
  });
}

/**
 * A request field with a default may be left out: the service fills it in. TypeBox lists it as
 * required (validation applies the default first); the document says what a client must send.
 * Only the document's copy changes.
 */
function optionalDefaults(schema: unknown): unknown {
  if (!schema || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map(optionalDefaults);
  const copy: Record<string, unknown> = { ...(schema as Record<string, unknown>) };
  const properties = copy.properties as Record<string, { default?: unknown }> | undefined;
  if (properties) {
    copy.properties = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, optionalDefaults(property)]));
    if (Array.isArray(copy.required)) copy.required = copy.required.filter((name: string) => properties[name]?.default === undefined);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf', 'items']) if (copy[key]) copy[key] = optionalDefaults(copy[key]);
  return copy;
}
