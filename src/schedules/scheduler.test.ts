import assert from 'node:assert/strict';
import { test } from 'node:test';
import { page, routes, startSite, type TestSite } from '../testing/test-site.ts';
import { eq, inArray } from '../db/orm.ts';
import { accounts, siteSchedules } from '../db/schema.ts';
import { ledgerOf, waitForGeneration } from '../testing/jobs.ts';
import { describeOnEachDatabase, type TestService } from '../testing/service.ts';
import { checkedNow, scheduleOf } from './testing/scheduler-waits.ts';

const DAY = 24 * 3_600_000;

interface HoldableSite extends TestSite {
  /** From now on, page requests wait (robots.txt still answers). */
  hold(): void;
  /** Answers the requests held, and the ones after. */
  release(): void;
}

/** Sections /a/, /b/, …: each a page linking to its page.html. No robots.txt. */
async function holdableSite(): Promise<HoldableSite> {
  let held: Promise<void> | null = null;
  let release = () => {};
  const site = await startSite(async (req, res) => {
    const path = req.url ?? '/';
    if (path === '/robots.txt') return res.writeHead(404).end();
    if (held) await held;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(path.endsWith('/') ? page(`Section ${path}`, ['page.html']) : page(`Page ${path}`));
  });
  return Object.assign(site, {
    hold() {
      held = new Promise<void>((resolve) => (release = resolve));
    },
    release() {
      held = null;
      release();
    },
  });
}

async function generatedSite(service: TestService, apiKey: string, url: string): Promise<string> {
  const start = await service.request('POST', '/api/v1/generate', { token: apiKey, body: { url, options: { generationMethod: 'simple', maxUrls: 10 } } });
  assert.equal(start.status, 200, start.text);
  const job = await waitForGeneration(service, apiKey, start.body.jobId);
  assert.equal(job.status, 'completed', job.error);
  return job.siteId;
}

async function scheduleDaily(service: TestService, apiKey: string, siteId: string): Promise<void> {
  const set = await service.request('PUT', `/api/v1/sites/${siteId}/schedule`, { token: apiKey, body: { frequency: 'daily' } });
  assert.equal(set.status, 200, set.text);
}

/** Moves the clock a day on and answers how long, in ms, until the site's schedule was checked. */
async function msUntilNextCheck(service: TestService, apiKey: string, siteId: string): Promise<number> {
  service.clock.advance(DAY);
  const started = performance.now();
  await checkedNow(service, apiKey, siteId);
  return performance.now() - started;
}

describeOnEachDatabase(
  'Scheduled checks',
  (service) => {
    test("one account's slow checks, due first and more than a round takes, do not hold up another account's", async () => {
      const slow = await holdableSite();
      const fast = await holdableSite();
      try {
        const many = await service().createAccount();
        const one = await service().createAccount();
        const slowSites = [];
        for (const section of ['a', 'b', 'c', 'd', 'e']) slowSites.push(await generatedSite(service(), many.apiKey, `${slow.origin}/${section}/`));
        const fastSite = await generatedSite(service(), one.apiKey, `${fast.origin}/a/`);

        await scheduleDaily(service(), one.apiKey, fastSite);
        let alone = 0;
        for (let i = 0; i < 5; i++) alone = Math.max(alone, await msUntilNextCheck(service(), one.apiKey, fastSite));

        for (const siteId of slowSites) await scheduleDaily(service(), many.apiKey, siteId);
        // Due a minute before the other account's: first in line.
        await service()
          .db.update(siteSchedules)
          .set({ nextRunAt: new Date(service().clock.now().getTime() + DAY - 60_000) })
          .where(inArray(siteSchedules.siteId, slowSites));
        slow.hold();
        const beside = await msUntilNextCheck(service(), one.apiKey, fastSite);
        for (const siteId of slowSites) assert.equal((await scheduleOf(service(), many.apiKey, siteId)).lastCheckedAt, null, 'the slow checks are still under way');
        assert.ok(beside < 3 * alone, `checked after ${beside.toFixed(0)} ms beside the slow checks, ${alone.toFixed(0)} ms alone`);

        slow.release();
        for (const siteId of slowSites) assert.equal((await checkedNow(service(), many.apiKey, siteId)).lastOutcome, 'unchanged');
      } finally {
        slow.release();
        await Promise.all([slow.close(), fast.close()]);
      }
    });

    test('robots.txt is honoured when pages are fetched again: a fresh markdown export and a scheduled check skip a disallowed page', async () => {
      const pages: Record<string, Parameters<typeof routes>[0][string]> = {
        '/': page('Acme', ['/guide.html', '/faq.html']),
        '/guide.html': page('Guide'),
        '/faq.html': page('FAQ'),
      };
      const site = await startSite(routes(pages));
      try {
        const { id, apiKey } = await service().createAccount();
        const siteId = await generatedSite(service(), apiKey, `${site.origin}/`);
        await service().db.update(accounts).set({ plan: 'starter' }).where(eq(accounts.id, id));
        pages['/robots.txt'] = { headers: { 'content-type': 'text/plain' }, body: 'User-agent: llmstxt-bot\nDisallow: /faq.html\n' };
        site.hits.length = 0;

        const exported = await service().request('GET', `/api/v1/sites/${siteId}/markdown/export?fresh=true`, { token: apiKey });
        assert.equal(exported.status, 200, exported.text);
        assert.deepEqual(exported.body.files.map((file: { url: string }) => file.url).sort(), [`${site.origin}/`, `${site.origin}/faq.html`, `${site.origin}/guide.html`]);
        assert.ok(site.hits.includes('/guide.html'), 'the allowed pages were fetched again');
        assert.ok(!site.hits.includes('/faq.html'), `the export fetched ${site.hits.join(', ')}`);

        await scheduleDaily(service(), apiKey, siteId);
        site.hits.length = 0;
        service().clock.advance(DAY);
        const checked = await checkedNow(service(), apiKey, siteId);
        assert.ok(!site.hits.includes('/faq.html'), `the check fetched ${site.hits.join(', ')}`);
        assert.equal(checked.lastOutcome, 'regenerated', 'a listed page robots.txt now disallows is a change');
        assert.equal((await waitForGeneration(service(), apiKey, checked.lastJobId)).status, 'completed');
        assert.ok(!site.hits.includes('/faq.html'), `the check and its generation fetched ${site.hits.join(', ')}`);
      } finally {
        await site.close();
      }
    });
  },
  { env: { CRAWL_ALLOW_PRIVATE: 'true' } },
);

describeOnEachDatabase(
  'Scheduled checks within a time budget',
  (service) => {
    test('a check over its budget is recorded as timed out: no job, no charge', async () => {
      const slow = await holdableSite();
      try {
        const { id, apiKey } = await service().createAccount();
        const siteId = await generatedSite(service(), apiKey, `${slow.origin}/a/`);
        await scheduleDaily(service(), apiKey, siteId);
        const ledger = await ledgerOf(service(), id);
        slow.hold();
        service().clock.advance(DAY);
        const checked = await checkedNow(service(), apiKey, siteId);
        assert.deepEqual([checked.lastOutcome, checked.lastJobId, checked.status], [
          'timed out: the listed pages were not all read within 1 s; no job was started and nothing was charged',
          null,
          'active',
        ]);
        assert.equal(checked.nextRunAt, new Date(service().clock.now().getTime() + DAY).toISOString());
        assert.deepEqual(await ledgerOf(service(), id), ledger);
      } finally {
        slow.release();
        await slow.close();
      }
    });
  },
  { env: { CRAWL_ALLOW_PRIVATE: 'true', SCHEDULE_CHECK_SECONDS: '1' } },
);
