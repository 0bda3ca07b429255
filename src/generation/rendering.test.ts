import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parseLlmsTxt } from '../llms-txt/testing/llms-txt-parser.ts';
import { ledgerOf, waitForDiscovery, waitForGeneration } from '../testing/jobs.ts';
import { HOSTILE_PATHS, startScriptSite, type ScriptSite } from '../testing/script-site.ts';
import { describeOnEachDatabase, type TestService } from '../testing/service.ts';

let site: ScriptSite;
before(async () => {
  site = await startScriptSite();
});
after(async () => {
  await site.close();
});

async function generate(service: TestService, apiKey: string, options: Record<string, unknown>, path = '/') {
  const start = await service.request('POST', '/api/v1/generate', {
    token: apiKey,
    body: { url: `${site.origin}${path}`, options: { generationMethod: 'simple', maxUrls: 20, showFullText: true, cacheAge: 0, ...options } },
  });
  assert.equal(start.status, 200, start.text);
  return { start: start.body, job: await waitForGeneration(service, apiKey, start.body.jobId, 120_000) };
}

describeOnEachDatabase(
  'Rendering pages built by scripts',
  (service) => {
    test('without render, the job fails saying the pages look script-rendered and render would help, and refunds everything', async () => {
      const { id, apiKey } = await service().createAccount();
      const { start, job } = await generate(service(), apiKey, {});
      assert.equal(start.creditsUsed, 2);
      assert.equal(job.status, 'failed');
      assert.equal(
        job.error,
        `No readable pages at ${site.origin}/: its pages look built by JavaScript in the browser (a script bundle, an empty mount point, little text). Generate again with the option render "auto" to render them`,
      );
      assert.equal((await ledgerOf(service(), id)).balance, 20);
    });

    for (const render of ['auto', 'always'] as const) {
      test(`with render ${render}, llms.txt lists and describes the pages the script builds, and rendering costs a credit per 10 pages rendered`, async () => {
        const { id, apiKey } = await service().createAccount();
        const estimate = await service().request('POST', '/api/v1/generate/estimate', {
          token: apiKey,
          body: { url: `${site.origin}/`, options: { generationMethod: 'simple', maxUrls: 20, render, cacheAge: 0 } },
        });
        assert.equal(estimate.status, 200, estimate.text);
        assert.deepEqual([estimate.body.credits, estimate.body.renderingCredits], [4, 2]);
        const { start, job } = await generate(service(), apiKey, { render });
        // 20 pages: 2 credits, and 2 more reserved for rendering them all.
        assert.equal(start.creditsUsed, 4);
        assert.equal(job.status, 'completed', job.error);
        assert.equal(job.options.render, render);
        assert.equal(job.pagesRendered, 4);
        const doc = parseLlmsTxt(await (await fetch(job.fileUrl)).text());
        const links = doc.sections.flatMap((section) => section.links);
        assert.deepEqual(links.map((link) => new URL(link.url).pathname).sort(), [...site.pagePaths].sort());
        const install = links.find((link) => link.url === `${site.origin}/guide/install`)!;
        assert.equal(install.title, 'Installing Orbit Notes');
        assert.match(install.notes ?? '', /desktop app/);
        assert.match(doc.title, /Orbit Notes/);

        const full = await (await fetch(job.fullTextUrl)).text();
        assert.match(full, /Ctrl\+K to search every notebook/);
        // Nothing the browser must not reach got into the files, and the forbidden server saw no request.
        assert.doesNotMatch(full, new RegExp(site.forbiddenMarker));
        assert.equal(site.forbiddenHits.length, 0);

        // 4 pages listed, all rendered: 1 credit for them and 1 for rendering them; 2 come back.
        const ledger = await ledgerOf(service(), id);
        assert.equal(ledger.balance, 20 - 2);
        const refund = ledger.rows.find((row) => row.type === 'refund')!;
        assert.equal(refund.amount, 2);
        assert.match(refund.description, /used 4 of 20 pages, 4 of them rendered/);
      });
    }

    test('hostile rendered pages (endless script, endless allocation, redirect loop) end within their budget and the service keeps answering', async () => {
      const { apiKey } = await service().createAccount();
      const healthLatencies: number[] = [];
      let jobDone = false;
      const polling = (async () => {
        while (!jobDone) {
          const started = performance.now();
          const health = await service().request('GET', '/api/v1/health');
          assert.equal(health.status, 200);
          healthLatencies.push(performance.now() - started);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      const { job } = await generate(service(), apiKey, { render: 'always' }, '/hostile/');
      jobDone = true;
      await polling;
      assert.equal(job.status, 'completed', job.error);
      const doc = parseLlmsTxt(await (await fetch(job.fileUrl)).text());
      const paths = doc.sections.flatMap((section) => section.links).map((link) => new URL(link.url).pathname);
      for (const path of HOSTILE_PATHS) assert.ok(paths.includes(path), `${path} is listed with its fetched HTML`);
      // Each hostile page took its whole budget (12 s) while /health kept answering well within it.
      assert.ok(healthLatencies.length >= 3, `health answered ${healthLatencies.length} times during the job`);
      assert.ok(Math.max(...healthLatencies) < 12_000, `slowest health answer ${Math.max(...healthLatencies)} ms`);
    });

    test('a render mode other than never is refused at the start when Chromium is missing, and nothing is charged', async () => {
      const { id, apiKey } = await service().createAccount();
      const settings = service().deps.config.render;
      const chromiumPath = settings.chromiumPath;
      settings.chromiumPath = '/nonexistent/chromium';
      try {
        const start = await service().request('POST', '/api/v1/generate', { token: apiKey, body: { url: `${site.origin}/`, options: { render: 'auto' } } });
        const message = 'Rendering is not available on this server: Chromium is not installed. Use render "never", or install Chromium (README, "Rendering pages")';
        assert.deepEqual([start.status, start.body.message], [422, message]);
        const estimate = await service().request('POST', '/api/v1/generate/estimate', { token: apiKey, body: { url: `${site.origin}/`, options: { render: 'always' } } });
        assert.deepEqual([estimate.status, estimate.body.message], [422, message]);
        const discovery = await service().request('POST', '/api/v1/discovery', { token: apiKey, body: { url: `${site.origin}/`, render: 'auto' } });
        assert.deepEqual([discovery.status, discovery.body.message], [422, message]);
        const never = await service().request('POST', '/api/v1/generate', { token: apiKey, body: { url: `${site.origin}/`, options: { render: 'never', generationMethod: 'simple', maxUrls: 1 } } });
        assert.equal(never.status, 200, never.text);
      } finally {
        settings.chromiumPath = chromiumPath;
      }
      const { rows } = await ledgerOf(service(), id);
      assert.deepEqual(rows.filter((row) => row.type === 'usage').map((row) => row.amount), [-1], 'only the job without rendering was charged');
    });

    test('discovery with render auto finds the links the script writes; without render it finds only the start page', async () => {
      const { apiKey } = await service().createAccount();
      const found: Record<string, string[]> = {};
      for (const render of ['never', 'auto']) {
        const start = await service().request('POST', '/api/v1/discovery', { token: apiKey, body: { url: `${site.origin}/`, discoveryType: 'crawl', render } });
        assert.equal(start.status, 201, start.text);
        const job = await waitForDiscovery(service(), apiKey, start.body.id, 120_000);
        assert.equal(job.status, 'completed', job.error);
        assert.equal(job.render, render);
        const urls = await service().request('GET', `/api/v1/discovery/${start.body.id}/urls?limit=100`, { token: apiKey });
        found[render] = urls.body.urls.map((u: { url: string }) => new URL(u.url).pathname).sort();
      }
      assert.deepEqual(found, { never: ['/'], auto: [...site.pagePaths].sort() });
    });

    test('render must be one of never, auto, always', async () => {
      const { apiKey } = await service().createAccount();
      const start = await service().request('POST', '/api/v1/generate', { token: apiKey, body: { url: `${site.origin}/`, options: { render: 'sometimes' } } });
      assert.equal(start.status, 400);
      assert.match(start.body.message, /^Validation error: /);
    });
  },
  { env: { CRAWL_ALLOW_PRIVATE: 'true', RENDER_PAGE_TIMEOUT_SECONDS: '12', RENDER_IDLE_SECONDS: '1' } },
);
