import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { startDocsSite, type DocsSite } from '../testing/docs-site.ts';
import { waitForGeneration } from '../testing/jobs.ts';
import { testDatabaseKinds } from '../testing/databases.ts';
import { startTestService, type TestService } from '../testing/service.ts';
import { createPagePool } from './page-pool.ts';
import { bundlePageWorker } from './page-worker-bundle.ts';
import { manualPage } from './made-up-manual.ts';

const ONE_EACH = { reading: 1, extracting: 1 };
const PAGES = [0, 1, 2].map((n) => ({ html: manualPage(n), url: `https://example.com/manual/${n}.html` }));

describe('the page worker bundled for the page threads', () => {
  it('reads and extracts pages as the modules do, and its folder goes with remove()', async () => {
    const bundle = await bundlePageWorker();
    const folder = dirname(fileURLToPath(bundle.file));
    const bundled = createPagePool(ONE_EACH, { workerFile: bundle.file });
    const modules = createPagePool(ONE_EACH);
    try {
      assert.match(bundle.file.pathname, /\.mjs$/);
      for (const pool of [bundled, modules]) pool.retireWhenIdle();
      const readAll = (pool: typeof bundled) => Promise.all(PAGES.map(({ html, url }) => pool.read({ body: Buffer.from(html), contentType: 'text/html' }, url, {})));
      const extractAll = (pool: typeof bundled) => Promise.all(PAGES.map(({ html, url }) => pool.extract(html, url, { content: true })));
      assert.deepEqual(await readAll(bundled), await readAll(modules));
      const extracted = await extractAll(bundled);
      assert.ok(extracted.every((page) => page.markdown.length > 100), 'each page has its markdown');
      assert.deepEqual(extracted, await extractAll(modules));
    } finally {
      await Promise.all([bundled.close(), modules.close()]);
      bundle.remove();
    }
    assert.equal(existsSync(folder), false);
  });
});

describe("the bundles' folders", () => {
  it('are deleted by the next start once untouched for a day (a service killed without stopping), and kept while fresh', async () => {
    const stale = mkdtempSync(join(tmpdir(), 'llmstxt-page-worker-'));
    const fresh = mkdtempSync(join(tmpdir(), 'llmstxt-page-worker-'));
    const dayAndAMinuteAgo = new Date(Date.now() - 24 * 3_600_000 - 60_000);
    utimesSync(stale, dayAndAMinuteAgo, dayAndAMinuteAgo);
    try {
      const bundle = await bundlePageWorker();
      bundle.remove();
      assert.equal(existsSync(stale), false);
      assert.equal(existsSync(fresh), true);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
      rmSync(stale, { recursive: true, force: true });
    }
  });
});

describe('a page worker the bundler cannot bundle', () => {
  it("is refused with the bundler's error, and leaves no folder behind", async () => {
    const folders = () => readdirSync(tmpdir()).filter((name) => name.startsWith('llmstxt-page-worker-')).length;
    const before = folders();
    await assert.rejects(bundlePageWorker('src/generation/no-such-worker.ts'), /no-such-worker/);
    assert.equal(folders(), before);
  });
});

describe('a service that readies its job threads before taking jobs (as npm start starts it)', () => {
  let site: DocsSite;
  const services: TestService[] = [];
  const bundleFolders = () => new Set(readdirSync(tmpdir()).filter((name) => name.startsWith('llmstxt-page-worker-')));
  let bundleFolder: string;
  before(async () => {
    site = await startDocsSite();
    const kind = testDatabaseKinds()[0];
    const earlier = bundleFolders();
    const env = { CRAWL_ALLOW_PRIVATE: 'true' };
    services.push(await startTestService(kind, { warmUp: true, env }), await startTestService(kind, { env }));
    [bundleFolder] = [...bundleFolders()].filter((name) => !earlier.has(name));
  });
  after(async () => {
    await Promise.all(services.map((service) => service.close()));
    await site.close();
  });

  it('bundles the page worker as it starts, for its page threads', () => {
    assert.ok(bundleFolder, 'a new bundle folder');
    assert.ok(existsSync(join(tmpdir(), bundleFolder, 'page-worker.mjs')));
  });

  it('extracts with its bundle the llms-full.txt a service without one writes', async () => {
    const files = await Promise.all(
      services.map(async (service) => {
        const { apiKey } = await service.createAccount();
        const start = await service.request('POST', '/api/v1/generate', { token: apiKey, body: { url: site.origin, options: { maxUrls: 20, showFullText: true } } });
        assert.equal(start.status, 200, start.text);
        const job = await waitForGeneration(service, apiKey, start.body.jobId);
        assert.equal(job.status, 'completed', job.error);
        return (await fetch(job.fullTextUrl)).text();
      }),
    );
    assert.match(files[0], /npm install -g acme-cli/);
    assert.equal(files[0], files[1]);
  });

  it('deletes its bundle once it stops', async () => {
    await services.shift()!.close();
    assert.equal(existsSync(join(tmpdir(), bundleFolder)), false);
  });
});
