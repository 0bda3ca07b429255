import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
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
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
