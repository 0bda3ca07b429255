import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { page, rewritableSite } from '../testing/test-site.ts';
import { eq } from '../db/orm.ts';
import { spendCredits } from '../credits/ledger.ts';
import { generationJobs, sites } from '../db/schema.ts';
import { ledgerOf, waitForGeneration } from '../testing/jobs.ts';
import { describeOnEachDatabase, type TestService } from '../testing/service.ts';
import { invalidFrequency } from './schedules.ts';
import { nextCheck } from './testing/scheduler-waits.ts';

const DAY = 24 * 3_600_000;
/** Valid, and at most hourly, but runs only in Februaries that have five Mondays (years apart). */
const RARE = '0 0 * 2 1#5';

/** A site whose pages the test rewrites between refreshes. */
const site = rewritableSite();
const { pages } = site;

function publish(guideTitle: string, extra: string[] = []) {
  pages['/'] = page('Acme', ['/guide.html', '/faq.html', ...extra]);
  pages['/guide.html'] = page(guideTitle);
  pages['/faq.html'] = page('FAQ');
  for (const path of extra) pages[path] = page(`Page ${path}`);
}

/** The fastest of five batches of `times` calls: a pause of the machine's (another process, a collection) lengthens one batch, not all five. */
function msTaken(work: () => void, times: number): number {
  let fastest = Infinity;
  for (let batch = 0; batch < 5; batch++) {
    const started = performance.now();
    for (let i = 0; i < times; i++) work();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}

test('a frequency is decided from its fields: a rare expression costs what a frequent one does', () => {
  assert.equal(invalidFrequency(RARE), null);
  assert.equal(invalidFrequency('5 0 * * * *'), null, 'seconds field: once an hour');
  assert.equal(invalidFrequency('0 23,0 * * *'), null, 'an hour apart across midnight');
  for (const tooOften of ['0,59 0 1 1 *', '* 0 * 2 1#5', '0,30 0 * * * *']) {
    assert.equal(invalidFrequency(tooOften), 'frequency must not run more often than once an hour', tooOften);
  }
  assert.match(invalidFrequency('0 0 30 2 *')!, /^frequency must be hourly, daily, weekly or a cron expression in UTC such as "0 6 \* \* 1" \(every Monday at 06:00\): /);
  const frequent = '0 * * * *';
  msTaken(() => invalidFrequency(RARE), 3);
  msTaken(() => invalidFrequency(frequent), 3);
  const rare = msTaken(() => invalidFrequency(RARE), 20);
  const baseline = msTaken(() => invalidFrequency(frequent), 20);
  assert.ok(rare < 10 * baseline, `the rare expression took ${rare.toFixed(1)} ms, the frequent one ${baseline.toFixed(1)} ms`);
});

/** The slowest /health answer while `flood` runs (sent one after another until it ends). */
async function slowestHealthDuring(service: TestService, flood: () => Promise<unknown>): Promise<number> {
  let done = false;
  const flooding = flood().finally(() => (done = true));
  let slowest = 0;
  do {
    const started = performance.now();
    assert.equal((await service.request('GET', '/api/v1/health')).status, 200);
    slowest = Math.max(slowest, performance.now() - started);
  } while (!done);
  await flooding;
  return slowest;
}

describeOnEachDatabase(
  'Scheduled refresh',
  (service) => {
    test('runs when due: skips an unchanged site at no charge, regenerates a changed one with a diff and the previous file, pauses when credits run out', async () => {
      publish('Guide');
      const { id, apiKey } = await service().createAccount();
      const start = await service().request('POST', '/api/v1/generate', { token: apiKey, body: { url: `${site.origin}/`, options: { generationMethod: 'simple', maxUrls: 10 } } });
      const first = await waitForGeneration(service(), apiKey, start.body.jobId);
      assert.equal(first.status, 'completed', first.error);
      const firstFile = await (await fetch(first.fileUrl)).text();

      const set = await service().request('PUT', `/api/v1/sites/${first.siteId}/schedule`, { token: apiKey, body: { frequency: 'daily' } });
      assert.equal(set.status, 200, set.text);
      assert.deepEqual(set.body.schedule, {
        frequency: 'daily',
        status: 'active',
        pausedReason: null,
        nextRunAt: new Date(service().clock.now().getTime() + DAY).toISOString(),
        lastCheckedAt: null,
        lastOutcome: null,
        lastJobId: null,
      });

      // Not due yet: nothing happens.
      service().clock.advance(DAY - 60_000);
      await new Promise((resolve) => setTimeout(resolve, 1200));
      assert.equal((await service().request('GET', `/api/v1/sites/${first.siteId}`, { token: apiKey })).body.schedule.lastCheckedAt, null);

      // Due, and nothing changed: checked, no job, no ledger row.
      const ledger = await ledgerOf(service(), id);
      const unchanged = await nextCheck(service(), apiKey, first.siteId, 60_000);
      assert.deepEqual([unchanged.lastOutcome, unchanged.lastJobId, unchanged.status], ['unchanged', null, 'active']);
      assert.deepEqual(await ledgerOf(service(), id), ledger);

      // Due while a generation of the site is under way: that job brings the files up to date.
      publish('Guide, revised');
      await service().db.update(sites).set({ status: 'processing' }).where(eq(sites.id, first.siteId));
      const busy = await nextCheck(service(), apiKey, first.siteId, DAY);
      assert.deepEqual([busy.lastOutcome, busy.lastJobId], ['skipped: a generation is under way', null]);
      assert.deepEqual(await ledgerOf(service(), id), ledger);
      await service().db.update(sites).set({ status: 'completed' }).where(eq(sites.id, first.siteId));

      // A page changed (retitled) and one was added: an ordinary generation, charged like one.
      publish('Getting started', ['/changelog.html']);
      const changed = await nextCheck(service(), apiKey, first.siteId, DAY);
      assert.equal(changed.lastOutcome, 'regenerated');
      const refreshed = await waitForGeneration(service(), apiKey, changed.lastJobId);
      assert.equal(refreshed.status, 'completed', refreshed.error);
      assert.deepEqual(refreshed.options, first.options);
      const after = await ledgerOf(service(), id);
      assert.deepEqual([after.rows.length, after.balance], [ledger.rows.length + 1, ledger.balance - 1], 'charged like a generation of 10 pages');
      const siteView = (await service().request('GET', `/api/v1/sites/${first.siteId}`, { token: apiKey })).body;
      assert.deepEqual(siteView.lastChange.added, [`${site.origin}/changelog.html`]);
      assert.deepEqual(siteView.lastChange.removed, []);
      assert.deepEqual(siteView.lastChange.retitled, [{ url: `${site.origin}/guide.html`, from: 'Guide', to: 'Getting started' }]);
      assert.equal(await (await fetch(`${refreshed.fileUrl}?previous=true`)).text(), firstFile);
      assert.match(await (await fetch(refreshed.fileUrl)).text(), /Getting started/);

      // Credits run out: the schedule pauses with the reason, and no job starts.
      await service().db.transaction((tx) => spendCredits(tx, { accountId: id, amount: after.balance, description: 'Spent elsewhere' }));
      const drained = await ledgerOf(service(), id);
      publish('Getting started again');
      const paused = await nextCheck(service(), apiKey, first.siteId, DAY);
      assert.deepEqual([paused.status, paused.lastOutcome, paused.nextRunAt], ['paused', 'paused', null]);
      assert.match(paused.pausedReason, /^Insufficient credits\. Required: 1, Available: 0\./);
      assert.deepEqual(await ledgerOf(service(), id), drained);
      assert.equal((await service().request('GET', `/api/v1/sites/${first.siteId}`, { token: apiKey })).body.status, 'completed', 'the site keeps its own status');

      // Setting it again resumes it.
      const resumed = await service().request('PUT', `/api/v1/sites/${first.siteId}/schedule`, { token: apiKey, body: { frequency: '0 6 * * 1' } });
      assert.deepEqual([resumed.body.schedule.status, resumed.body.schedule.pausedReason], ['active', null]);
      const removed = await service().request('DELETE', `/api/v1/sites/${first.siteId}/schedule`, { token: apiKey });
      assert.deepEqual([removed.status, removed.body], [200, { success: true, message: 'Schedule removed' }]);
      assert.equal((await service().request('GET', `/api/v1/sites/${first.siteId}`, { token: apiKey })).body.schedule, null);
    });

    test("a flood of rare expressions for sites that are not the caller's is refused after one lookup each, and /health stays responsive", async () => {
      publish('Guide');
      const owner = await service().createAccount();
      const other = await service().createAccount();
      const start = await service().request('POST', '/api/v1/generate', { token: owner.apiKey, body: { url: `${site.origin}/`, options: { generationMethod: 'simple', maxUrls: 10 } } });
      const job = await waitForGeneration(service(), owner.apiKey, start.body.jobId);
      const flood = (frequency: string) => () =>
        Promise.all(
          Array.from({ length: 40 }, async (_, i) => {
            const [siteId, status] = i % 2 ? [randomUUID(), 404] : [job.siteId, 403];
            const put = await service().request('PUT', `/api/v1/sites/${siteId}/schedule`, { token: other.apiKey, body: { frequency } });
            assert.equal(put.status, status, put.text);
          }),
        );

      // The same flood of a frequent expression costs the same lookups: the baseline beside /health at rest.
      const atRest = await slowestHealthDuring(service(), () => new Promise((resolve) => setTimeout(resolve, 200)));
      const frequentFlood = await slowestHealthDuring(service(), flood('0 * * * *'));
      const rareFlood = await slowestHealthDuring(service(), flood(RARE));
      assert.ok(
        rareFlood < 10 * Math.max(frequentFlood, atRest),
        `/health took up to ${rareFlood.toFixed(0)} ms during the flood of rare expressions, ${frequentFlood.toFixed(0)} ms during one of frequent ones, ${atRest.toFixed(0)} ms at rest`,
      );
      assert.equal((await service().request('GET', `/api/v1/sites/${job.siteId}`, { token: owner.apiKey })).body.schedule, null);
    });

    test('bad frequencies are 400, a site without a completed generation is 409, another account is refused', async () => {
      publish('Guide');
      const owner = await service().createAccount();
      const other = await service().createAccount();
      const start = await service().request('POST', '/api/v1/generate', { token: owner.apiKey, body: { url: `${site.origin}/`, options: { generationMethod: 'simple', maxUrls: 10 } } });
      const job = await waitForGeneration(service(), owner.apiKey, start.body.jobId);
      const put = (token: string, siteId: string, frequency: string) => service().request('PUT', `/api/v1/sites/${siteId}/schedule`, { token, body: { frequency } });

      const tooOften = await put(owner.apiKey, job.siteId, '*/30 * * * *');
      assert.deepEqual([tooOften.status, tooOften.body], [400, { message: 'Validation error: frequency must not run more often than once an hour' }]);
      const nonsense = await put(owner.apiKey, job.siteId, 'every tuesday');
      assert.equal(nonsense.status, 400);
      assert.match(nonsense.body.message, /^Validation error: frequency must be hourly, daily, weekly or a cron expression in UTC such as "0 6 \* \* 1" \(every Monday at 06:00\): ./);
      // The words, in any case, run every so long after they are set.
      for (const [word, hours] of [['Hourly', 1], [' daily ', 24], ['WEEKLY', 168]] as const) {
        const set = await put(owner.apiKey, job.siteId, word);
        assert.equal(set.status, 200, set.text);
        assert.equal(set.body.schedule.frequency, word.trim().toLowerCase());
        assert.equal(Date.parse(set.body.schedule.nextRunAt) - service().clock.now().getTime(), hours * 3_600_000);
      }
      assert.equal((await service().request('DELETE', `/api/v1/sites/${job.siteId}/schedule`, { token: owner.apiKey })).status, 200);
      assert.equal((await put(other.apiKey, job.siteId, 'daily')).status, 403);
      assert.equal((await service().request('GET', `/api/v1/sites/${job.siteId}`, { token: owner.apiKey })).body.schedule, null);

      await service().db.update(sites).set({ lastGenerationOptions: null }).where(eq(sites.id, job.siteId));
      const never = await put(owner.apiKey, job.siteId, 'weekly');
      assert.deepEqual([never.status, never.body.message], [409, 'A site can be scheduled once it has a completed generation: its options are what the refresh reuses']);
    });
  },
  { env: { CRAWL_ALLOW_PRIVATE: 'true' } },
);

describeOnEachDatabase('Scheduled refresh of a private address (CRAWL_ALLOW_PRIVATE unset)', (service) => {
  test('is refused before any charge: the run is recorded as failed with the reason, and no job starts', async () => {
    const { id: accountId, apiKey } = await service().createAccount();
    // A site generated while the service allowed private addresses.
    const [site] = await service().db
      .insert(sites)
      .values({ id: randomUUID(), accountId, url: 'http://10.20.30.40/', status: 'completed', lastGenerationOptions: { generationMethod: 'simple', maxUrls: 10, showFullText: false, includeModificationDate: false } })
      .returning();
    assert.equal((await service().request('PUT', `/api/v1/sites/${site.id}/schedule`, { token: apiKey, body: { frequency: 'daily' } })).status, 200);
    const ledger = await ledgerOf(service(), accountId);

    const refused = await nextCheck(service(), apiKey, site.id, DAY);
    assert.deepEqual([refused.lastOutcome, refused.lastJobId], [
      'failed: Validation error: url points to a private or reserved address. A self-hosted service can allow these with CRAWL_ALLOW_PRIVATE=true',
      null,
    ]);
    assert.deepEqual(await ledgerOf(service(), accountId), ledger);
    assert.deepEqual(await service().db.select().from(generationJobs).where(eq(generationJobs.accountId, accountId)), []);
  });
});
