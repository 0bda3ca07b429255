import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createFetcher, type Fetcher } from './fetcher.ts';
import { scopeOf } from './normalize-url.ts';
import { collectSitemapUrls, parseSitemap } from './sitemaps.ts';
import { startSite, type TestSite } from '../testing/test-site.ts';

const urlset = (entries: string) => `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries}</urlset>`;

describe('parseSitemap', () => {
  test('reads a urlset with lastmod, decoding XML entities in <loc>', () => {
    const xml = urlset(`
      <url><loc> https://a.test/page?b=2&amp;a=1 </loc><lastmod>2024-03-01</lastmod><priority>0.5</priority></url>
      <url><loc>https://a.test/caf&#xE9;</loc><lastmod>2024-03-02T10:00:00+02:00</lastmod></url>
      <url><loc>https://a.test/no-date</loc><lastmod>yesterday</lastmod></url>
      <url><loc>ftp://a.test/file</loc></url>`);
    assert.deepEqual(parseSitemap(xml), {
      kind: 'urlset',
      urls: [
        { url: 'https://a.test/page?a=1&b=2', lastModified: '2024-03-01T00:00:00.000Z' },
        { url: 'https://a.test/caf%C3%A9', lastModified: '2024-03-02T08:00:00.000Z' },
        { url: 'https://a.test/no-date', lastModified: null },
      ],
      sitemaps: [],
    });
  });

  test('reads a single <url> (not an array) and namespace prefixes', () => {
    const xml = '<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>https://a.test/only</sm:loc></sm:url></sm:urlset>';
    assert.deepEqual(parseSitemap(xml).urls, [{ url: 'https://a.test/only', lastModified: null }]);
  });

  test('reads a sitemap index', () => {
    const xml = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <sitemap><loc>https://a.test/s1.xml</loc><lastmod>2024-01-01</lastmod></sitemap>
      <sitemap><loc>https://a.test/s2.xml.gz</loc></sitemap></sitemapindex>`;
    assert.deepEqual(parseSitemap(xml), { kind: 'sitemapindex', urls: [], sitemaps: ['https://a.test/s1.xml', 'https://a.test/s2.xml.gz'] });
  });

  test('reads a plain-text sitemap, one URL per line, skipping everything else', () => {
    const text = '\ufeffhttps://a.test/one\r\n\n  https://a.test/two  \nnot a url\n/relative\nhttps://a.test/one#dup\n';
    assert.deepEqual(parseSitemap(text), {
      kind: 'text',
      urls: [
        { url: 'https://a.test/one', lastModified: null },
        { url: 'https://a.test/two', lastModified: null },
        { url: 'https://a.test/one', lastModified: null },
      ],
      sitemaps: [],
    });
  });

  test('does not expand entities declared in a DOCTYPE (billion laughs)', () => {
    const levels = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('\n');
    const xml = `<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY lol0 "lol">${levels}]>
      <urlset><url><loc>https://a.test/&lol9;</loc></url><url><loc>&lol9;</loc></url></urlset>`;
    const started = Date.now();
    const parsed = parseSitemap(xml);
    assert.ok(Date.now() - started < 1000);
    // The literal text stays: a URL with "&lol9;" percent-encoded in it, and a non-URL dropped.
    assert.deepEqual(parsed.urls, [{ url: 'https://a.test/&lol9;', lastModified: null }]);
  });

  test('caps the URLs read from one file', () => {
    const xml = urlset(Array.from({ length: 100 }, (_, i) => `<url><loc>https://a.test/${i}</loc></url>`).join(''));
    assert.equal(parseSitemap(xml, { maxUrls: 10 }).urls.length, 10);
  });

  test('an HTML page or broken XML is not a sitemap, and does not throw', () => {
    assert.equal(parseSitemap('<!doctype html><html><body><a href="https://a.test/">x</a></body></html>').kind, 'unknown');
    assert.equal(parseSitemap('<urlset><url><loc>https://a.test/x</loc></url').kind !== 'sitemapindex', true);
    assert.equal(parseSitemap('').kind, 'unknown');
  });
});

describe('collectSitemapUrls', () => {
  let site: TestSite;
  let fetcher: Fetcher;
  before(async () => {
    site = await startSite((req, res) => {
      const origin = `http://${req.headers.host}`;
      const index = (children: string[]) =>
        `<sitemapindex>${children.map((c) => `<sitemap><loc>${origin}${c}</loc></sitemap>`).join('')}</sitemapindex>`;
      res.setHeader('content-type', 'application/xml');
      switch (req.url) {
        case '/self-index.xml':
          return void res.end(index(['/self-index.xml', '/leaf.xml']));
        case '/leaf.xml':
          return void res.end(urlset(`<url><loc>${origin}/page</loc></url><url><loc>https://elsewhere.test/x</loc></url>`));
        case '/many.xml':
          return void res.end(index(Array.from({ length: 20 }, (_, i) => `/many-${i}.xml`)));
        default: {
          const deep = /^\/deep-(\d+)\.xml$/.exec(req.url ?? '');
          if (deep) return void res.end(index([`/deep-${Number(deep[1]) + 1}.xml`]));
          const many = /^\/many-(\d+)\.xml$/.exec(req.url ?? '');
          if (many) return void res.end(urlset(`<url><loc>${origin}/m/${many[1]}</loc></url>`));
          res.writeHead(404);
          res.end();
        }
      }
    });
    fetcher = createFetcher({ allowPrivate: true });
  });
  after(async () => {
    await fetcher.close();
    await site.close();
  });

  const collect = (robotsSitemaps: string[], extra: Partial<Parameters<typeof collectSitemapUrls>[0]> = {}) =>
    collectSitemapUrls({ fetcher, origin: site.origin, scope: scopeOf(site.origin + '/'), robotsSitemaps, maxUrls: 1000, ...extra });

  test('an index that lists itself is read once, and out-of-site URLs are dropped', async () => {
    const result = await collect([`${site.origin}/self-index.xml`]);
    assert.deepEqual(result.urls, [{ url: `${site.origin}/page`, lastModified: null }]);
    assert.equal(site.hits.filter((h) => h === '/self-index.xml').length, 1);
  });

  test('nesting stops at the depth cap', async () => {
    const result = await collect([`${site.origin}/deep-0.xml`], { limits: { maxSitemapDepth: 3 } });
    assert.ok(site.hits.includes('/deep-3.xml'));
    assert.ok(!site.hits.includes('/deep-4.xml'));
    assert.match(result.warnings.join('\n'), /nesting deeper than 3 levels/);
  });

  test('stops at the cap on files per job', async () => {
    const result = await collect([`${site.origin}/many.xml`], { limits: { maxSitemapFiles: 5 } });
    assert.equal(result.files, 5);
    assert.equal(result.urls.length, 4);
    assert.match(result.warnings.join('\n'), /after 5 files/);
  });

  test('stops early once maxUrls URLs are found', async () => {
    const before = site.hits.length;
    const result = await collect([`${site.origin}/many.xml`], { maxUrls: 2 });
    assert.equal(result.urls.length, 2);
    assert.equal(site.hits.length - before, 3, 'the index and two sitemaps, nothing more');
  });
});
