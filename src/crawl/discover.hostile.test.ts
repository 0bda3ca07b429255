// Sites built to hurt a crawler. Each discovery must end within its bounds, with a clear
// error or a partial result, and the process must carry on normally afterwards.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type http from 'node:http';
import { discover, DiscoveryError, type DiscoveryResult } from './discover.ts';
import type { CrawledPage } from './crawler.ts';
import { gzipBomb, page, routes, startSite, type Handler, type TestSite } from '../testing/test-site.ts';

const allowPrivate = { allowPrivate: true };
const sites: TestSite[] = [];

async function site(handler: (origin: string) => Handler): Promise<TestSite> {
  let origin = '';
  const s = await startSite((req, res) => handler(origin)(req, res));
  origin = s.origin;
  sites.push(s);
  return s;
}

async function expectDiscoveryError(promise: Promise<DiscoveryResult>, message: RegExp): Promise<void> {
  const err = await promise.then(
    () => assert.fail('expected discovery to fail'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof DiscoveryError, String(err));
  assert.match(err.message, message);
}

async function timed<T>(fn: () => Promise<T>, maxMs: number): Promise<T> {
  const started = Date.now();
  const result = await fn();
  const elapsed = Date.now() - started;
  assert.ok(elapsed < maxMs, `took ${elapsed} ms, bound ${maxMs} ms`);
  return result;
}

function streamForever(res: http.ServerResponse) {
  const chunk = Buffer.alloc(64 * 1024, '<p>');
  res.writeHead(200, { 'content-type': 'text/html' });
  const pump = () => {
    while (!res.destroyed) if (!res.write(chunk)) return res.once('drain', pump);
  };
  pump();
}

describe('discover against hostile sites', () => {
  after(async () => {
    await Promise.all(sites.map((s) => s.close()));
  });

  test('a start page in a redirect loop fails the job with a clear error', async () => {
    const s = await site(() => routes({ '/': { status: 302, headers: { location: '/again' } }, '/again': { status: 302, headers: { location: '/' } } }));
    await expectDiscoveryError(discover(s.origin + '/', { mode: 'crawl', maxUrls: 10 }, allowPrivate), /Could not fetch .*: Redirect loop/);
  });

  test('a host that does not resolve or refuses connections fails the job with the reason', async () => {
    const resolve = async (hostname: string) => {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    };
    await expectDiscoveryError(
      discover('http://no-such-host.test/', { mode: 'full', maxUrls: 10 }, { allowPrivate: true, resolve }),
      /^Could not fetch http:\/\/no-such-host\.test\/: Could not resolve host no-such-host\.test$/,
    );
    const closed = await startSite(() => {});
    await closed.close();
    await expectDiscoveryError(discover(closed.origin + '/', { mode: 'crawl', maxUrls: 10 }, allowPrivate), /Connection refused by 127\.0\.0\.1/);
  });

  test('a redirect loop inside the site only costs that page', async () => {
    const s = await site(() =>
      routes({ '/': page('Home', ['/loop', '/fine']), '/loop': { status: 301, headers: { location: '/loop?x' } }, '/loop?x': { status: 301, headers: { location: '/loop' } }, '/fine': page('Fine') }),
    );
    const result = await discover(s.origin + '/', { mode: 'crawl', maxUrls: 10 }, allowPrivate);
    assert.deepEqual(result.urls.map((u) => u.url), [s.origin + '/', s.origin + '/fine']);
    assert.match(result.warnings.join('\n'), /Redirect loop/);
  });

  test('a 100 MB start page fails with a clear error; a 100 MB inner page is skipped', async () => {
    const big = await site(() => routes({ '/': (_req, res) => streamForever(res) }));
    await timed(() => expectDiscoveryError(discover(big.origin + '/', { mode: 'crawl', maxUrls: 10 }, allowPrivate), /Response larger than 10 MB/), 5000);
    const inner = await site(() => routes({ '/': page('Home', ['/huge', '/ok']), '/huge': (_req, res) => streamForever(res), '/ok': page('Ok') }));
    const result = await timed(() => discover(inner.origin + '/', { mode: 'crawl', maxUrls: 10 }, allowPrivate), 5000);
    assert.deepEqual(result.urls.map((u) => u.url), [inner.origin + '/', inner.origin + '/ok']);
  });

  test('gzip bomb sitemaps (gzip file and Content-Encoding) are stopped at 50 MB; the good sitemap still counts', async () => {
    const bomb = gzipBomb();
    const s = await site((origin) =>
      routes({
        '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: `Sitemap: ${origin}/bomb.xml.gz\nSitemap: ${origin}/good.xml\n` },
        '/bomb.xml.gz': { headers: { 'content-type': 'application/gzip' }, body: bomb },
        '/sitemap.xml': { headers: { 'content-type': 'application/xml', 'content-encoding': 'gzip' }, body: bomb },
        '/good.xml': { headers: { 'content-type': 'application/xml' }, body: `<urlset><url><loc>${origin}/listed</loc></url></urlset>` },
        '/': page('Home'),
      }),
    );
    const before = process.memoryUsage().rss;
    const result = await timed(() => discover(s.origin + '/', { mode: 'sitemap', maxUrls: 10 }, allowPrivate), 5000);
    assert.deepEqual(result.urls.map((u) => u.url), [s.origin + '/listed']);
    assert.match(result.warnings.join('\n'), /bomb\.xml\.gz: Decompressed content exceeds 50 MB/);
    assert.ok(process.memoryUsage().rss - before < 400 * 1024 * 1024, 'memory stays bounded');
  });

  test('an XML entity-expansion sitemap expands nothing', async () => {
    const levels = Array.from({ length: 10 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('');
    const s = await site((origin) =>
      routes({
        '/sitemap.xml': {
          headers: { 'content-type': 'application/xml' },
          body: `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol0 "lol">${levels}]><urlset><url><loc>&lol10;</loc></url><url><loc>${origin}/real</loc></url></urlset>`,
        },
      }),
    );
    const result = await timed(() => discover(s.origin + '/', { mode: 'sitemap', maxUrls: 10 }, allowPrivate), 2000);
    assert.deepEqual(result.urls.map((u) => u.url), [s.origin + '/real']);
  });

  test('a server dripping one byte a second is cut off by the request timeout', async () => {
    const s = await site(() =>
      routes({
        '/': (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/html' });
          const timer = setInterval(() => res.write('<'), 1000);
          res.on('close', () => clearInterval(timer));
        },
      }),
    );
    const options = { ...allowPrivate, limits: { requestTimeoutMs: 1000 } };
    await timed(() => expectDiscoveryError(discover(s.origin + '/', { mode: 'crawl', maxUrls: 10 }, options), /Timed out after 1 s/), 3000);
  });

  test('a site that never answers ends at the job time budget with a clear error', async () => {
    const s = await site(() => () => {});
    const options = { ...allowPrivate, limits: { jobTimeoutMs: 500 } };
    await timed(
      () => expectDiscoveryError(discover(s.origin + '/', { mode: 'full', maxUrls: 10 }, options), /no answer within the time budget of 0.5 s/),
      2000,
    );
  });

  test('an infinite calendar is bounded by maxUrls, and by the job time budget', async () => {
    // Every month links to the next and the previous one, forever.
    const calendar = () => (req: http.IncomingMessage, res: http.ServerResponse) => {
      const month = Number(/\/cal\/(-?\d+)/.exec(req.url ?? '')?.[1] ?? 0);
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(page(`Month ${month}`, [`/cal/${month + 1}`, `/cal/${month - 1}`, `/cal/${month}?view=week`]));
    };
    const s = await site(calendar);
    const byCount = await timed(() => discover(s.origin + '/cal/', { mode: 'crawl', maxUrls: 300 }, allowPrivate), 5000);
    assert.equal(byCount.urls.length, 300);

    const slow = await site(() => async (req, res) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return calendar()(req, res);
    });
    const options = { ...allowPrivate, limits: { jobTimeoutMs: 1000 } };
    const byTime = await timed(() => discover(slow.origin + '/cal/', { mode: 'full', maxUrls: 1_000_000 }, options), 2500);
    assert.ok(byTime.urls.length > 10, `${byTime.urls.length} URLs`);
    assert.equal(byTime.stats.timedOut, true);
    assert.match(byTime.warnings.join('\n'), /time budget of 1 s/);
  });

  test('canceling a discovery ends it promptly with an ABORTED error', async () => {
    const s = await site(() => (req, res) => {
      const n = Number(/\/(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
      setTimeout(() => res.end(page(`Page ${n}`, [`/${n + 1}`])), 50);
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const err = await timed(
      () => discover(s.origin + '/', { mode: 'crawl', maxUrls: 1000, signal: controller.signal }, allowPrivate).then(() => null, (e: unknown) => e),
      1500,
    );
    assert.ok(err instanceof DiscoveryError && err.code === 'ABORTED', String(err));
  });

  test('a sitemap index that lists itself is read once', async () => {
    const s = await site((origin) =>
      routes({
        '/sitemap_index.xml': {
          headers: { 'content-type': 'application/xml' },
          body: `<sitemapindex><sitemap><loc>${origin}/sitemap_index.xml</loc></sitemap><sitemap><loc>${origin}/sitemap_index.xml?again</loc></sitemap></sitemapindex>`,
        },
        '/sitemap_index.xml?again': { headers: { 'content-type': 'application/xml' }, body: `<sitemapindex><sitemap><loc>${origin}/sitemap_index.xml</loc></sitemap></sitemapindex>` },
        '/': page('Home'),
      }),
    );
    const result = await timed(() => discover(s.origin + '/', { mode: 'full', maxUrls: 10 }, allowPrivate), 2000);
    assert.deepEqual(result.urls.map((u) => u.url), [s.origin + '/']);
    assert.equal(s.hits.filter((h) => h.startsWith('/sitemap_index.xml')).length, 2);
  });

  test('10,000 links on one page are capped at 2,000', async () => {
    const s = await site(() => (req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      if (req.url === '/') res.end(page('Links', Array.from({ length: 10_000 }, (_, i) => `/p/${i}`)));
      else res.end('<title>leaf</title>');
    });
    const result = await timed(() => discover(s.origin + '/', { mode: 'crawl', maxUrls: 100_000 }, allowPrivate), 15_000);
    assert.equal(result.urls.length, 1 + 2000);
    assert.ok(!s.hits.includes('/p/2000'));
  });

  test('Windows-1252 and invalid UTF-8 pages are decoded, not rejected', async () => {
    const cp1252 = Buffer.concat([
      Buffer.from('<html><head><meta charset="windows-1252"><title>Caf'),
      Buffer.from([0xe9, 0x20, 0x93, 0x71, 0x94]), // é “q”
      Buffer.from('</title></head><body><a href="/broken">next</a></body></html>'),
    ]);
    const broken = Buffer.concat([Buffer.from('<html><title>bad '), Buffer.from([0xff, 0xc3]), Buffer.from(' bytes</title></html>')]);
    const s = await site(() =>
      routes({
        '/': { headers: { 'content-type': 'text/html' }, body: cp1252 },
        '/broken': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: broken },
      }),
    );
    const pages: CrawledPage[] = [];
    const result = await discover(s.origin + '/', { mode: 'crawl', maxUrls: 10, onPage: (p) => void pages.push(p) }, allowPrivate);
    assert.equal(result.urls.length, 2);
    assert.deepEqual(pages.map((p) => p.title), ['Café \u201cq\u201d', 'bad \ufffd\ufffd bytes']);
  });

  test('after all of that, a normal discovery in the same process works', async () => {
    const s = await site(() => routes({ '/': page('Home', ['/a']), '/a': page('A') }));
    const result = await discover(s.origin + '/', { mode: 'full', maxUrls: 10 }, allowPrivate);
    assert.deepEqual(result.urls.map((u) => u.url), [s.origin + '/', s.origin + '/a']);
  });
});
