import { Type } from 'typebox';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { CrawlOptions } from '../crawl/index.ts';
import type { Database } from '../db/database.ts';
import { messages } from '../errors.ts';
import { callerOf } from '../http/authenticate.ts';
import { errorAnswers, SuccessMessage } from '../http/schemas.ts';
import { Id, IsoDate, Nullable, OneOf, PageFields, PageQuery } from '../shapes.ts';
import type { App, RoutePlugin } from '../http/types.ts';
import { createEndpoint, deleteEndpoint, enableEndpoint, listDeliveries, listEndpoints, sendTestEvent, type WebhookEndpoint } from './endpoints.ts';
import { WEBHOOK_EVENTS } from './events.ts';

const EndpointView = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  status: Type.Union([Type.Literal('active'), Type.Literal('disabled')], { description: 'disabled once every attempt has failed for 24 hours; enabled again by POST …/enable' }),
  disabledAt: Nullable(IsoDate),
  createdAt: IsoDate,
});

const DeliveryView = Type.Object({
  id: Type.String({ description: 'the `webhook-id` header of every attempt' }),
  event: Type.String({ description: 'the job event sent, or `webhook.disabled` for the notice of the endpoint being disabled' }),
  status: Type.String({ description: 'pending, delivered, failed once the retries (about a day) are spent, or notice (the service\'s own entry, not sent)' }),
  payload: Type.Unknown(),
  attempts: Type.Array(
    Type.Object({ at: IsoDate, statusCode: Nullable(Type.Integer()), error: Nullable(Type.String()), durationMs: Type.Integer() }),
  ),
  nextAttemptAt: Nullable(IsoDate),
  createdAt: IsoDate,
  deliveredAt: Nullable(IsoDate),
});

const endpointView = (endpoint: WebhookEndpoint) => ({
  id: endpoint.id,
  url: endpoint.url,
  events: endpoint.events,
  status: endpoint.disabledAt ? ('disabled' as const) : ('active' as const),
  disabledAt: endpoint.disabledAt,
  createdAt: endpoint.createdAt,
});

const EndpointParams = Type.Object({ id: Id });

type Deps = { db: Database; clock: Clock; config: Config; crawl: CrawlOptions };

export const webhookRoutes: RoutePlugin<Deps> = async (app, deps) => {
  endpointRoutes(app, deps);
  endpointStateRoutes(app, deps.db);
  deliveryRoutes(app, deps);
};

/** The account's endpoints: registering one, listing them. */
function endpointRoutes(app: App, deps: Deps) {
  const { db } = deps;
  const endpointDeps = { db, clock: deps.clock, jwtSecret: deps.config.jwtSecret, guard: deps.crawl };

  app.post(
    '/webhooks/endpoints',
    {
      config: { auth: 'any' },
      schema: {
        tags: ['Webhooks'],
        summary: 'Register an endpoint for job events; its signing secret (Standard Webhooks) is shown once',
        body: Type.Object(
          {
            url: Type.String({ minLength: 1, maxLength: 2048 }),
            events: Type.Array(OneOf(WEBHOOK_EVENTS), { minItems: 1, maxItems: WEBHOOK_EVENTS.length }),
          },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Object({ success: Type.Boolean(), message: Type.String(), endpoint: EndpointView, secret: Type.String() }),
          ...errorAnswers(409),
        },
      },
    },
    async (request, reply) => {
      const { endpoint, secret } = await createEndpoint(endpointDeps, callerOf(request).accountId, request.body);
      return reply.code(201).send({ success: true, message: messages.webhookEndpointCreated, endpoint: endpointView(endpoint), secret });
    },
  );

  app.get(
    '/webhooks/endpoints',
    {
      config: { auth: 'any' },
      schema: { tags: ['Webhooks'], summary: "The account's webhook endpoints", response: { 200: Type.Object({ endpoints: Type.Array(EndpointView) }) } },
    },
    async (request) => ({ endpoints: (await listEndpoints(db, callerOf(request).accountId)).map(endpointView) }),
  );

}

/** One endpoint's state: deleted, or enabled again after it was disabled. */
function endpointStateRoutes(app: App, db: Database) {
  app.delete(
    '/webhooks/endpoints/:id',
    {
      config: { auth: 'any' },
      schema: {
        tags: ['Webhooks'],
        summary: 'Delete an endpoint and its deliveries',
        params: EndpointParams,
        response: { 200: SuccessMessage, ...errorAnswers(404) },
      },
    },
    async (request) => {
      await deleteEndpoint(db, callerOf(request).accountId, request.params.id);
      return { success: true, message: messages.webhookEndpointDeleted };
    },
  );

  app.post(
    '/webhooks/endpoints/:id/enable',
    {
      config: { auth: 'any' },
      schema: {
        tags: ['Webhooks'],
        summary: 'Enable a disabled endpoint again; deliveries that failed while it was disabled are not resent',
        params: EndpointParams,
        response: { 200: Type.Object({ success: Type.Boolean(), message: Type.String(), endpoint: EndpointView }), ...errorAnswers(404) },
      },
    },
    async (request) => {
      const endpoint = await enableEndpoint(db, callerOf(request).accountId, request.params.id);
      return { success: true, message: messages.webhookEndpointEnabled, endpoint: endpointView(endpoint) };
    },
  );

}

/** What an endpoint was sent: a test event on demand, and the log of its deliveries. */
function deliveryRoutes(app: App, deps: Deps) {
  const { db } = deps;

  app.post(
    '/webhooks/endpoints/:id/test',
    {
      config: { auth: 'any' },
      schema: {
        tags: ['Webhooks'],
        summary: 'Send the endpoint a test event (`webhook.test`), delivered and logged like a job event',
        params: EndpointParams,
        response: { 202: Type.Object({ success: Type.Boolean(), message: Type.String(), delivery: DeliveryView }), ...errorAnswers(404, 409) },
      },
    },
    async (request, reply) => {
      const delivery = await sendTestEvent(db, deps.clock, callerOf(request).accountId, request.params.id);
      return reply.code(202).send({ success: true, message: messages.webhookTestQueued, delivery });
    },
  );

  app.get(
    '/webhooks/endpoints/:id/deliveries',
    {
      config: { auth: 'any' },
      schema: {
        tags: ['Webhooks'],
        summary: "An endpoint's deliveries, newest first, each with its attempts",
        params: EndpointParams,
        querystring: Type.Object(
          PageQuery(20),
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ deliveries: Type.Array(DeliveryView), ...PageFields }),
          ...errorAnswers(404),
        },
      },
    },
    async (request) => listDeliveries(db, callerOf(request).accountId, request.params.id, request.query),
  );
}
