// A job stores its pages in one transaction; on the embedded database (one connection) a poll that
// had to read the job's row would wait for all of it. The job puts its row in the API's read cache
// first, so the poll is answered from memory.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { routes, page, startSite, type TestSite } from '../testing/test-site.ts';
import type { Database } from '../db/database.ts';
import { ReadCache } from '../db/read-cache.ts';
import { claimJob } from '../jobs/leases.ts';
import { describeOnEachDatabase } from '../testing/service.ts';
import type { GenerationJob } from './generation.ts';
import { generationJobKind } from './generation-job.ts';

let site: TestSite;
before(async () => {
  site = await startSite(routes({ '/': page('Home', ['/a', '/b']), '/a': page('A'), '/b': page('B') }));
});
after(() => site.close());

describeOnEachDatabase(
  'The transaction that stores a job’s pages',
  (service) => {
    test('begins with the job’s row in the read cache, still processing: a poll meanwhile needs no database', async () => {
      const { apiKey } = await service().createAccount();
      const start = await service().request('POST', '/api/v1/generate', { token: apiKey, body: { url: `${site.origin}/`, options: { generationMethod: 'simple', maxUrls: 10 } } });
      assert.equal(start.status, 200, start.text);
      const jobId: string = start.body.jobId;
      const jobReads = new ReadCache<GenerationJob>();
      // What a poll would get from the cache as each of the job's transactions begins (undefined: it would read the database).
      const cachedAtEachTransaction: Array<GenerationJob | undefined> = [];
      const db: Database = Object.create(service().db, {
        transaction: {
          value: async (...args: Parameters<Database['transaction']>) => {
            cachedAtEachTransaction.push(await jobReads.read(jobId, async () => undefined));
            return service().db.transaction(...args);
          },
        },
      });
      const kind = generationJobKind({ db, clock: service().clock, crawl: { allowPrivate: true }, describer: null, limits: service().deps.config.generation, publicUrl: service().baseUrl, jobReads });
      const attempt = await claimJob(service().db, service().clock, 'generation_jobs', jobId, 30_000);
      await kind.run(jobId, new AbortController().signal, attempt!);

      const stored = cachedAtEachTransaction.at(-1);
      assert.equal(stored?.id, jobId);
      assert.equal(stored?.status, 'processing');
      const polled = await service().request('GET', `/api/v1/generate/${jobId}`, { token: apiKey });
      assert.equal(polled.body.status, 'completed');
      assert.ok(polled.body.fileUrl);
    });
  },
  // The test site is on 127.0.0.1, which a start refuses unless private addresses are allowed.
  { workers: false, env: { CRAWL_ALLOW_PRIVATE: 'true' } },
);
