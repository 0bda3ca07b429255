// The pages only a sitemap lists go through the crawler's duties: its pool, robots.txt, the
// job's scope and the address guard (the production setting: only the test site's 127.0.0.1).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { discover } from './discover.ts';
import { createFetcher } from './fetcher.ts';
import { fetchListedPages, type ListedPage, type ListedPageHandlers } from './listed-pages.ts';
import { scopeOf } from './normalize-url.ts';
import { PageVisits } from './page-visits.ts';
import { parseRobotsTxt } from './robots.ts';
import { page, routes, startSite, type TestSite } from '../testing/test-site.ts';

const LISTED = ['/', '/a', '/b', '/c', '/d', '/to-private', '/to-internal', '/notes.txt', '/gone'];

describe('pages only a sitemap lists', () => {
  let site: TestSite;
  let decoy: TestSite;
  const requested: string[] = [];
  let decoyRequests = 0;
  let inFlight = 0;
  let mostInFlight = 0;
  const guard = { isAllowedAddress: (address: string) => address === '127.0.0.1' };

  before(async () => {
    decoy = await startSite((_req, res) => {
      decoyRequests++;
      res.end(page('internal'));
    }, '127.0.0.2');
    const serve = routes({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /private/\n' },
      '/': page('Home'),
      '/a': page('A'),
      '/b': page('B'),
      '/c': page('C'),
      '/d': page('D'),
      '/private/listed': page('Private'),
      '/private/page': page('Private'),
      '/to-private': { status: 302, headers: { location: '/private/page' } },
      '/to-internal': { status: 302, headers: { location: `http://127.0.0.2:${decoy.port}/admin` } },
      '/notes.txt': { headers: { 'content-type': 'text/plain' }, body: 'notes' },
    });
    site = await startSite(async (req, res) => {
      requested.push(req.url!);
      if (req.url === '/sitemap.xml') {
        const entries = [...LISTED, '/private/listed'].map((path) => `<url><loc>${site.origin}${path}</loc></url>`).join('');
        res.writeHead(200, { 'content-type': 'application/xml' });
        return res.end(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries}</urlset>`);
      }
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inFlight--;
      return serve(req, res);
    });
  });
  after(async () => {
    await site.close();
    await decoy.close();
  });

  function recorder() {
    const pages: ListedPage[] = [];
    const missed = new Map<string, string>();
    const handlers: ListedPageHandlers = {
      onPage: async (listed) => void pages.push(listed),
      onMissed: (url, reason) => void missed.set(url, reason),
    };
    return { pages, missed, handlers };
  }
  const paths = (urls: Iterable<string>) => [...urls].map((url) => new URL(url).pathname).sort();

  test('are fetched by the crawler in its pool, within its guard, robots.txt and scope, and handed over', async () => {
    const { pages, missed, handlers } = recorder();
    const crawled: string[] = [];
    requested.length = 0;
    mostInFlight = 0;
    const onPage = async (crawledPage: { url: string }) => void crawled.push(crawledPage.url);
    const result = await discover(`${site.origin}/`, { mode: 'full', maxUrls: 50, onPage, listed: handlers }, { ...guard, limits: { concurrencyPerHost: 2 } });
    assert.deepEqual(paths(result.urls.map((u) => u.url)), [...LISTED].sort(), 'robots.txt keeps /private/listed out of the list');
    assert.deepEqual(paths(crawled), ['/'], 'the crawl hands over the start page');
    assert.deepEqual(paths(pages.map((p) => p.url)), ['/a', '/b', '/c', '/d']);
    assert.deepEqual(paths(missed.keys()), ['/gone', '/notes.txt', '/to-internal', '/to-private']);
    assert.match(missed.get(`${site.origin}/to-internal`)!, /private or reserved address/);
    assert.match(missed.get(`${site.origin}/to-private`)!, /disallowed by robots\.txt/);
    assert.equal(missed.get(`${site.origin}/notes.txt`), 'not HTML (text/plain)');
    assert.equal(missed.get(`${site.origin}/gone`), 'HTTP 404');
    assert.equal(decoyRequests, 0, 'the internal address is never asked');
    assert.ok(!requested.includes('/private/listed'));
    assert.equal(requested.filter((path) => path === '/').length, 1, 'the start page is fetched once');
    assert.ok(mostInFlight <= 2, `${mostInFlight} requests at once, over the per-host cap of 2`);
  });

  test('a URL robots.txt disallows or outside the scope is not fetched, whoever listed it', async () => {
    const { pages, missed, handlers } = recorder();
    requested.length = 0;
    const fetcher = createFetcher(guard);
    try {
      const visit = { visits: new PageVisits(fetcher, 4), robots: parseRobotsTxt('User-agent: *\nDisallow: /private/\n'), scope: scopeOf(`${site.origin}/`), signal: undefined, handlers };
      const urls = [`${site.origin}/private/listed`, `http://127.0.0.2:${decoy.port}/admin`, `${site.origin}/a`].map((url) => ({ url, lastModified: '2026-11-01' }));
      await fetchListedPages(urls, new Set(), visit);
    } finally {
      await fetcher.close();
    }
    assert.deepEqual(requested, ['/a']);
    assert.deepEqual(pages.map((p) => [new URL(p.url).pathname, p.lastModified]), [['/a', '2026-11-01']]);
    assert.deepEqual([...missed.values()], ['disallowed by robots.txt', 'outside the site']);
  });
});
