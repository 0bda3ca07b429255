/**
 * A worker process killed with SIGKILL in the middle of a job: the job still ends, and the
 * credits it held come back. Several processes need a shared database, so this runs on
 * PostgreSQL only (PGlite is one process's embedded database).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { ledgerOf, waitForGeneration } from '../testing/jobs.ts';
import { testDatabaseKinds } from '../testing/databases.ts';
import { startTestService, temporaryFolderForProcesses, type TestService } from '../testing/service.ts';
import { startSlowSite } from '../testing/slow-site.ts';
import type { TestSite } from '../testing/test-site.ts';

const processesTemp = temporaryFolderForProcesses('worker-crash');

function startWorker(databaseUrl: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['src/main.ts', 'worker'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      CRAWL_ALLOW_PRIVATE: 'true',
      JWT_SECRET: 'worker-secret-that-is-long-enough-for-hs256',
      JOB_LEASE_SECONDS: '2',
      JOB_POLL_SECONDS: '1',
      LOG_LEVEL: 'error',
      TMPDIR: processesTemp,
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return child;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const started = Date.now();
  while (!(await check())) {
    assert.ok(Date.now() - started < timeoutMs, `timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const killed = (child: ChildProcess) => new Promise((resolve) => (child.exitCode !== null || child.signalCode ? resolve(null) : child.once('exit', resolve)));

const attemptSettings = testDatabaseKinds().includes('postgres') ? ['3', '1'] : [];
for (const maxAttempts of attemptSettings) {
  describe(`A worker killed mid-job (JOB_MAX_ATTEMPTS=${maxAttempts}) [postgres]`, () => {
    let service: TestService;
    let site: TestSite;
    const workers: ChildProcess[] = [];
    before(async () => {
      site = await startSlowSite(12, 300);
      service = await startTestService('postgres', { workers: false, env: { CRAWL_ALLOW_PRIVATE: 'true' } });
    });
    after(async () => {
      for (const w of workers) w.kill('SIGKILL');
      await Promise.all(workers.map(killed));
      await service.close();
      await site.close();
    });

    test('the generation and the discovery still end, and the held credits come back', async () => {
      const url = service.deps.database.connectionString!;
      const env = { JOB_MAX_ATTEMPTS: maxAttempts };
      const { id: accountId, apiKey } = await service.createAccount();
      const generation = await service.request('POST', '/api/v1/generate', { token: apiKey, body: { url: site.origin, options: { generationMethod: 'simple', maxUrls: 40 } } });
      const discovery = await service.request('POST', '/api/v1/discovery', { token: apiKey, body: { url: site.origin, maxUrls: 40, discoveryType: 'crawl' } });
      assert.equal(generation.status, 200);
      assert.equal(discovery.status, 201);

      const first = startWorker(url, env);
      workers.push(first);
      const status = async (path: string) => (await service.request('GET', path, { token: apiKey })).body.status;
      await waitFor(async () => (await status(`/api/v1/generate/${generation.body.jobId}`)) === 'processing', 30_000, 'the generation to start');
      await waitFor(async () => (await status(`/api/v1/discovery/${discovery.body.id}`)) === 'processing', 30_000, 'the discovery to start');
      first.kill('SIGKILL');
      await killed(first);

      const second = startWorker(url, env);
      workers.push(second);
      const job = await waitForGeneration(service, apiKey, generation.body.jobId, 90_000);
      await waitFor(async () => ['completed', 'failed'].includes(await status(`/api/v1/discovery/${discovery.body.id}`)), 90_000, 'the discovery to end');

      const ledger = await ledgerOf(service, accountId);
      if (maxAttempts === '1') {
        assert.equal(job.status, 'failed');
        assert.match(job.error, /interrupted/);
        assert.equal(ledger.balance, 20, 'the whole reservation comes back');
        assert.equal(await status(`/api/v1/discovery/${discovery.body.id}`), 'failed');
      } else {
        assert.equal(job.status, 'completed', job.error);
        // 13 pages (home + 12) cost 2 of the 4 reserved credits.
        assert.equal(ledger.balance, 20 - 2);
        assert.equal(await status(`/api/v1/discovery/${discovery.body.id}`), 'completed');
      }
    });
  });
}
