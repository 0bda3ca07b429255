import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { crawlSite, type CrawlResult, type CrawlSiteOptions } from './crawler.ts';
import { createFetcher, type Fetcher } from './fetcher.ts';
import { scopeOf } from './normalize-url.ts';
import { ALLOW_ALL } from './robots.ts';
import { page, startSite, type TestSite } from '../testing/test-site.ts';

// A tree larger than the caps: / links to 12 pages /a/i, each links to 12 pages /a/i/b/j, each to
// /a/i/b/j/c. Every page answers after a random delay, so pages finish in a different order each run.
const WIDTH = 12;
const depthOf = (url: string) => new URL(url).pathname.split('/').filter(Boolean).length / 2;

describe('a crawl cut by its caps', () => {
  let site: TestSite;
  let fetcher: Fetcher;
  let depthOneNoindex = false;

  before(async () => {
    site = await startSite(async (req, res) => {
      const path = (req.url ?? '/').replace(/\/$/, '');
      const depth = depthOf('http://x' + (path || '/'));
      const child = ['a', 'b', 'c'][depth];
      const links = child ? Array.from({ length: depth === 2 ? 1 : WIDTH }, (_, i) => `${path}/${child}/${i}`) : [];
      const head = depthOneNoindex && depth === 1 ? '<meta name="robots" content="noindex">' : '';
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 15));
      res.setHeader('content-type', 'text/html');
      res.end(page(path || 'home', links, head));
    });
    fetcher = createFetcher({ allowPrivate: true });
  });
  after(async () => {
    await fetcher.close();
    await site.close();
  });

  const crawl = (extra: Partial<CrawlSiteOptions>) =>
    crawlSite({ fetcher, startUrl: site.origin + '/', scope: scopeOf(site.origin + '/'), robots: ALLOW_ALL, maxUrls: 1000, ...extra });

  /** Pages reach the crawl breadth first: none of depth d+1 before every page of depth d. */
  function assertBreadthFirst(result: CrawlResult) {
    const depths = result.urls.map(depthOf);
    assert.deepEqual(depths, [...depths].sort((a, b) => a - b));
    const deepest = depths.at(-1) ?? 0;
    assert.equal(depths.filter((d) => d === deepest - 1).length, WIDTH ** (deepest - 1));
  }

  test('two crawls cut by maxUrls list the same pages, breadth first', async () => {
    const runs = [await crawl({ maxUrls: 60 }), await crawl({ maxUrls: 60 })];
    for (const run of runs) {
      assert.equal(run.stoppedBy, 'maxUrls');
      assertBreadthFirst(run);
    }
    assert.deepEqual(runs[1].urls, runs[0].urls);
  });

  test('two crawls cut by the fetch budget list the same pages', async () => {
    // Twelve pages of depth 1 are not listed (noindex) but cost a fetch each.
    depthOneNoindex = true;
    const runs = [await crawl({ maxUrls: 30, limits: { fetchesPerUrl: 1 } }), await crawl({ maxUrls: 30, limits: { fetchesPerUrl: 1 } })];
    depthOneNoindex = false;
    for (const run of runs) assert.equal(run.stoppedBy, 'fetchBudget');
    assert.deepEqual(runs[1].urls, runs[0].urls);
  });
});
