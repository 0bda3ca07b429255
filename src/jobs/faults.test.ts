/**
 * Workers that stall, die between taking a job's message and claiming the job, or race a cancel.
 * The stalled worker is held at a test hook (its claim made, then nothing until the test says),
 * with the service's clock moved past its lease, on both databases; the lost message needs
 * processes of its own, on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { eq } from '../db/orm.ts';
import { PgBoss } from 'pg-boss';
import { discoveredUrls, discoveryJobs, generationJobs, sites } from '../db/schema.ts';
import { discoveryJobKind } from '../discovery/discovery-job.ts';
import { generationJobKind } from '../generation/generation-job.ts';
import { routes, page, startSite, type TestSite } from '../testing/test-site.ts';
import { ledgerOf, waitForGeneration } from '../testing/jobs.ts';
import { testDatabaseKinds } from '../testing/databases.ts';
import { describeOnEachDatabase, startTestService, temporaryFolderForProcesses, type TestService } from '../testing/service.ts';
import { claimJob, releaseExpiredLeases } from './leases.ts';
import { QUEUE_SCHEMA } from './queue.ts';
import { runJob } from './workers.ts';

const processesTemp = temporaryFolderForProcesses('job-faults');

const LEASE_MS = 30_000;
const settings = { concurrency: 1, leaseSeconds: LEASE_MS / 1000, maxAttempts: 3, pollSeconds: 0.5, perAccount: 3 };
const quietLog = { error: () => {}, warn: () => {} };

let site: TestSite;
before(async () => {
  site = await startSite(routes({ '/': page('Home', ['/a', '/b']), '/a': page('A'), '/b': page('B') }));
});
after(() => site.close());

describeOnEachDatabase(
  'A worker that stalls past its lease',
  (service) => {
    const kinds = () => {
      const deps = { db: service().db, clock: service().clock, crawl: { allowPrivate: true } };
      return { generation: generationJobKind({ ...deps, describer: null, limits: service().deps.config.generation, publicUrl: service().baseUrl }), discovery: discoveryJobKind(deps) };
    };
    const worker = () => ({ db: service().db, clock: service().clock, settings, log: quietLog });

    /** The stalled worker's claim, then its lease runs out and the sweeper hands the job back. */
    async function stallFirstClaim(table: 'generation_jobs' | 'discovery_jobs', jobId: string): Promise<number> {
      const attempt = await claimJob(service().db, service().clock, table, jobId, LEASE_MS);
      assert.equal(attempt, 1);
      service().clock.advance(LEASE_MS + 1);
      assert.deepEqual((await releaseExpiredLeases(service().db, service().clock, table)).map((stranded) => stranded.jobId), [jobId]);
      return attempt!;
    }

    test('waking while the job waits for another worker, it fails nothing; the job completes once, charged once', async () => {
      const { id: accountId, apiKey } = await service().createAccount();
      const start = await service().request('POST', '/api/v1/generate', { token: apiKey, body: { url: `${site.origin}/`, options: { generationMethod: 'simple', maxUrls: 10 } } });
      const jobId = start.body.jobId;
      const stalled = await stallFirstClaim('generation_jobs', jobId);

      // It wakes: its renewal is refused, its run aborts, its error path fails the job... or not.
      await kinds().generation.fail(jobId, 'This operation was aborted', stalled);
      const [waiting] = await service().db.select().from(generationJobs).where(eq(generationJobs.id, jobId));
      assert.equal(waiting.status, 'pending');

      await runJob(worker(), kinds().generation, jobId);
      const job = await waitForGeneration(service(), apiKey, jobId);
      assert.equal(job.status, 'completed', job.error);
      const ledger = await ledgerOf(service(), accountId);
      assert.equal(ledger.balance, 20 - 1, 'one credit for 3 pages: reserved once, the unused part refunded once');
    });

    test('waking while another worker runs the job, its writes are refused', async () => {
      const { apiKey } = await service().createAccount();
      const start = await service().request('POST', '/api/v1/discovery', { token: apiKey, body: { url: `${site.origin}/`, maxUrls: 10, discoveryType: 'crawl' } });
      const jobId = start.body.id;
      const stalled = await stallFirstClaim('discovery_jobs', jobId);
      const taken = await claimJob(service().db, service().clock, 'discovery_jobs', jobId, LEASE_MS);
      assert.equal(taken, 2);

      // The stalled claim still runs to its end: it must store nothing, fail nothing.
      await kinds().discovery.run(jobId, new AbortController().signal, stalled);
      await kinds().discovery.fail(jobId, 'Discovery was canceled', stalled);
      const [job] = await service().db.select().from(discoveryJobs).where(eq(discoveryJobs.id, jobId));
      assert.equal(job.status, 'processing');
      assert.equal((await service().db.select().from(discoveredUrls).where(eq(discoveredUrls.discoveryId, jobId))).length, 0);

      await kinds().discovery.run(jobId, new AbortController().signal, taken!);
      const [done] = await service().db.select().from(discoveryJobs).where(eq(discoveryJobs.id, jobId));
      const stored = await service().db.select().from(discoveredUrls).where(eq(discoveredUrls.discoveryId, jobId));
      assert.equal(done.status, 'completed');
      assert.equal(done.urlsFound, 3);
      assert.equal(stored.length, 3);
    });

    test('a cancel between the claim and the run does not leave the site processing', async () => {
      const { apiKey } = await service().createAccount();
      const start = await service().request('POST', '/api/v1/generate', { token: apiKey, body: { url: `${site.origin}/`, options: { generationMethod: 'simple', maxUrls: 10 } } });
      const jobId = start.body.jobId;
      const attempt = await claimJob(service().db, service().clock, 'generation_jobs', jobId, LEASE_MS);
      const cancel = await service().request('DELETE', `/api/v1/generate/${jobId}`, { token: apiKey });
      assert.equal(cancel.status, 200);
      await kinds().generation.run(jobId, new AbortController().signal, attempt!);
      const shown = await service().request('GET', `/api/v1/sites/${start.body.siteId}`, { token: apiKey });
      assert.equal(shown.body.status, 'failed');
      const [row] = await service().db.select({ status: sites.status }).from(sites).where(eq(sites.id, start.body.siteId));
      assert.equal(row.status, 'failed');
    });
  },
  // The test site is on 127.0.0.1, which a start refuses unless private addresses are allowed.
  { workers: false, env: { CRAWL_ALLOW_PRIVATE: 'true' } },
);

