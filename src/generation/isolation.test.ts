import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { routes, startSite, type TestSite } from '../testing/test-site.ts';
import type { GenerationLimits } from '../config.ts';
import { startDocsSite, type DocsSite } from '../testing/docs-site.ts';
import { ledgerOf, waitForGeneration } from '../testing/jobs.ts';
import { describeOnEachDatabase, type TestService } from '../testing/service.ts';
import { startSlowSite } from '../testing/slow-site.ts';

// The page of the report: 40,000 `{{` in its meta description; and the same in its title and body.
const OPENERS = '{{'.repeat(40_000);
const crafted = (head: string, body: string) => `<!doctype html><html><head>${head}</head><body><main>${body}</main></body></html>`;
const HOME = crafted(
  '<title>Crafted docs</title><meta name="description" content="Documentation of a crafted site, for tests.">',
  '<h1>Crafted docs</h1><p>The documentation of a site with crafted pages.</p><ul><li><a href="/meta">Meta</a></li><li><a href="/body">Body</a></li></ul>',
);
const IN_META = crafted(`<title>Meta</title><meta name="description" content="${OPENERS}">`, '<h1>Meta</h1><p>A page whose description is made of template openers.</p>');
const IN_BODY = crafted(`<title>${OPENERS}</title>`, `<h1>${OPENERS}</h1><p>${OPENERS}</p><p>A page whose title and text are made of template openers.</p>`);

/** How many times its answer at rest /health may take while a job runs. */
const HEALTH_FACTOR = 200;

let docs: DocsSite;
let hostile: TestSite;
let slow: TestSite;
before(async () => {
  docs = await startDocsSite();
  hostile = await startSite(routes({ '/': HOME, '/meta': IN_META, '/body': IN_BODY }));
  slow = await startSlowSite(8, 3000);
});
after(async () => {
  await docs.close();
  await hostile.close();
  await slow.close();
});

async function healthMs(service: TestService): Promise<number> {
  const started = performance.now();
  const response = await service.request('GET', '/api/v1/health');
  assert.equal(response.status, 200);
  return performance.now() - started;
}

async function healthAtRest(service: TestService): Promise<number> {
  const times = [];
  for (let i = 0; i < 15; i++) times.push(await healthMs(service));
  return times.sort((a, b) => a - b)[7];
}

/** The slowest /health answer while the job runs, and the job as it ended. */
async function healthDuring(service: TestService, apiKey: string, jobId: string) {
  let slowest = 0;
  let job: any;
  for (;;) {
    slowest = Math.max(slowest, await healthMs(service));
    job = (await service.request('GET', `/api/v1/generate/${jobId}`, { token: apiKey })).body;
    if (job.status === 'completed' || job.status === 'failed') return { slowest, job };
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function start(service: TestService, apiKey: string, url: string, maxUrls = 10) {
  const response = await service.request('POST', '/api/v1/generate', { token: apiKey, body: { url, options: { generationMethod: 'simple', maxUrls, cacheAge: 0 } } });
  assert.equal(response.status, 200, response.text);
  return response.body.jobId as string;
}

/** Runs `work` with the service's generation limits changed (the job kind reads them as each job starts). */
async function withLimits<T>(service: TestService, limits: Partial<GenerationLimits>, work: () => Promise<T>): Promise<T> {
  const current = service.deps.config.generation;
  const saved = { ...current };
  Object.assign(current, limits);
  try {
    return await work();
  } finally {
    Object.assign(current, saved);
  }
}

describeOnEachDatabase('A generation job is isolated from the API and from other jobs', (service) => {
  test('generates a site with a crafted page (40,000 `{{` in its description, title and text) while /health answers as at rest', async () => {
    const { apiKey } = await service().createAccount();
    const rest = await healthAtRest(service());
    const jobId = await start(service(), apiKey, hostile.origin);
    const { slowest, job } = await healthDuring(service(), apiKey, jobId);
    assert.equal(job.status, 'completed', job.error);
    assert.ok(slowest <= HEALTH_FACTOR * rest, `/health took ${slowest.toFixed(0)} ms during the job, ${rest.toFixed(1)} ms at rest`);
    const file = await service().request('GET', new URL(job.fileUrl).pathname);
    assert.equal(file.status, 200);
    assert.match(file.text, /\/meta\)/);
  });

  test('fails a job over its time budget with a clear message and refunds it in full, while /health answers', async () => {
    const { id: accountId, apiKey } = await service().createAccount();
    const rest = await healthAtRest(service());
    // (60 + 10 pages) × 0.02 s: 1.4 s, less than the slow site's first page.
    const { slowest, job } = await withLimits(service(), { secondsPerPage: 0.02 }, async () => healthDuring(service(), apiKey, await start(service(), apiKey, slow.origin)));
    assert.equal(job.status, 'failed');
    assert.equal(job.error, 'The generation took longer than its time budget (1 s for up to 10 pages) and was stopped; the credits were refunded');
    assert.ok(slowest <= HEALTH_FACTOR * rest, `/health took ${slowest.toFixed(0)} ms during the job, ${rest.toFixed(1)} ms at rest`);
    const ledger = await ledgerOf(service(), accountId);
    assert.equal(ledger.balance, 20);
    assert.deepEqual(ledger.rows.filter((r) => r.type === 'refund').map((r) => r.amount), [1]);
  });

  test('fails only the job whose thread goes over its memory limit, with a clear message and a full refund', async () => {
    const { id: accountId, apiKey } = await service().createAccount();
    const failed = await withLimits(service(), { threadMemoryMb: 16 }, async () => waitForGeneration(service(), apiKey, await start(service(), apiKey, docs.origin)));
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error, 'The generation needed more memory than its limit (16 MB) and was stopped; the credits were refunded');
    const ledger = await ledgerOf(service(), accountId);
    assert.equal(ledger.balance, 20);
    assert.deepEqual(ledger.rows.filter((r) => r.type === 'refund').map((r) => r.amount), [1]);
    // The service goes on: the same site's next job, within the usual limit, completes.
    const next = await waitForGeneration(service(), apiKey, await start(service(), apiKey, docs.origin));
    assert.equal(next.status, 'completed', next.error);
  });
}, { env: { CRAWL_ALLOW_PRIVATE: 'true' } });
