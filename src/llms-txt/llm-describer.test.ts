import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLlmDescriber, type LlmDescriberOptions } from './llm-describer.ts';
import type { PageToDescribe } from './describer.ts';
import { describeEveryPage, startFakeLlmServer, type FakeLlmServer } from './testing/fake-llm-server.ts';

const SITE = { url: 'https://acme.dev/', name: 'Acme', summary: 'Simple summary.' };
const PAGES: PageToDescribe[] = Array.from({ length: 5 }, (_, i) => ({
  url: `https://acme.dev/docs/page-${i}`,
  title: `Page ${i}`,
  description: `Simple description ${i}.`,
  markdown: `# Page ${i}\n\nAll about topic ${i}. ${'Filler text. '.repeat(400)}`,
}));

describe('createLlmDescriber against a fake OpenAI-compatible server', () => {
  let server: FakeLlmServer;
  const describer = (options: Partial<LlmDescriberOptions> = {}) =>
    createLlmDescriber({
      provider: 'openai-compatible',
      baseURL: server.baseURL,
      apiKey: 'test-key',
      model: 'fake-model',
      batchSize: 2,
      concurrency: 1,
      retryDelayMs: 10,
      timeoutMs: 5000,
      ...options,
    });

  before(async () => {
    server = await startFakeLlmServer({ apiKey: 'test-key' });
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    server.setHandler(describeEveryPage);
  });

  test('uses structured answers as they are, in batches, with the site summary from the first call', async () => {
    const result = await describer({ maxPageChars: 300 }).describe(SITE, PAGES);
    assert.deepEqual(
      result.pages.map((page) => [page.url, page.title, page.description, page.section, page.source]),
      PAGES.map((page) => [page.url, `AI title: ${page.title}`, `AI description of ${page.url}.`, 'Docs', 'ai']),
    );
    assert.deepEqual(result.site, { name: 'AI Site', summary: 'An AI-written summary of the site.', source: 'ai' });
    assert.deepEqual(result.errors, []);
    assert.equal(result.usage.calls, 3);
    assert.ok(result.usage.totalTokens > 0 && result.usage.totalTokens === result.usage.inputTokens + result.usage.outputTokens);

    // What @ai-sdk/openai-compatible actually sends: response_format json_schema, strict.
    const [first, second] = server.requests;
    assert.equal(first.headers.authorization, 'Bearer test-key');
    assert.equal(first.body.model, 'fake-model');
    assert.equal(first.body.response_format?.type, 'json_schema');
    assert.deepEqual(first.body.response_format?.json_schema?.schema?.required, ['site', 'pages']);
    assert.deepEqual(second.body.response_format?.json_schema?.schema?.required, ['pages']);
    assert.deepEqual(first.pages.map((page) => page.url), [PAGES[0].url, PAGES[1].url]);
    assert.equal(first.wantsSite, true);
    assert.equal(second.wantsSite, false);
    assert.ok(first.prompt.length < 3000, 'page content is truncated');
    assert.match(first.system, /untrusted data/);
  });

  test('falls back when the model is slower than the timeout', async () => {
    server.setHandler((request) => (request.index === 0 ? { delayMs: 3000, ...describeEveryPage(request) } : describeEveryPage(request)));
    const started = performance.now();
    const result = await describer({ timeoutMs: 300, maxRetries: 0 }).describe(SITE, PAGES);
    assert.ok(performance.now() - started < 2500);
    assert.deepEqual(result.pages.map((page) => page.source), ['fallback', 'fallback', 'ai', 'ai', 'ai']);
    assert.equal(result.pages[0].description, 'Simple description 0.');
    assert.equal(result.pages[0].title, 'Page 0');
    assert.equal(result.usage.failedBatches, 1);
    assert.match(result.errors.join('\n'), /timed out/);
    // The site summary was asked again in the next batch.
    assert.equal(server.requests[1].wantsSite, true);
    assert.equal(result.site.source, 'ai');
  });

  test('retries a 500 and falls back when it persists', async () => {
    server.setHandler((request) => (request.pages.some((page) => page.url === PAGES[4].url) ? { status: 500 } : describeEveryPage(request)));
    const result = await describer({ maxRetries: 2 }).describe(SITE, PAGES);
    assert.deepEqual(result.pages.map((page) => page.source), ['ai', 'ai', 'ai', 'ai', 'fallback']);
    assert.equal(server.requests.filter((request) => request.pages.some((page) => page.url === PAGES[4].url)).length, 3);
    assert.match(result.errors.join('\n'), /HTTP 500/);
  });

  test('recovers when a retry succeeds', async () => {
    server.setHandler((request) => (request.index === 0 ? { status: 503 } : describeEveryPage(request)));
    const result = await describer({ maxRetries: 1 }).describe(SITE, PAGES.slice(0, 2));
    assert.deepEqual(result.pages.map((page) => page.source), ['ai', 'ai']);
    assert.equal(result.usage.calls, 2);
  });

  test('falls back on malformed answers: invalid JSON, or JSON of the wrong shape', async () => {
    for (const reply of [{ content: '{"pages": [ not json' }, { json: { pages: [{ url: PAGES[0].url }] } }, { json: { items: [] } }]) {
      server.setHandler(() => reply);
      const result = await describer({ maxRetries: 1 }).describe(SITE, PAGES.slice(0, 2));
      assert.deepEqual(result.pages.map((page) => page.source), ['fallback', 'fallback'], JSON.stringify(reply));
      assert.equal(result.site.source, 'fallback');
      assert.deepEqual(result.site, { name: 'Acme', summary: 'Simple summary.', source: 'fallback' });
      assert.match(result.errors.join('\n'), /malformed/);
    }
  });

  test('salvages JSON wrapped in a code fence', async () => {
    server.setHandler((request) => ({ content: `Here you go:\n\`\`\`json\n${JSON.stringify(describeEveryPage(request) && (describeEveryPage(request) as { json: unknown }).json)}\n\`\`\`` }));
    const result = await describer().describe(SITE, PAGES.slice(0, 2));
    assert.deepEqual(result.pages.map((page) => page.source), ['ai', 'ai']);
  });

  test('falls back only for the pages missing from an answer, and ignores unusable entries', async () => {
    server.setHandler((request) => ({
      json: {
        site: { name: 'Acme', summary: 'Widgets.' },
        pages: [
          { url: `${request.pages[0].url}/`, title: 'Found by URL without its trailing slash', description: 'A good description of the page.', section: 'Guides' },
          { url: 'https://elsewhere.dev/', title: 'Unknown', description: 'Not a page we asked about.', section: 'X' },
          ...request.pages.slice(1).map((page) => ({ url: page.url, title: '', description: '', section: '' })),
        ],
      },
    }));
    const result = await describer({ batchSize: 3 }).describe(SITE, PAGES.slice(0, 3));
    assert.deepEqual(result.pages.map((page) => page.source), ['ai', 'fallback', 'fallback']);
    assert.equal(result.pages[0].section, 'Guides');
    assert.match(result.errors.join('\n'), /2 of 3 pages missing or unusable/);
  });

  test('respects the token budget: no call starts that could exceed it, the rest fall back', async () => {
    server.setHandler((request) => ({ ...describeEveryPage(request), usage: { prompt_tokens: 1800, completion_tokens: 100 } }));
    // Each call costs 1,900 tokens (estimated at well under 2,000 beforehand): after two calls
    // (3,800 used) a third could pass the 4,000 budget, so it is not made.
    const result = await describer({ tokenBudget: 4000, maxPageChars: 300 }).describe(SITE, PAGES);
    assert.equal(server.requests.length, 2);
    assert.deepEqual(result.pages.map((page) => page.source), ['ai', 'ai', 'ai', 'ai', 'fallback']);
    assert.equal(result.usage.totalTokens, 3800);
    assert.ok(result.usage.totalTokens <= 4000);
    assert.match(result.errors.join('\n'), /token budget used up/);
  });

  test('stops calling a provider that refuses the API key', async () => {
    const result = await describer({ apiKey: 'wrong-key' }).describe(SITE, PAGES);
    assert.equal(server.requests.length, 0); // refused before the handler
    assert.ok(result.pages.every((page) => page.source === 'fallback'));
    assert.equal(result.usage.calls, 1);
    assert.match(result.errors.join('\n'), /HTTP 401/);
  });

  test('asks for json_object when the server has no JSON-schema support', async () => {
    const result = await describer({ structuredOutputs: false }).describe(SITE, PAGES.slice(0, 1));
    assert.equal(server.requests[0].body.response_format?.type, 'json_object');
    assert.equal(server.requests[0].wantsSite, true); // read from the prompt
    assert.deepEqual(result.pages.map((page) => page.source), ['ai']);
  });

  test('rejects when the job is canceled, instead of falling back', async () => {
    server.setHandler((request) => ({ delayMs: 2000, ...describeEveryPage(request) }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('Canceled')), 100);
    await assert.rejects(describer().describe(SITE, PAGES, { signal: controller.signal }), /Canceled/);
  });

  test('reports progress per batch', async () => {
    const progress: number[] = [];
    await describer().describe(SITE, PAGES, { onProgress: (done) => progress.push(done) });
    assert.deepEqual(progress, [2, 4, 5]);
  });
});

test('an Anthropic describer is built without network access', () => {
  const describer = createLlmDescriber({ provider: 'anthropic', apiKey: 'k', model: 'claude-haiku-4-5' });
  assert.equal(describer.kind, 'llm');
});

test('an openai-compatible describer needs a base URL', () => {
  assert.throws(() => createLlmDescriber({ provider: 'openai-compatible', model: 'm' }), /baseURL/);
});
