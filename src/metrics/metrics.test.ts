/** /metrics as an operator's scraper reads it: after a job its counters and histograms have moved; never public. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startDocsSite, type DocsSite } from '../testing/docs-site.ts';
import { waitForGeneration } from '../testing/jobs.ts';
import { describeOnEachDatabase, freePort, startTestService, type TestService } from '../testing/service.ts';

const TOKEN = 'metrics-token-for-the-tests-0123456789';

let docs: DocsSite;
before(async () => {
  docs = await startDocsSite();
});
after(async () => {
  await docs.close();
});

/** Every sample of a Prometheus text answer, by name and labels as written (`name{a="1",b="2"}`). */
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^(\w+(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (match) found.set(match[1], Number(match[2]));
  }
  return found;
}

async function scrape(service: TestService): Promise<Map<string, number>> {
  const response = await service.request('GET', '/metrics', { token: TOKEN });
  assert.equal(response.status, 200, response.text);
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return samples(response.text);
}

describeOnEachDatabase(
  'Metrics',
  (service) => {
    test('a generation moves the job, page, credit and request counters and the histograms', async () => {
      const { apiKey } = await service().createAccount();
      const before = await scrape(service());
      const start = await service().request('POST', '/api/v1/generate', { token: apiKey, body: { url: `${docs.origin}/`, options: { generationMethod: 'simple', maxUrls: 50 } } });
      assert.equal(start.status, 200, start.text);
      const job = await waitForGeneration(service(), apiKey, start.body.jobId);
      assert.equal(job.status, 'completed', job.error);
      const afterJob = await scrape(service());
      const moved = (name: string) => (afterJob.get(name) ?? 0) - (before.get(name) ?? 0);

      assert.equal(moved('llmstxt_jobs_started_total{kind="generation",method="simple"}'), 1);
      assert.equal(moved('llmstxt_jobs_completed_total{kind="generation",method="simple"}'), 1);
      assert.equal(moved('llmstxt_job_duration_seconds_count{kind="generation",method="simple",status="completed"}'), 1);
      assert.equal(moved('llmstxt_credits_reserved_total'), 5);
      // 9 pages of 50: 1 credit used, 4 back
      assert.equal(moved('llmstxt_credits_refunded_total'), 4);
      assert.ok(moved('llmstxt_pages_fetched_total{kind="generation"}') >= docs.pagePaths.length, `pages fetched: ${moved('llmstxt_pages_fetched_total{kind="generation"}')}`);
      assert.equal(moved('llmstxt_http_requests_total{method="POST",route="/api/v1/generate",status="200"}'), 1);
      assert.ok(moved('llmstxt_http_requests_total{method="GET",route="/api/v1/generate/:jobId",status="200"}') >= 1);
      assert.equal(moved('llmstxt_http_request_duration_seconds_count{method="POST",route="/api/v1/generate",status="200"}'), 1);
      assert.equal(moved('llmstxt_http_request_duration_seconds_bucket{le="+Inf",method="POST",route="/api/v1/generate",status="200"}'), 1);
      assert.equal(afterJob.get('llmstxt_queue_depth{kind="generation",state="pending"}'), 0);
      assert.equal(afterJob.get('llmstxt_queue_depth{kind="discovery",state="processing"}'), 0);
    });

    test('the queue depth is read from the database at scrape time', async () => {
      const { apiKey } = await service().createAccount();
      const before = await scrape(service());
      const start = await service().request('POST', '/api/v1/discovery', { token: apiKey, body: { url: `${docs.origin}/`, discoveryType: 'sitemap', maxUrls: 5 } });
      assert.equal(start.status, 201, start.text);
      const during = await scrape(service());
      const waitingOrRunning = ['pending', 'processing'].map((state) => during.get(`llmstxt_queue_depth{kind="discovery",state="${state}"}`) ?? 0);
      const started = (during.get('llmstxt_jobs_started_total{kind="discovery",method="sitemap"}') ?? 0) - (before.get('llmstxt_jobs_started_total{kind="discovery",method="sitemap"}') ?? 0);
      assert.equal(started, 1);
      const completed = (during.get('llmstxt_jobs_completed_total{kind="discovery",method="sitemap"}') ?? 0) - (before.get('llmstxt_jobs_completed_total{kind="discovery",method="sitemap"}') ?? 0);
      assert.equal(waitingOrRunning[0] + waitingOrRunning[1] + completed, 1, 'the job is queued, running, or done');
    });

    test('without the token, or with another, 401', async () => {
      for (const headers of [{}, { authorization: 'Bearer wrong-token-of-enough-length' }, { authorization: TOKEN }] as Array<Record<string, string>>) {
        const refused = await service().request('GET', '/metrics', { headers });
        assert.deepEqual([refused.status, refused.body], [401, { message: 'Unauthorized' }]);
      }
    });
  },
  { env: { CRAWL_ALLOW_PRIVATE: 'true', METRICS_TOKEN: TOKEN } },
);

test('METRICS_PORT alone: served there without a token, 404 on the API port; with neither, 404', async () => {
  const metricsPort = await freePort();
  const withPort = await startTestService('pglite', { env: { METRICS_PORT: String(metricsPort), HOST: '127.0.0.1' } });
  try {
    await withPort.request('GET', '/api/v1/health');
    const port = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    assert.equal(port.status, 200);
    assert.match(await port.text(), /^llmstxt_http_requests_total\{method="GET",route="\/api\/v1\/health",status="200"\} \d+$/m);
    assert.equal((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status, 404);
    const onApiPort = await withPort.request('GET', '/metrics', { token: TOKEN });
    assert.deepEqual([onApiPort.status, onApiPort.body], [404, { message: 'Route GET /metrics not found' }]);
  } finally {
    await withPort.close();
  }
  const neither = await startTestService('pglite');
  try {
    const response = await neither.request('GET', '/metrics', { token: TOKEN });
    assert.deepEqual([response.status, response.body], [404, { message: 'Route GET /metrics not found' }]);
  } finally {
    await neither.close();
  }
});
