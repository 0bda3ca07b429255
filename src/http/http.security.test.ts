// The HTTP surface as an attacker tries it: rate-limit identity, proxy headers, security headers.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { describeOnEachDatabase } from '../testing/service.ts';

const API = '/api/v1';
const LIMIT = 4;
let nextAddress = 1;
/** A client address of its own for each test: with TRUST_PROXY=1 the service reads it from X-Forwarded-For. */
const clientAddress = () => `203.0.113.${nextAddress++}`;

describeOnEachDatabase(
  'Rate limits and headers under attack',
  (service) => {
    const get = (path: string, headers: Record<string, string>) => service().request('GET', path, { headers });

    test('one budget per account, however the Authorization header is spelled', async () => {
      const { apiKey } = await service().createAccount();
      const spellings = [`Bearer ${apiKey}`, `bearer ${apiKey}`, `BEARER  ${apiKey}`, `Bearer ${apiKey} `];
      const statuses = [];
      for (const authorization of [...spellings, `Bearer ${apiKey}`]) {
        statuses.push((await get(`${API}/credits/balance/api`, { authorization, 'x-forwarded-for': clientAddress() })).status);
      }
      assert.deepEqual(statuses, [200, 200, 200, 200, 429]);
    });

    test("an account's other keys and its sessions share its budget", async () => {
      const account = await service().createAccount();
      const second = await service().request('POST', `${API}/api-keys`, { token: account.apiKey, body: { name: 'second' }, headers: { 'x-forwarded-for': clientAddress() } });
      assert.equal(second.status, 201);
      const { accessToken } = await service().login(account.apiKey);
      const statuses = [];
      for (const token of [account.apiKey, second.body.key, accessToken, second.body.key]) {
        statuses.push((await get(`${API}/accounts/me`, { authorization: `Bearer ${token}`, 'x-forwarded-for': clientAddress() })).status);
      }
      // the key's creation spent one of the account's four (sign-up and login count per address)
      assert.deepEqual(statuses, [200, 200, 200, 429]);
    });

    test('made-up credentials buy no fresh budget: they count against the address', async () => {
      const address = clientAddress();
      const statuses = [];
      for (let i = 0; i <= LIMIT; i++) {
        const authorization = `Bearer ${randomBytes(16).toString('hex')}`;
        statuses.push((await get(`${API}/plans`, { authorization, 'x-forwarded-for': address })).status);
      }
      assert.deepEqual(statuses, [200, 200, 200, 200, 429]);
      const refused = await get(`${API}/credits/balance/api`, { authorization: 'Bearer llmstxt_fake', 'x-forwarded-for': address });
      assert.equal(refused.status, 429);
    });

    test('a client cannot pick its address by prepending hops to X-Forwarded-For', async () => {
      const address = clientAddress();
      const statuses = [];
      for (let i = 0; i <= LIMIT; i++) statuses.push((await get(`${API}/plans`, { 'x-forwarded-for': `6.6.6.${i}, ${address}` })).status);
      assert.deepEqual(statuses, [200, 200, 200, 200, 429]);
    });

    test('the API reference and its document are inside the rate limiter', async () => {
      for (const path of ['/docs/json', `${API}/openapi.json`]) {
        const address = clientAddress();
        const statuses = [];
        for (let i = 0; i <= LIMIT; i++) statuses.push((await get(path, { 'x-forwarded-for': address })).status);
        assert.deepEqual(statuses, [200, 200, 200, 200, 429], path);
      }
    });

    test('pages and answers carry security headers; HSTS only over TLS', async () => {
      for (const path of ['/', '/dashboard', `${API}/plans`]) {
        const res = await get(path, { 'x-forwarded-for': clientAddress() });
        assert.equal(res.status, 200, path);
        const csp = res.headers.get('content-security-policy') ?? '';
        assert.match(csp, /frame-ancestors 'none'/, path);
        // Pages run their own scripts only; API answers nothing at all.
        assert.match(csp, path.startsWith(API) ? /^default-src 'none';/ : /script-src 'self'/, path);
        assert.equal(res.headers.get('x-content-type-options'), 'nosniff', path);
        assert.equal(res.headers.get('referrer-policy'), 'strict-origin-when-cross-origin', path);
        assert.equal(res.headers.get('strict-transport-security'), null, path);
      }
      for (const path of ['/', `${API}/plans`]) {
        const overTls = await get(path, { 'x-forwarded-for': clientAddress(), 'x-forwarded-proto': 'https' });
        assert.equal(overTls.headers.get('strict-transport-security'), 'max-age=31536000; includeSubDomains', path);
      }
    });
  },
  { env: { RATE_LIMIT_PER_CALLER: String(LIMIT), TRUST_PROXY: '1' } },
);
