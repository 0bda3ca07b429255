import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeOnEachDatabase } from '../testing/service.ts';

const validAccount = { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', company: 'Analytical Engines' };

describeOnEachDatabase('POST /accounts', (service) => {
  test('creates an account on the free plan with an initial API key and welcome credits', async () => {
    const res = await service().request('POST', '/api/v1/accounts', { body: validAccount });
    assert.equal(res.status, 201);
    assert.equal(res.body.success, true);
    assert.equal(typeof res.body.message, 'string');
    assert.deepEqual(Object.keys(res.body.account).sort(), ['company', 'createdAt', 'email', 'firstName', 'id', 'lastName', 'plan']);
    assert.equal(res.body.account.plan, 'free');
    assert.equal(res.body.account.email, 'ada@example.com');
    assert.ok(!Number.isNaN(Date.parse(res.body.account.createdAt)));
    assert.match(res.body.apiKey, /^llmstxt_[0-9A-Za-z]{40,}$/);

    const balance = await service().request('GET', '/api/v1/credits/balance/api', { token: res.body.apiKey });
    assert.equal(balance.status, 200);
    assert.equal(balance.body.balance, 20);
    assert.equal(balance.body.recentTransactions[0].description, 'Welcome credits');
    assert.equal(balance.body.recentTransactions[0].type, 'purchase');
  });

  test('refuses a second account with the same e-mail in any letter case', async () => {
    const res = await service().request('POST', '/api/v1/accounts', { body: { ...validAccount, email: 'ADA@Example.com' } });
    assert.equal(res.status, 409);
    assert.deepEqual(res.body, { message: 'An account with this email already exists' });
  });

  test('creates only one account when the same e-mail signs up many times at once', async () => {
    const body = { email: 'race@example.com', firstName: 'Race' };
    const results = await Promise.all(Array.from({ length: 10 }, () => service().request('POST', '/api/v1/accounts', { body })));
    assert.deepEqual(results.map((r) => r.status).sort(), [201, ...Array(9).fill(409)]);
  });

  const boundaries: Array<[string, Record<string, unknown>, number]> = [
    ['firstName of 50 characters', { firstName: 'a'.repeat(50) }, 201],
    ['firstName of 51 characters', { firstName: 'a'.repeat(51) }, 400],
    ['empty firstName', { firstName: '' }, 400],
    ['blank firstName', { firstName: '   ' }, 400],
    ['lastName of 50 characters', { lastName: 'b'.repeat(50) }, 201],
    ['lastName of 51 characters', { lastName: 'b'.repeat(51) }, 400],
    ['company of 100 characters', { company: 'c'.repeat(100) }, 201],
    ['company of 101 characters', { company: 'c'.repeat(101) }, 400],
    ['an invalid e-mail', { email: 'not-an-email' }, 400],
    ['a numeric firstName', { firstName: 42 }, 400],
    ['an unknown field', { plan: 'agency' }, 400],
  ];
  for (const [name, change, status] of boundaries) {
    test(`answers ${status} for ${name}`, async () => {
      const email = `b-${Math.random().toString(36).slice(2)}@example.com`;
      const res = await service().request('POST', '/api/v1/accounts', { body: { email, firstName: 'B', ...change } });
      assert.equal(res.status, status, res.text);
      if (status === 400) assert.match(res.body.message, /^Validation error: .+/);
    });
  }

  test('answers 400 for a missing e-mail or firstName, naming the field', async () => {
    const noEmail = await service().request('POST', '/api/v1/accounts', { body: { firstName: 'A' } });
    assert.deepEqual(noEmail.body, { message: 'Validation error: email is required' });
    const noName = await service().request('POST', '/api/v1/accounts', { body: { email: 'x@example.com' } });
    assert.deepEqual(noName.body, { message: 'Validation error: firstName is required' });
  });
});

describeOnEachDatabase('PUT /accounts/profile', (service) => {
  test('updates the profile with an API key or an access token', async () => {
    const { apiKey } = await service().createAccount();
    const byKey = await service().request('PUT', '/api/v1/accounts/profile', { token: apiKey, body: { firstName: 'Grace', company: 'Navy' } });
    assert.equal(byKey.status, 200);
    assert.equal(byKey.body.success, true);
    assert.deepEqual(Object.keys(byKey.body.account).sort(), ['company', 'firstName', 'id', 'lastName', 'updatedAt']);
    assert.equal(byKey.body.account.firstName, 'Grace');
    assert.equal(byKey.body.account.company, 'Navy');

    const { accessToken } = await service().login(apiKey);
    const byToken = await service().request('PUT', '/api/v1/accounts/profile', { token: accessToken, body: { lastName: 'Hopper' } });
    assert.equal(byToken.status, 200);
    assert.equal(byToken.body.account.firstName, 'Grace');
    assert.equal(byToken.body.account.lastName, 'Hopper');
  });

  test('enforces 1-50 characters for names on update, and 100 for company', async () => {
    const { apiKey } = await service().createAccount();
    const cases: Array<[Record<string, unknown>, number]> = [
      [{ lastName: '' }, 400],
      [{ lastName: 'x'.repeat(51) }, 400],
      [{ lastName: 'x'.repeat(50) }, 200],
      [{ firstName: 'y'.repeat(51) }, 400],
      [{ company: 'z'.repeat(101) }, 400],
    ];
    for (const [body, status] of cases) {
      const res = await service().request('PUT', '/api/v1/accounts/profile', { token: apiKey, body });
      assert.equal(res.status, status, JSON.stringify(body));
    }
    const me = await service().request('GET', '/api/v1/accounts/me', { token: apiKey });
    assert.equal(me.body.account.lastName, 'x'.repeat(50));
  });

  test('answers 401 Unauthorized without or with wrong credentials', async () => {
    for (const token of [undefined, 'llmstxt_doesnotexist', 'not.a.jwt']) {
      const res = await service().request('PUT', '/api/v1/accounts/profile', { token, body: { firstName: 'X' } });
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, { message: 'Unauthorized' });
    }
  });
});
