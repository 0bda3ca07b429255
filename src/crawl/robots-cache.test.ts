import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../clock.ts';
import { createFetcher, type Fetcher } from './fetcher.ts';
import { RobotsCache } from './robots-cache.ts';
import { startSite, type TestSite } from '../testing/test-site.ts';

const HOUR = 3_600_000;

/** A site whose robots.txt (status, Cache-Control, rules) the test sets, counting its fetches. */
async function robotsSite() {
  const answer = { status: 200, cacheControl: '', disallow: '/private/' };
  const site = await startSite((req, res) => {
    const headers: Record<string, string> = { 'content-type': 'text/plain' };
    if (answer.cacheControl) headers['cache-control'] = answer.cacheControl;
    res.writeHead(req.url === '/robots.txt' ? answer.status : 404, headers);
    res.end(`User-agent: *\nDisallow: ${answer.disallow}\n`);
  });
  return Object.assign(site, { answer, fetches: () => site.hits.filter((hit) => hit === '/robots.txt').length });
}

describe('RobotsCache', () => {
  let fetcher: Fetcher;
  let sites: Array<Awaited<ReturnType<typeof robotsSite>>>;
  before(async () => {
    fetcher = createFetcher({ allowPrivate: true });
    sites = await Promise.all([robotsSite(), robotsSite(), robotsSite()]);
  });
  after(async () => {
    await fetcher.close();
    await Promise.all(sites.map((site: TestSite) => site.close()));
  });
  const fresh = (site: Awaited<ReturnType<typeof robotsSite>>, answer: Partial<typeof site.answer>) => {
    Object.assign(site.answer, { status: 200, cacheControl: '', disallow: '/private/' }, answer);
    site.hits.length = 0;
    return site;
  };

  test('reuses a robots.txt for at most 24 hours, even when its max-age allows longer', async () => {
    const site = fresh(sites[0], { cacheControl: 'public, max-age=604800' });
    const clock = new ManualClock();
    const cache = new RobotsCache(clock);
    assert.equal((await cache.rulesFor(`${site.origin}/private/a`, fetcher)).robots.isAllowed(`${site.origin}/private/a`), false);
    site.answer.disallow = '/secret/';
    clock.advance(24 * HOUR - 1);
    const reused = (await cache.rulesFor(`${site.origin}/x`, fetcher)).robots;
    assert.deepEqual([reused.isAllowed('/private/a'), reused.isAllowed('/secret/a'), site.fetches()], [false, true, 1]);
    clock.advance(1);
    const refetched = (await cache.rulesFor(`${site.origin}/x`, fetcher)).robots;
    assert.deepEqual([refetched.isAllowed('/private/a'), refetched.isAllowed('/secret/a'), site.fetches()], [true, false, 2]);
  });

  test('a shorter max-age is honoured', async () => {
    const site = fresh(sites[0], { cacheControl: 'max-age=60' });
    const clock = new ManualClock();
    const cache = new RobotsCache(clock);
    await cache.rulesFor(`${site.origin}/`, fetcher);
    clock.advance(59_999);
    await cache.rulesFor(`${site.origin}/`, fetcher);
    assert.equal(site.fetches(), 1);
    clock.advance(1);
    await cache.rulesFor(`${site.origin}/`, fetcher);
    assert.equal(site.fetches(), 2);
  });

  test('never reuses an answer that says no-store, nor a server error', async () => {
    const site = fresh(sites[0], { cacheControl: 'no-store' });
    const cache = new RobotsCache(new ManualClock());
    for (let i = 0; i < 3; i++) await cache.rulesFor(`${site.origin}/`, fetcher);
    assert.equal(site.fetches(), 3);

    fresh(site, { status: 503 });
    const failed = await cache.rulesFor(`${site.origin}/`, fetcher);
    assert.deepEqual([failed.robots.isAllowed('/'), failed.warning], [false, `${site.origin}/robots.txt answered 503: crawling nothing, as RFC 9309 asks while robots.txt is unreachable`]);
    site.answer.status = 200;
    const recovered = await cache.rulesFor(`${site.origin}/`, fetcher);
    assert.deepEqual([recovered.robots.isAllowed('/'), recovered.warning, site.fetches()], [true, null, 2]);
  });

  test('holds a bounded number of origins, forgetting the least recently used first', async () => {
    const [a, b, c] = sites.map((site) => fresh(site, {}));
    const cache = new RobotsCache(new ManualClock(), { maxEntries: 2 });
    await cache.rulesFor(`${a.origin}/`, fetcher);
    await cache.rulesFor(`${b.origin}/`, fetcher);
    await cache.rulesFor(`${a.origin}/`, fetcher);
    await cache.rulesFor(`${c.origin}/`, fetcher);
    await cache.rulesFor(`${a.origin}/`, fetcher);
    await cache.rulesFor(`${b.origin}/`, fetcher);
    assert.deepEqual([a.fetches(), b.fetches(), c.fetches()], [1, 2, 1]);
  });
});
