import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { testDatabaseKinds } from '../testing/databases.ts';
import { startTestService, type TestService } from '../testing/service.ts';

// Two services (two "machines") on one Redis share each caller's budget.
describe('Rate limits shared through Redis (REDIS_URL)', () => {
  const env = {
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    RATE_LIMIT_NAMESPACE: `llmstxt-test-${randomUUID()}-`,
    RATE_LIMIT_PER_CALLER: '6',
  };
  let first: TestService;
  let second: TestService;
  before(async () => {
    const kinds = testDatabaseKinds();
    first = await startTestService(kinds[0], { env, workers: false });
    second = await startTestService(kinds.at(-1)!, { env, workers: false });
  });
  after(async () => {
    await first?.close();
    await second?.close();
  });

  test('counts one caller across services: the 7th request anywhere answers 429 with Retry-After', async () => {
    const token = 'llmstxt_notarealkeybutacaller';
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await (i % 2 ? first : second).request('GET', '/api/v1/credits/packages', { token })).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200]);
    const limited = await first.request('GET', '/api/v1/credits/packages', { token });
    assert.equal(limited.status, 429);
    assert.match(limited.body.message, /^Too many requests/);
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    // Refused credentials count against the address; another account has a budget of its own.
    const other = await second.createAccount();
    const otherCaller = await second.request('GET', '/api/v1/credits/packages', { token: other.apiKey });
    assert.equal(otherCaller.status, 200);
  });
});
