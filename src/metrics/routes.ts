import { createServer } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { Config } from '../config.ts';
import { sha256 } from '../crypto/secrets.ts';
import type { Database } from '../db/database.ts';
import { inArray, sql } from '../db/orm.ts';
import { discoveryJobs, generationJobs } from '../db/schema.ts';
import { errors } from '../errors.ts';
import type { App } from '../http/types.ts';
import { metrics, registry } from './metrics.ts';

export const METRICS_PATH = '/metrics';

/**
 * Metrics for operators, never public: `/metrics` with `Authorization: Bearer $METRICS_TOKEN`, and
 * `METRICS_PORT` for a scraper on the operator's network. With neither, nothing is counted per
 * request and /metrics is an unknown route (404).
 */
export async function registerMetrics(app: App, deps: { db: Database; config: Config }): Promise<void> {
  const { token, port } = deps.config.metrics;
  if (token === null && port === null) return;
  app.addHook('onResponse', (request, reply, done) => {
    const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: reply.statusCode };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
    done();
  });
  if (token !== null) {
    const expected = sha256(`Bearer ${token}`);
    app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
      const given = sha256(request.headers.authorization ?? '');
      if (!timingSafeEqual(Buffer.from(given), Buffer.from(expected))) throw errors.unauthorized();
      return reply.type(registry.contentType).send(await scrape(deps.db));
    });
  }
  if (port !== null) {
    const stop = await serveMetricsPort(deps.db, port, deps.config.host);
    app.addHook('onClose', stop);
  }
}

/**
 * The metrics on a port of their own (also a `worker` process's only way to show its counters),
 * once it listens (a port in use fails the start). Answers a function that stops it.
 */
export async function serveMetricsPort(db: Database, port: number, host: string): Promise<() => Promise<void>> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== METRICS_PATH) {
      response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: errors.routeNotFound(request.method ?? 'GET', request.url ?? '/').message }));
      return;
    }
    scrape(db).then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => response.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ message: errors.databaseUnreachable().message })),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

/** The registry's text, with the queue's depth read now: jobs live in the database, not in this process. */
async function scrape(db: Database): Promise<string> {
  metrics.queueDepth.reset();
  for (const [kind, table] of [['generation', generationJobs], ['discovery', discoveryJobs]] as const) {
    const rows = await db
      .select({ state: table.status, jobs: sql<number>`count(*)::int` })
      .from(table)
      .where(inArray(table.status, ['pending', 'processing']))
      .groupBy(table.status);
    for (const state of ['pending', 'processing']) metrics.queueDepth.set({ kind, state }, rows.find((row) => row.state === state)?.jobs ?? 0);
  }
  return registry.metrics();
}
