/**
 * The process's metrics (Prometheus, through prom-client): one registry per process, counted where
 * things happen (requests here, jobs and deliveries in whichever process runs them) after their
 * transaction committed, so a rollback counts nothing. Every process exposes its own: the API on
 * /metrics, any process on METRICS_PORT; Prometheus sums them (docs/decisions/metrics.md).
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'llmstxt_' });

const SECONDS_BUCKETS_HTTP = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const SECONDS_BUCKETS_JOBS = [1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];

export type JobKindLabel = 'generation' | 'discovery';

export const metrics = {
  httpRequests: new Counter({ name: 'llmstxt_http_requests_total', help: 'HTTP requests answered, by route pattern and status', labelNames: ['method', 'route', 'status'], registers: [registry] }),
  httpDuration: new Histogram({
    name: 'llmstxt_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern and status',
    labelNames: ['method', 'route', 'status'],
    buckets: SECONDS_BUCKETS_HTTP,
    registers: [registry],
  }),
  jobsStarted: new Counter({ name: 'llmstxt_jobs_started_total', help: 'Jobs created (generation: charged), by kind and method', labelNames: ['kind', 'method'], registers: [registry] }),
  jobsCompleted: new Counter({ name: 'llmstxt_jobs_completed_total', help: 'Jobs completed, by kind and method', labelNames: ['kind', 'method'], registers: [registry] }),
  jobsFailed: new Counter({ name: 'llmstxt_jobs_failed_total', help: 'Jobs failed or canceled, by kind and method', labelNames: ['kind', 'method'], registers: [registry] }),
  jobDuration: new Histogram({
    name: 'llmstxt_job_duration_seconds',
    help: 'From a job being taken up to its end, by kind, method and outcome',
    labelNames: ['kind', 'method', 'status'],
    buckets: SECONDS_BUCKETS_JOBS,
    registers: [registry],
  }),
  queueDepth: new Gauge({ name: 'llmstxt_queue_depth', help: 'Jobs waiting (pending) and running (processing), by kind; read from the database at scrape time', labelNames: ['kind', 'state'], registers: [registry] }),
  pagesFetched: new Counter({ name: 'llmstxt_pages_fetched_total', help: 'Pages fetched by jobs, by kind', labelNames: ['kind'], registers: [registry] }),
  webhookDeliveries: new Counter({ name: 'llmstxt_webhook_deliveries_total', help: 'Webhook delivery attempts, by outcome (delivered, retrying, failed)', labelNames: ['outcome'], registers: [registry] }),
  creditsReserved: new Counter({ name: 'llmstxt_credits_reserved_total', help: 'Credits reserved by generation starts', registers: [registry] }),
  creditsRefunded: new Counter({ name: 'llmstxt_credits_refunded_total', help: 'Credits given back by generations (unused pages, failures, cancels)', registers: [registry] }),
};

/** A finished job, counted once by the write that finished it. */
export function countFinishedJob(kind: JobKindLabel, method: string, status: 'completed' | 'failed', startedAt: Date | null, endedAt: Date): void {
  (status === 'completed' ? metrics.jobsCompleted : metrics.jobsFailed).inc({ kind, method });
  if (startedAt) metrics.jobDuration.observe({ kind, method, status }, Math.max(0, endedAt.getTime() - startedAt.getTime()) / 1000);
}
