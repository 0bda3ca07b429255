import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createFetcher, type Fetcher } from './fetcher.ts';
import { loadRobots, parseRobotsTxt } from './robots.ts';
import { startSite, type TestSite } from '../testing/test-site.ts';

describe('parseRobotsTxt', () => {
  const txt = [
    'User-agent: *',
    'Disallow: /private/',
    '',
    'User-agent: llmstxt-bot',
    'Disallow: /no-bots/',
    'Allow: /no-bots/except-this',
    'Crawl-delay: 2',
    '',
    'Sitemap: https://a.test/sitemap-one.xml',
    'sitemap: https://a.test/sitemap-two.xml.gz',
  ].join('\n');

  test('applies the group for llmstxt-bot, not the * group', () => {
    const robots = parseRobotsTxt(txt);
    assert.equal(robots.isAllowed('https://a.test/private/x'), true);
    assert.equal(robots.isAllowed('https://a.test/no-bots/page'), false);
    assert.equal(robots.isAllowed('https://a.test/no-bots/except-this?q=1'), true);
  });

  test('falls back to the * group for another agent', () => {
    const robots = parseRobotsTxt(txt, { userAgent: 'otherbot' });
    assert.equal(robots.isAllowed('https://a.test/private/x'), false);
    assert.equal(robots.crawlDelayMs, 0);
  });

  test('reads Crawl-delay in milliseconds and caps it', () => {
    assert.equal(parseRobotsTxt(txt).crawlDelayMs, 2000);
    assert.equal(parseRobotsTxt('User-agent: *\nCrawl-delay: 3600\n').crawlDelayMs, 5000);
    assert.equal(parseRobotsTxt('User-agent: *\nCrawl-delay: 3600\n', { maxCrawlDelayMs: 100 }).crawlDelayMs, 100);
    assert.equal(parseRobotsTxt('User-agent: *\nCrawl-delay: soon\n').crawlDelayMs, 0);
  });

  test('lists Sitemap lines wherever they appear', () => {
    assert.deepEqual(parseRobotsTxt(txt).sitemaps, ['https://a.test/sitemap-one.xml', 'https://a.test/sitemap-two.xml.gz']);
  });

  test('an empty file allows everything', () => {
    assert.equal(parseRobotsTxt('').isAllowed('https://a.test/anything'), true);
  });

  test('accepts a missing colon and a misspelled directive, as Google does', () => {
    const robots = parseRobotsTxt('user-agent llmstxt-bot\ndisalow /x\n');
    assert.equal(robots.isAllowed('https://a.test/x/y'), false);
  });
});

describe('loadRobots', () => {
  let site: TestSite;
  let fetcher: Fetcher;
  before(async () => {
    site = await startSite(async (req, res) => {
      const [, status] = /^\/(\d+)\//.exec(req.url ?? '') ?? [];
      if (req.url === '/moved/robots.txt') {
        res.writeHead(301, { location: '/200/robots.txt' });
        return void res.end();
      }
      if (req.url === '/big/robots.txt') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('User-agent: *\nDisallow: /early\n');
        res.end('#'.repeat(2 * 1024 * 1024) + '\nDisallow: /late\n');
        return;
      }
      res.writeHead(Number(status ?? 404), { 'content-type': 'text/plain' });
      res.end('User-agent: *\nDisallow: /secret\n');
    });
    fetcher = createFetcher({ allowPrivate: true });
  });
  after(async () => {
    await fetcher.close();
    await site.close();
  });

  test('a 200 is parsed', async () => {
    const { robots, warning } = await loadRobots(`${site.origin}/200`, fetcher);
    assert.equal(robots.isAllowed(`${site.origin}/secret`), false);
    assert.equal(robots.isAllowed(`${site.origin}/public`), true);
    assert.equal(warning, null);
  });

  test('a redirect is followed', async () => {
    const { robots } = await loadRobots(`${site.origin}/moved`, fetcher);
    assert.equal(robots.isAllowed(`${site.origin}/secret`), false);
  });

  for (const status of [404, 401, 403, 410]) {
    test(`a ${status} allows everything`, async () => {
      const { robots, warning } = await loadRobots(`${site.origin}/${status}`, fetcher);
      assert.equal(robots.isAllowed(`${site.origin}/secret`), true);
      assert.equal(warning, null);
    });
  }

  for (const status of [500, 503, 429]) {
    test(`a ${status} disallows everything, with a warning`, async () => {
      const { robots, warning } = await loadRobots(`${site.origin}/${status}`, fetcher);
      assert.equal(robots.isAllowed(`${site.origin}/`), false);
      assert.match(warning ?? '', new RegExp(`answered ${status}`));
    });
  }

  test('a huge file is cut at the cap and what came first still applies', async () => {
    const { robots } = await loadRobots(`${site.origin}/big`, fetcher);
    assert.equal(robots.isAllowed(`${site.origin}/early`), false);
    assert.equal(robots.isAllowed(`${site.origin}/late`), true);
  });
});
