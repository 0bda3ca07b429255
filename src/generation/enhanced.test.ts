import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { describeEveryPage, startFakeLlmServer, type FakeLlmServer } from '../llms-txt/testing/fake-llm-server.ts';
import { parseLlmsTxt } from '../llms-txt/testing/llms-txt-parser.ts';
import { startDocsSite, type DocsSite } from '../testing/docs-site.ts';
import { ledgerOf, waitForGeneration } from '../testing/jobs.ts';
import { describeOnEachDatabase, type TestService } from '../testing/service.ts';

let site: DocsSite;
let model: FakeLlmServer;
// Filled in once the fake model listens; the services read it when they start.
const env: Record<string, string> = { CRAWL_ALLOW_PRIVATE: 'true', LLM_PROVIDER: 'openai-compatible', LLM_MODEL: 'fake-model', LLM_API_KEY: 'sk-test', LLM_TIMEOUT_SECONDS: '2' };
before(async () => {
  site = await startDocsSite();
  model = await startFakeLlmServer({ apiKey: 'sk-test' });
  env.LLM_BASE_URL = model.baseURL;
});
after(async () => {
  await site.close();
  await model.close();
});

async function generateEnhanced(service: TestService) {
  const { id: accountId, apiKey } = await service.createAccount();
  const body = { url: site.origin, options: { maxUrls: 10, generationMethod: 'enhanced' } };
  // With a provider, enhanced runs it at twice simple's price, as the estimate says first.
  const simple = await service.request('POST', '/api/v1/generate/estimate', { token: apiKey, body: { ...body, options: { ...body.options, generationMethod: 'simple' } } });
  const estimate = await service.request('POST', '/api/v1/generate/estimate', { token: apiKey, body });
  assert.deepEqual([simple.body.credits, simple.body.pagesPerCredit], [1, 10]);
  assert.deepEqual(
    { ...estimate.body, refundRule: undefined },
    { credits: 2, generationMethod: 'enhanced', maxUrls: 10, pagesPerCredit: 5, refundRule: undefined, renderingCredits: 0, fromCache: false, message: null },
  );
  const start = await service.request('POST', '/api/v1/generate', { token: apiKey, body });
  assert.equal(start.status, 200, start.text);
  assert.deepEqual([start.body.creditsUsed, start.body.message], [estimate.body.credits, 'Generation started']);
  assert.deepEqual((await ledgerOf(service, accountId)).rows.filter((row) => row.type === 'usage').map((row) => row.amount), [-2]);
  const job = await waitForGeneration(service, apiKey, start.body.jobId, 90_000);
  assert.equal(job.status, 'completed', job.error);
  const urls = await service.request('GET', `/api/v1/sites/${job.siteId}/urls?limit=100`, { token: apiKey });
  const text = await (await fetch(job.fileUrl)).text();
  return { accountId, job, urls: urls.body.urls as Array<{ url: string; title: string; description: string }>, text };
}

describeOnEachDatabase(
  'Enhanced generation with a model',
  (service) => {
    test('uses the titles, descriptions and summary the model writes, through the real client over HTTP', async () => {
      model.setHandler(describeEveryPage);
      const calls = model.requests.length;
      const { accountId, job, urls, text } = await generateEnhanced(service());
      assert.ok(model.requests.length > calls, 'the model was called');
      assert.equal(job.message, `Generated from ${urls.length} pages`);
      assert.equal(job.options.generationMethod, 'enhanced');
      for (const u of urls) {
        assert.match(u.title, /^AI title: /);
        assert.equal(u.description, `AI description of ${u.url}.`);
      }
      const doc = parseLlmsTxt(text);
      assert.equal(doc.summary, 'An AI-written summary of the site.');
      assert.equal((await ledgerOf(service(), accountId)).balance, 18);
    });

    test('falls back to each page\'s simple description when the model answers 500, malformed JSON or too slowly', async () => {
      for (const failure of [{ status: 500 }, { content: '{"pages": [ this is not json' }, { delayMs: 5000 }]) {
        model.setHandler(() => failure);
        const { job, urls, text } = await generateEnhanced(service());
        assert.equal(job.status, 'completed');
        const gettingStarted = urls.find((u) => u.url.endsWith('/docs/getting-started'))!;
        assert.doesNotMatch(gettingStarted.title, /^AI title/);
        assert.equal(gettingStarted.description, 'Install the Acme CLI and connect your first widget in five minutes.');
        parseLlmsTxt(text);
      }
    });
  },
  { env },
);
