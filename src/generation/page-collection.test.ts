import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { NO_PATH_FILTERS } from '../crawl/index.ts';
import { readHtml, type PageInput, type PageReading } from '../llms-txt/index.ts';
import { startDocsSite, type DocsSite } from '../testing/docs-site.ts';
import { page, routes, startSite } from '../testing/test-site.ts';
import { createPagePool } from './page-pool.ts';
import { collectPages, type CollectOptions } from './page-collection.ts';

describe('collectPages', () => {
  let site: DocsSite;
  before(async () => {
    site = await startDocsSite();
  });
  after(() => site.close());

  type CollectedPage = Omit<PageInput, 'html' | 'reading'> & { html: string; reading?: PageReading };

  /** Every page collectPages hands over, decoded and its reading awaited, and every URL discovery listed. */
  async function collect(read?: CollectOptions['read']) {
    const collected = collectPages(site.origin + '/', {
      maxUrls: 100,
      signal: new AbortController().signal,
      crawl: { allowPrivate: true },
      paths: NO_PATH_FILTERS,
      read,
    });
    const pages: CollectedPage[] = [];
    for await (const page of collected.pages) {
      pages.push({ ...page, html: typeof page.html === 'string' ? page.html : page.html(), reading: await page.reading });
    }
    return { pages, discovered: await collected.discovered };
  }

  test('pages the crawler read come with the outline and hash it made while reading their links; sitemap pages are read later', async () => {
    const { pages, discovered } = await collect();
    const byPath = new Map(pages.map((page) => [new URL(page.url).pathname, page]));
    assert.deepEqual([...byPath.keys()].sort(), [...site.pagePaths].sort());
    const crawledOnly = discovered.filter((url) => url.source === 'crawl').map((url) => new URL(url.url).pathname);
    assert.deepEqual(crawledOnly, ['/docs/hidden-gem']);
    for (const page of pages) {
      const path = new URL(page.url).pathname;
      // The crawler starts at the home page and follows its links to pages the sitemap also lists:
      // every page it fetched carries its reading, the same as one made from the page alone.
      if (page.reading) assert.deepEqual(page.reading, readHtml(page.html, page.url), path);
    }
    assert.ok(byPath.get('/')!.reading, 'the start page is read by the crawler');
    assert.ok(byPath.get('/docs/hidden-gem')!.reading, 'a page only links reach is read by the crawler');
    assert.ok(pages.some((page) => !page.reading), 'pages only the sitemap lists are fetched without a crawl');
  });

  test("a page pool's thread reads the same links, outlines and hashes as the event loop, sitemap pages' too", async () => {
    const pool = createPagePool({ reading: 1, extracting: 1 });
    try {
      const inline = await collect();
      const inThread = await collect(pool.read);
      const urls = (pages: CollectedPage[]) => pages.map((page) => page.url).sort();
      assert.deepEqual(urls(inThread.pages), urls(inline.pages));
      for (const page of inThread.pages) assert.deepEqual(page.reading, readHtml(page.html, page.url), page.url);
    } finally {
      await pool.close();
    }
  });

  test('pages a failing thread could not read are read on the event loop: none is lost', async () => {
    let asked = 0;
    const { pages } = await collect(async () => {
      asked++;
      throw new Error('the thread ended');
    });
    assert.deepEqual(pages.map((page) => new URL(page.url).pathname).sort(), [...site.pagePaths].sort());
    assert.ok(asked >= 2, `the thread was asked ${asked} times`);
    for (const page of pages) assert.deepEqual(page.reading, readHtml(page.html, page.url), page.url);
  });

  test("pages only a sitemap lists are the crawler's visits: a redirect to a path robots.txt disallows is not read", async () => {
    const listed = ['/', '/ok', '/moved'];
    const redirecting = await startSite(
      routes({
        '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /private/\n' },
        '/sitemap.xml': (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/xml' });
          res.end(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${listed.map((path) => `<url><loc>${redirecting.origin}${path}</loc></url>`).join('')}</urlset>`);
        },
        '/': page('Home'),
        '/ok': page('Ok'),
        '/moved': { status: 301, headers: { location: '/private/page' } },
        '/private/page': page('Private'),
      }),
    );
    try {
      const collected = collectPages(redirecting.origin + '/', { maxUrls: 100, signal: new AbortController().signal, crawl: { allowPrivate: true }, paths: NO_PATH_FILTERS });
      const urls: string[] = [];
      for await (const collectedPage of collected.pages) urls.push(new URL(collectedPage.url).pathname);
      assert.equal((await collected.discovered).length, 3);
      assert.deepEqual(urls.sort(), ['/', '/ok']);
      assert.deepEqual([...collected.failures.keys()], [redirecting.origin + '/moved']);
    } finally {
      await redirecting.close();
    }
  });
});
