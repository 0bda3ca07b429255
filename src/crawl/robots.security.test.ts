// robots.txt is honoured for links as the site wrote them, not only in the crawler's own
// normalised spelling (whose query parameters are sorted).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { discover } from './discover.ts';
import { page, startSite, type TestSite } from '../testing/test-site.ts';

describe('robots.txt on the URL as written', () => {
  let site: TestSite;
  const hits: string[] = [];

  before(async () => {
    site = await startSite((req, res) => {
      const url = req.url ?? '';
      hits.push(url);
      if (url === '/robots.txt') return void res.end('User-agent: *\nDisallow: /list?sort=\n');
      res.setHeader('content-type', 'text/html');
      if (url === '/') return void res.end(page('Home', ['/list?sort=price&a=1', '/list?page=2', '/about']));
      res.end(page(url));
    });
  });
  after(() => site.close());

  test('a link whose written query a Disallow rule matches is neither fetched nor listed', async () => {
    const { urls } = await discover(`${site.origin}/`, { mode: 'crawl', maxUrls: 50 }, { allowPrivate: true });
    const listed = urls.map((u) => new URL(u.url).pathname + new URL(u.url).search);
    assert.deepEqual(listed.sort(), ['/', '/about', '/list?page=2']);
    assert.ok(!hits.some((hit) => hit.startsWith('/list?') && hit.includes('sort=')), `fetched: ${hits.join(' ')}`);
  });
});
