import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { crawlSite, type CrawlSiteOptions } from './crawler.ts';
import { createFetcher, type Fetcher } from './fetcher.ts';
import { scopeOf } from './normalize-url.ts';
import { ALLOW_ALL, parseRobotsTxt } from './robots.ts';
import { page, startSite, type TestSite } from '../testing/test-site.ts';

describe('crawlSite', () => {
  let site: TestSite;
  let fetcher: Fetcher;
  let inFlight = 0;
  let maxInFlight = 0;
  const startTimes: number[] = [];

  before(async () => {
    // /wide links to 60 leaves; each leaf answers after 20 ms, so overlapping requests show.
    site = await startSite(async (req, res) => {
      const url = req.url ?? '';
      if (url === '/wide') return void res.end(page('Wide', Array.from({ length: 60 }, (_, i) => `/leaf/${i}`)));
      if (url === '/header-noindex') {
        res.writeHead(200, { 'content-type': 'text/html', 'x-robots-tag': 'noindex' });
        return void res.end(page('Header noindex', ['/after-header']));
      }
      if (url === '/after-header') return void res.end(page('After header'));
      if (url === '/no-type') return void res.end('<html><title>untyped</title><a href="/leaf/1">x</a></html>');
      if (url === '/json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end('{"a": "<a href=/leaf/2>"}');
      }
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      startTimes.push(Date.now());
      await new Promise((resolve) => setTimeout(resolve, 20));
      inFlight--;
      res.setHeader('content-type', 'text/html');
      res.end(page(url));
    });
    fetcher = createFetcher({ allowPrivate: true, limits: { concurrencyPerHost: 4 } });
  });
  after(async () => {
    await fetcher.close();
    await site.close();
  });

  const crawl = (path: string, extra: Partial<CrawlSiteOptions> = {}) =>
    crawlSite({ fetcher, startUrl: site.origin + path, scope: scopeOf(site.origin + '/'), robots: ALLOW_ALL, maxUrls: 1000, ...extra });

  test('never has more requests in flight than the per-host cap', async () => {
    maxInFlight = 0;
    const result = await crawl('/wide', { limits: { concurrencyPerHost: 4 } });
    assert.equal(result.urls.length, 61);
    assert.equal(result.stoppedBy, 'done');
    assert.equal(maxInFlight, 4);
  });

  test('spaces requests by the robots.txt Crawl-delay', async () => {
    startTimes.length = 0;
    const robots = parseRobotsTxt('User-agent: *\nCrawl-delay: 0.1\n');
    await crawl('/wide', { robots, maxUrls: 5 });
    // Four leaves, so three 100 ms intervals; without the delay all four start together.
    // The span is measured, not each gap, because arrival times jitter under load.
    assert.equal(startTimes.length, 4);
    const span = startTimes[3] - startTimes[0];
    assert.ok(span >= 270, `four requests within ${span} ms`);
  });

  test('stops at maxUrls and aborts what is still in flight', async () => {
    const result = await crawl('/wide', { maxUrls: 10 });
    assert.equal(result.urls.length, 10);
    assert.equal(result.stoppedBy, 'maxUrls');
  });

  test("stops when the caller's signal aborts", async () => {
    // One request at a time, 20 ms each: the whole crawl would take over a second.
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 100);
    const result = await crawl('/wide', { signal: controller.signal, limits: { concurrencyPerHost: 1 } });
    assert.equal(result.stoppedBy, 'aborted');
    assert.ok(result.urls.length < 61, `${result.urls.length} URLs`);
    assert.ok(Date.now() - started < 600, `ended ${Date.now() - started} ms after the start`);
  });

  test('pages known from a sitemap are crawled for links but not listed again', async () => {
    const known = new Set([site.origin + '/wide']);
    const result = await crawl('/wide', { known });
    assert.equal(result.urls.length, 60);
    assert.ok(!result.urls.includes(site.origin + '/wide'));
  });

  test('an X-Robots-Tag noindex header keeps a page out of the list but its links are followed', async () => {
    const result = await crawl('/header-noindex');
    assert.deepEqual(result.urls, [site.origin + '/after-header']);
  });

  test('reads a page without Content-Type when it looks like HTML, and skips JSON', async () => {
    assert.deepEqual((await crawl('/no-type')).urls, [site.origin + '/no-type', site.origin + '/leaf/1']);
    assert.deepEqual((await crawl('/json')).urls, []);
  });

  test('a start page that cannot be fetched is reported as the start error', async () => {
    const result = await crawl('/', { startUrl: 'http://127.0.0.1:1/' });
    assert.equal(result.startError?.code, 'CONNECTION');
    assert.deepEqual(result.urls, []);
  });
});
