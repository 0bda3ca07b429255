import assert from 'node:assert/strict';
import { eq } from '../db/orm.ts';
import { creditTransactions } from '../db/schema.ts';
import { readLedger } from './ledger.ts';
import type { TestService } from './service.ts';

/** Polls a job until it ends, checking the contract's state rules on every look. */
export async function waitForGeneration(service: TestService, token: string, jobId: string, timeoutMs = 60_000) {
  const started = Date.now();
  for (;;) {
    const res = await service.request('GET', `/api/v1/generate/${jobId}`, { token });
    assert.equal(res.status, 200, res.text);
    const job = res.body;
    assert.ok(job.progress >= 0 && job.progress <= 100);
    if (job.status === 'processing' || job.status === 'pending') {
      assert.equal(job.fileUrl, null);
      assert.equal(job.fullTextUrl, null);
      assert.equal(job.completedAt, null);
    }
    if (job.status === 'completed') {
      assert.equal(job.progress, 100);
      assert.ok(job.fileUrl);
      assert.equal(job.error, null);
      return job;
    }
    if (job.status === 'failed') {
      assert.ok(job.error);
      assert.equal(job.fileUrl, null);
      assert.equal(job.fullTextUrl, null);
      assert.ok(job.completedAt);
      return job;
    }
    assert.ok(Date.now() - started < timeoutMs, `job still ${job.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Polls a discovery job until it ends. */
export async function waitForDiscovery(service: TestService, token: string, id: string, timeoutMs = 30_000) {
  const started = Date.now();
  for (;;) {
    const res = await service.request('GET', `/api/v1/discovery/${id}`, { token });
    assert.equal(res.status, 200, res.text);
    if (res.body.status === 'completed' || res.body.status === 'failed') return res.body;
    assert.ok(Date.now() - started < timeoutMs, `discovery still ${res.body.status} after ${timeoutMs} ms`);
    if (res.body.status === 'processing') assert.equal(res.body.completedAt, null);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The account's balance and ledger rows, after checking they agree (see readLedger). */
export async function ledgerOf(service: TestService, accountId: string) {
  const { balance } = await readLedger(service, accountId);
  const rows = await service.db.select().from(creditTransactions).where(eq(creditTransactions.accountId, accountId));
  return { balance, rows };
}