const onPostgres = testDatabaseKinds().includes('postgres');

describe('A worker that dies between taking a job and claiming it [postgres]', { skip: !onPostgres && 'PostgreSQL is not in TEST_DATABASES' }, () => {
  let service: TestService;
  let worker: ChildProcess | null = null;
  before(async () => {
    service = await startTestService('postgres', { workers: false, env: { CRAWL_ALLOW_PRIVATE: 'true' } });
  });
  after(async () => {
    worker?.kill('SIGKILL');
    await service.close();
  });

  test('another worker runs the job within its lease and a sweep', async () => {
    const { apiKey } = await service.createAccount();
    const start = await service.request('POST', '/api/v1/generate', { token: apiKey, body: { url: `${site.origin}/`, options: { generationMethod: 'simple', maxUrls: 10 } } });
    assert.equal(start.status, 200);

    // The dead worker: it took the message (pg-boss now holds it active, for hours) and vanished.
    const boss = new PgBoss({ connectionString: service.deps.database.connectionString!, schema: QUEUE_SCHEMA });
    await boss.start();
    const taken = await boss.fetch('generation');
    assert.equal(taken.length, 1);
    await boss.stop({ graceful: false });

    worker = spawn(process.execPath, ['src/main.ts', 'worker'], {
      env: { ...process.env, DATABASE_URL: service.deps.database.connectionString!, CRAWL_ALLOW_PRIVATE: 'true', JWT_SECRET: 'worker-secret-that-is-long-enough-for-hs256', JOB_LEASE_SECONDS: '2', LOG_LEVEL: 'error', TMPDIR: processesTemp },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const job = await waitForGeneration(service, apiKey, start.body.jobId, 30_000);
    assert.equal(job.status, 'completed', job.error);
  });
});
