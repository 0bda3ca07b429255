// Idempotency-Key on the starts that cost money: a client whose answer was lost retries safely.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { and, eq } from '../db/orm.ts';
import { creditTransactions, discoveryJobs, generationJobs } from '../db/schema.ts';
import { ledgerOf } from '../testing/jobs.ts';
import { describeOnEachDatabase } from '../testing/service.ts';

const API = '/api/v1';

describeOnEachDatabase(
  'Idempotent starts',
  (service) => {
    const start = (token: string, key: string, body: object) =>
      service().request('POST', `${API}/generate`, { token, body, headers: { 'idempotency-key': key } });
    const body = (url: string) => ({ url, options: { maxUrls: 30, generationMethod: 'simple', cacheAge: 0 } });
    const spends = async (accountId: string) =>
      (await service().db.select().from(creditTransactions).where(and(eq(creditTransactions.accountId, accountId), eq(creditTransactions.type, 'usage')))).length;

    test('a retry with the same key answers the same job and charges once', async () => {
      const { id, apiKey } = await service().createAccount();
      const first = await start(apiKey, 'retry-1', body('https://example.com/docs'));
      assert.equal(first.status, 200);
      const retry = await start(apiKey, 'retry-1', { options: { cacheAge: 0, generationMethod: 'simple', maxUrls: 30 }, url: 'https://example.com/docs' });
      assert.equal(retry.status, 200);
      assert.deepEqual(retry.body, first.body);
      assert.equal(retry.headers.get('idempotent-replayed'), 'true');
      assert.equal(await spends(id), 1);
      assert.equal((await ledgerOf(service(), id)).balance, 20 - 3);
    });

    test('the same key with another body is 422, and changes nothing', async () => {
      const { id, apiKey } = await service().createAccount();
      assert.equal((await start(apiKey, 'reused', body('https://example.com/a'))).status, 200);
      const other = await start(apiKey, 'reused', body('https://example.com/b'));
      assert.equal(other.status, 422);
      assert.deepEqual(other.body, { message: 'This Idempotency-Key was already used with a different request' });
      assert.equal(await spends(id), 1);
    });

    test('20 concurrent requests with one key make one job and one charge', async () => {
      const { id, apiKey } = await service().createAccount();
      const answers = await Promise.all(Array.from({ length: 20 }, () => start(apiKey, 'burst', body('https://example.com/burst'))));
      const jobIds = new Set(answers.filter((a) => a.status === 200).map((a) => a.body.jobId));
      assert.equal(jobIds.size, 1);
      for (const answer of answers.filter((a) => a.status !== 200)) {
        assert.equal(answer.status, 409);
        assert.deepEqual(answer.body, { message: 'A request with this Idempotency-Key is still being answered; retry in a moment' });
      }
      const jobs = await service().db.select().from(generationJobs).where(eq(generationJobs.accountId, id));
      assert.equal(jobs.length, 1);
      assert.equal(await spends(id), 1);
    });

    test('keys belong to their account, and last 24 hours', async () => {
      const one = await service().createAccount();
      const two = await service().createAccount();
      const a = await start(one.apiKey, 'shared-name', body('https://example.com/x'));
      const b = await start(two.apiKey, 'shared-name', body('https://example.com/x'));
      assert.notEqual(a.body.jobId, b.body.jobId);
      service().clock.advance(24 * 3600_000 + 1);
      const later = await start(one.apiKey, 'shared-name', body('https://example.com/x'));
      assert.equal(later.status, 200);
      assert.notEqual(later.body.jobId, a.body.jobId);
    });

    test('a failed first answer is not kept: the retry runs again', async () => {
      const { apiKey } = await service().createAccount({});
      const tooBig = { url: 'https://example.com/big', options: { maxUrls: 1000, generationMethod: 'enhanced', cacheAge: 0 } };
      const refused = await start(apiKey, 'after-402', tooBig);
      assert.equal(refused.status, 402);
      const again = await start(apiKey, 'after-402', tooBig);
      assert.equal(again.status, 402);
      assert.equal(again.headers.get('idempotent-replayed'), null);
    });

    test('a malformed key is a 400; discovery and checkout starts honour keys too', async () => {
      const { id, apiKey } = await service().createAccount();
      const long = await start(apiKey, 'k'.repeat(256), body('https://example.com/long'));
      assert.equal(long.status, 400);
      assert.match(long.body.message, /^Validation error: /);

      const discover = () =>
        service().request('POST', `${API}/discovery`, { token: apiKey, body: { url: 'https://example.com/', maxUrls: 5 }, headers: { 'idempotency-key': 'disc' } });
      const [d1, d2] = [await discover(), await discover()];
      assert.equal(d1.status, 201);
      assert.equal(d2.status, 201);
      assert.equal(d2.body.id, d1.body.id);
      assert.equal((await service().db.select().from(discoveryJobs).where(eq(discoveryJobs.accountId, id))).length, 1);

      const checkout = () =>
        service().request('POST', `${API}/credits/checkout/api`, { token: apiKey, body: { packageId: 'small' }, headers: { 'idempotency-key': 'buy' } });
      const [c1, c2] = [await checkout(), await checkout()];
      assert.equal(c1.status, 200, c1.text);
      assert.equal(c2.body.sessionId, c1.body.sessionId);
    });
  },
  { workers: false },
);
