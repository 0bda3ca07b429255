import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { discover, type DiscoveredUrl } from './discover.ts';
import type { CrawledPage } from './crawler.ts';
import { page, routes, startSite, type TestSite } from '../testing/test-site.ts';

const allowPrivate = { allowPrivate: true };

/** A small documentation site with sitemaps of every kind and pages only links reach. */
function docsSite(origin: () => string) {
  const o = (path: string) => origin() + path;
  return routes({
    '/sitemaps/index.xml': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(`<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        <sitemap><loc>${o('/sitemaps/pages.xml')}</loc></sitemap>
        <sitemap><loc>${o('/sitemaps/blog.xml.gz')}</loc></sitemap>
        <sitemap><loc>${o('/sitemaps/more.txt')}</loc></sitemap>
      </sitemapindex>`);
    },
    '/sitemaps/pages.xml': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        <url><loc>${o('/')}</loc><lastmod>2024-05-01</lastmod></url>
        <url><loc>${o('/about')}</loc><lastmod>2024-05-02T12:00:00Z</lastmod></url>
        <url><loc>${o('/private/secret')}</loc></url>
        <url><loc>https://elsewhere.test/x</loc></url>
      </urlset>`);
    },
    '/sitemaps/blog.xml.gz': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/gzip' });
      res.end(zlib.gzipSync(`<urlset><url><loc>${o('/blog/one')}</loc><lastmod>2023-01-01</lastmod></url><url><loc>${o('/blog/two')}</loc></url></urlset>`));
    },
    '/sitemaps/more.txt': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`${o('/text/a')}\n${o('/text/b')}\n`);
    },
    '/': page('Home', ['/about', '/crawl-only', '/private/hidden', '/dup?ref=1', '/redirect-me', '/logo.png', 'https://elsewhere.test/', '/noindex', '/nofollow']),
    '/about': page('About', ['/']),
    '/blog/one': page('Blog one'),
    '/blog/two': page('Blog two'),
    '/text/a': page('Text A'),
    '/text/b': page('Text B'),
    '/crawl-only': page('Crawl only', ['/crawl-only/deeper', '/']),
    '/crawl-only/deeper': page('Deeper'),
    '/dup?ref=1': page('Duplicate', ['/from-duplicate'], '<link rel="canonical" href="/canonical-page">'),
    '/canonical-page': page('Canonical'),
    '/from-duplicate': page('Linked from the duplicate'),
    '/redirect-me': { status: 301, headers: { location: '/hop' } },
    '/hop': { status: 302, headers: { location: 'landing' } },
    '/landing': page('Landing'),
    '/noindex': page('Not indexed', ['/behind-noindex'], '<meta name="robots" content="noindex">'),
    '/behind-noindex': page('Behind noindex'),
    '/nofollow': page('No follow', ['/never-followed'], '<meta name="robots" content="nofollow">'),
    '/never-followed': page('Never followed'),
    '/private/hidden': page('Hidden'),
    '/logo.png': { headers: { 'content-type': 'image/png' }, body: Buffer.alloc(10) },
  });
}

describe('discover on a well-behaved site', () => {
  let site: TestSite;
  before(async () => {
    const handler = docsSite(() => site.origin);
    site = await startSite((req, res) => {
      if (req.url === '/robots.txt') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return void res.end(`User-agent: *\nDisallow: /private/\n\nSitemap: ${site.origin}/sitemaps/index.xml\n`);
      }
      return handler(req, res);
    });
  });
  after(() => site.close());

  const byUrl = (urls: DiscoveredUrl[]) => Object.fromEntries(urls.map((u) => [u.url.slice(site.origin.length), u]));

  test('sitemap mode reads the robots Sitemap line, the index, a gzip sitemap and a text sitemap', async () => {
    const { urls } = await discover(site.origin + '/', { mode: 'sitemap', maxUrls: 100 }, allowPrivate);
    assert.deepEqual(byUrl(urls), {
      '/': { url: site.origin + '/', source: 'sitemap', lastModified: '2024-05-01T00:00:00.000Z' },
      '/about': { url: site.origin + '/about', source: 'sitemap', lastModified: '2024-05-02T12:00:00.000Z' },
      '/blog/one': { url: site.origin + '/blog/one', source: 'sitemap', lastModified: '2023-01-01T00:00:00.000Z' },
      '/blog/two': { url: site.origin + '/blog/two', source: 'sitemap', lastModified: null },
      '/text/a': { url: site.origin + '/text/a', source: 'sitemap', lastModified: null },
      '/text/b': { url: site.origin + '/text/b', source: 'sitemap', lastModified: null },
    });
  });

  test('crawl mode follows links within the site and robots.txt, and collapses duplicates', async () => {
    const hitsBefore = site.hits.length;
    const { urls } = await discover(site.origin + '/', { mode: 'crawl', maxUrls: 100 }, allowPrivate);
    const found = urls.map((u) => u.url.slice(site.origin.length)).sort();
    assert.deepEqual(found, [
      '/',
      '/about',
      '/behind-noindex', // noindex pages are followed, just not listed
      '/canonical-page', // /dup?ref=1 is listed as its canonical URL
      '/crawl-only',
      '/crawl-only/deeper',
      '/from-duplicate',
      '/landing', // /redirect-me → /hop → landing, listed once as where it ends
      '/nofollow',
    ]);
    assert.ok(urls.every((u) => u.source === 'crawl' && u.lastModified === null));
    const hits = site.hits.slice(hitsBefore);
    assert.ok(!hits.includes('/private/hidden'), 'robots.txt Disallow is honored');
    assert.ok(!hits.includes('/logo.png'), 'images are not fetched');
    assert.ok(!hits.includes('/never-followed'), 'nofollow is honored');
    assert.ok(!hits.includes('/canonical-page'), 'a canonical URL already represented is not fetched');
    const pageHits = hits.filter((h) => h !== '/robots.txt' && !h.startsWith('/sitemap'));
    assert.equal(new Set(pageHits).size, pageHits.length, 'each URL is fetched once');
  });

  test('full mode lists sitemap URLs first, then crawl-only pages, without duplicates', async () => {
    const pages: CrawledPage[] = [];
    const progress: number[] = [];
    const { urls } = await discover(
      site.origin + '/',
      { mode: 'full', maxUrls: 100, onPage: (p) => void pages.push(p), onProgress: (n) => progress.push(n) },
      allowPrivate,
    );
    const found = byUrl(urls);
    assert.equal(urls.length, new Set(urls.map((u) => u.url)).size);
    assert.equal(found['/about'].source, 'sitemap');
    assert.equal(found['/about'].lastModified, '2024-05-02T12:00:00.000Z');
    assert.equal(found['/crawl-only'].source, 'crawl');
    assert.equal(found['/blog/one'].source, 'sitemap');
    assert.equal(urls.length, 6 + 7);
    assert.deepEqual(progress, Array.from({ length: urls.length }, (_, i) => i + 1));
    // Crawled pages are handed over with their HTML, sitemap-known ones included.
    const home = pages.find((p) => p.url === site.origin + '/');
    assert.equal(home?.title, 'Home');
    assert.match(home?.text() ?? '', /<h1>Home<\/h1>/);
    assert.equal(pages.find((p) => p.finalUrl === site.origin + '/dup?ref=1')?.url, site.origin + '/canonical-page');
  });

  test('maxUrls is respected in every mode', async () => {
    for (const mode of ['sitemap', 'crawl', 'full'] as const) {
      const { urls } = await discover(site.origin + '/', { mode, maxUrls: 3 }, allowPrivate);
      assert.equal(urls.length, 3, mode);
    }
    const { urls } = await discover(site.origin + '/', { mode: 'full', maxUrls: 8 }, allowPrivate);
    assert.deepEqual(
      urls.map((u) => u.source),
      ['sitemap', 'sitemap', 'sitemap', 'sitemap', 'sitemap', 'sitemap', 'crawl', 'crawl'],
    );
  });
});

describe('discover without robots.txt', () => {
  let site: TestSite;
  before(async () => {
    site = await startSite((req, res) =>
      routes({
        '/sitemap.xml': { headers: { 'content-type': 'text/xml' }, body: `<urlset><url><loc>${site.origin}/docs/a</loc></url><url><loc>${site.origin}/blog/b</loc></url></urlset>` },
        '/sitemap_index.xml': { headers: { 'content-type': 'text/xml' }, body: `<sitemapindex><sitemap><loc>${site.origin}/extra.txt</loc></sitemap></sitemapindex>` },
        '/extra.txt': { headers: { 'content-type': 'text/plain' }, body: `${site.origin}/docs/c\n` },
        '/docs/': page('Docs', ['a', 'c', 'd', '/blog/b']),
        '/docs/a': page('A'),
        '/docs/c': page('C'),
        '/docs/d': page('D'),
      })(req, res),
    );
  });
  after(() => site.close());

  test('reads /sitemap.xml and /sitemap_index.xml, and keeps to the start path', async () => {
    const { urls, warnings } = await discover(site.origin + '/docs/', { mode: 'full', maxUrls: 100 }, allowPrivate);
    assert.deepEqual(
      urls.map((u) => [u.url.slice(site.origin.length), u.source]),
      [
        ['/docs/a', 'sitemap'],
        ['/docs/c', 'sitemap'],
        ['/docs/', 'crawl'],
        ['/docs/d', 'crawl'],
      ],
    );
    assert.deepEqual(warnings, []);
  });
});

describe('discover when the start URL moves to another host', () => {
  let site: TestSite;
  before(async () => {
    site = await startSite((req, res) => {
      const host = req.headers.host ?? '';
      if (host.startsWith('example.test')) {
        res.writeHead(301, { location: `http://www.example.test:${site.port}${req.url}` });
        return void res.end();
      }
      return routes({
        '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /no/\n' },
        '/sitemap.xml': { headers: { 'content-type': 'text/xml' }, body: `<urlset><url><loc>http://www.example.test:${site.port}/from-sitemap</loc></url></urlset>` },
        '/': page('Home', ['/a', '/no/b']),
        '/a': page('A'),
      })(req, res);
    });
  });
  after(() => site.close());

  test('continues on the new host with its robots.txt and sitemap', async () => {
    const resolve = async () => [{ address: '127.0.0.1', family: 4 }];
    const { urls } = await discover(`http://example.test:${site.port}/`, { mode: 'full', maxUrls: 100 }, { allowPrivate: true, resolve });
    assert.deepEqual(
      urls.map((u) => u.url),
      [`http://www.example.test:${site.port}/from-sitemap`, `http://www.example.test:${site.port}/`, `http://www.example.test:${site.port}/a`],
    );
  });
});
