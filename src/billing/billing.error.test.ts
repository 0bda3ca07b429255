/**
 * Bad input, missing things, the wrong caller, forged notifications, and the payment provider
 * failing (500s, requests that never answer: 502 with the catalogue's message, nothing written,
 * and a retry once it is back does the whole thing exactly once). Against the Stripe provider
 * pointed at a fake Stripe API.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { eq, inArray } from '../db/orm.ts';
import { accounts, checkoutSessions, subscriptions, webhookEvents } from '../db/schema.ts';
import { describeOnEachDatabase } from '../testing/service.ts';
import { FakeStripeServer } from './testing/fake-stripe-server.ts';
import { assertLedgerConsistent, customer, planOf, postEvent, WEBHOOK } from './testing/billing-test-kit.ts';

const KEYS = { secretKey: 'sk_test_errors', webhookSecret: 'whsec_errors' };
const UNAVAILABLE = { message: 'The payment provider is unavailable. Nothing was charged; please try again' };
let fake: FakeStripeServer;
before(async () => {
  fake = await FakeStripeServer.start(KEYS);
});
after(async () => {
  await fake?.close();
});

describeOnEachDatabase(
  'Billing: errors, security and provider failures',
  (service) => {
    const startPurchase = async (apiKey: string, packageId = 'small') => {
      const checkout = await service().request('POST', '/api/v1/credits/checkout/api', { token: apiKey, body: { packageId } });
      assert.equal(checkout.status, 200, checkout.text);
      return checkout.body.sessionId as string;
    };

    test('answers 404 Credit package not found for an unknown package, on both twins', async () => {
      const buyer = await customer(service());
      for (const [path, token] of [['/api/v1/credits/checkout', buyer.accessToken], ['/api/v1/credits/checkout/api', buyer.apiKey]]) {
        const res = await service().request('POST', path, { token, body: { packageId: 'credits_999' } });
        assert.equal(res.status, 404);
        assert.deepEqual(res.body, { message: 'Credit package not found' });
      }
      const rows = await service().db.select().from(checkoutSessions).where(eq(checkoutSessions.accountId, buyer.id));
      assert.deepEqual(rows, []);
    });

    test('refuses redirect URLs that are not absolute http(s) URLs, and a missing packageId', async () => {
      const buyer = await customer(service());
      const cases: Array<[string, Record<string, unknown>]> = [
        ['/api/v1/credits/checkout/api', { packageId: 'small', successUrl: 'javascript:alert(1)' }],
        ['/api/v1/credits/checkout/api', { packageId: 'small', cancelUrl: '/relative/path' }],
        ['/api/v1/credits/checkout/api', { packageId: 'small', successUrl: 'ftp://example.com/x' }],
        ['/api/v1/credits/checkout/api', { packageId: 'small', successUrl: 42 }],
        ['/api/v1/credits/checkout/api', { packageId: 'small', successUrl: 'https://x.example/' + 'a'.repeat(2100) }],
        ['/api/v1/credits/checkout/api', {}],
        ['/api/v1/credits/checkout/api', { packageId: 'small', price: 1 }],
        ['/api/v1/subscriptions/checkout/api', { planId: 'starter', successUrl: 'data:text/html,hi' }],
        ['/api/v1/subscriptions/checkout/api', { planId: 'starter', billingCycle: 'weekly' }],
        ['/api/v1/subscriptions/portal/api', { returnUrl: 'file:///etc/passwd' }],
      ];
      for (const [path, body] of cases) {
        const res = await service().request('POST', path, { token: buyer.apiKey, body });
        assert.equal(res.status, 400, `${path} ${JSON.stringify(body)}: ${res.text}`);
        assert.match(res.body.message, /^Validation error: .+/);
      }
      const ok = await service().request('POST', '/api/v1/credits/checkout/api', {
        token: buyer.apiKey,
        body: { packageId: 'small', successUrl: 'http://localhost:5173/ok?session_id={CHECKOUT_SESSION_ID}' },
      });
      assert.equal(ok.status, 200, 'the {CHECKOUT_SESSION_ID} placeholder is allowed');
    });

    test('verify-session: 404 for an unknown session, 400 while unpaid, 403 for another user, on both twins', async () => {
      const owner = await customer(service());
      const other = await customer(service());
      const sessionId = await startPurchase(owner.apiKey);

      const unknown = await service().request('GET', '/api/v1/credits/verify-session/cs_test_unknown', { token: owner.accessToken });
      assert.equal(unknown.status, 404);
      assert.deepEqual(unknown.body, { success: false, message: 'Checkout session not found' });

      for (const [suffix, token] of [['', owner.accessToken], ['/api', owner.apiKey]]) {
        const unpaid = await service().request('GET', `/api/v1/credits/verify-session/${sessionId}${suffix}`, { token });
        assert.equal(unpaid.status, 400);
        assert.deepEqual(unpaid.body, { success: false, message: 'Payment not completed' });
      }

      fake.pay(sessionId);
      for (const [suffix, token] of [['', other.accessToken], ['/api', other.apiKey]]) {
        const stolen = await service().request('GET', `/api/v1/credits/verify-session/${sessionId}${suffix}`, { token });
        assert.equal(stolen.status, 403);
        assert.deepEqual(stolen.body, { success: false, message: 'This checkout session belongs to another user' });
      }
      await assertLedgerConsistent(service(), other.id, 20);
      await assertLedgerConsistent(service(), owner.id, 20);
    });

    test('verify-session refuses a session whose provider record names another account', async () => {
      const owner = await customer(service());
      const sessionId = await startPurchase(owner.apiKey);
      fake.pay(sessionId);
      fake.sessions.get(sessionId)!.client_reference_id = 'someone-else';
      const res = await service().request('GET', `/api/v1/credits/verify-session/${sessionId}/api`, { token: owner.apiKey });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { success: false, message: 'Invalid session metadata' });
      await assertLedgerConsistent(service(), owner.id, 20);
    });

    test('credits come from the package on record, whatever the provider metadata says', async () => {
      const owner = await customer(service());
      const sessionId = await startPurchase(owner.apiKey, 'small');
      fake.pay(sessionId);
      Object.assign(fake.sessions.get(sessionId)!.metadata, { packageId: 'credits_2000', credits: '2000' });
      const res = await service().request('GET', `/api/v1/credits/verify-session/${sessionId}/api`, { token: owner.apiKey });
      assert.deepEqual(res.body, { success: true, credits: 100, sessionId });
      await assertLedgerConsistent(service(), owner.id, 120);
    });

    test('subscription checkout: 400 for an unknown plan', async () => {
      const buyer = await customer(service());
      for (const planId of ['platinum', 'free', '']) {
        const res = await service().request('POST', '/api/v1/subscriptions/checkout', { token: buyer.accessToken, body: { planId } });
        assert.equal(res.status, 400, planId);
        if (planId) assert.deepEqual(res.body, { message: 'Invalid plan id. Choose one of starter, professional, business, agency' });
      }
    });

    test('portal: 400 when the account has no billing account yet', async () => {
      const buyer = await customer(service());
      for (const [path, token] of [['/api/v1/subscriptions/portal', buyer.accessToken], ['/api/v1/subscriptions/portal/api', buyer.apiKey]]) {
        const res = await service().request('POST', path, { token, body: {} });
        assert.equal(res.status, 400);
        assert.deepEqual(res.body, { message: 'No billing account found. Make a purchase first' });
      }
    });

    test('each twin takes only its own credential: a JWT on /api and an API key on the plain path are 401 Unauthorized', async () => {
      const buyer = await customer(service());
      const sessionId = await startPurchase(buyer.apiKey);
      const routes: Array<[string, string, unknown]> = [
        ['POST', '/api/v1/credits/checkout', { packageId: 'small' }],
        ['GET', `/api/v1/credits/verify-session/${sessionId}`, undefined],
        ['POST', '/api/v1/subscriptions/checkout', { planId: 'starter' }],
        ['POST', '/api/v1/subscriptions/portal', {}],
        ['GET', '/api/v1/subscriptions/current', undefined],
      ];
      for (const [method, path, body] of routes) {
        const attempts: Array<[string, string | undefined]> = [[`${path}/api`, buyer.accessToken], [path, buyer.apiKey], [path, undefined], [`${path}/api`, 'llmstxt_wrong']];
        for (const [url, token] of attempts) {
          const res = await service().request(method, url, { token, body });
          assert.equal(res.status, 401, `${method} ${url} with ${token ? 'a wrong credential' : 'none'}`);
          assert.deepEqual(res.body, { message: 'Unauthorized' });
        }
      }
    });

    test('the webhook refuses a bad, missing, stale, foreign or tampered signature with 400 and changes nothing', async () => {
      const buyer = await customer(service());
      const sessionId = await startPurchase(buyer.apiKey);
      const { session } = fake.pay(sessionId);
      const good = fake.event('checkout.session.completed', session);
      const stale = fake.event('checkout.session.completed', session, { timestamp: Math.floor(Date.now() / 1000) - 600 });
      const foreign = fake.event('checkout.session.completed', session, { secret: 'whsec_someone_else' });
      const attempts = [
        { payload: good.payload, headers: { 'content-type': 'application/json' } },
        { payload: good.payload, headers: { ...good.headers, 'stripe-signature': 't=1,v1=deadbeef' } },
        { payload: good.payload, headers: { ...good.headers, 'stripe-signature': '' } },
        stale,
        foreign,
        { payload: good.payload.replace('"livemode":false', '"livemode":true'), headers: good.headers },
        { payload: '', headers: good.headers },
      ];
      for (const attempt of attempts) {
        const res = await postEvent(service(), attempt);
        assert.equal(res.status, 400, res.text);
        assert.deepEqual(res.body, { message: 'Invalid webhook signature' });
      }
      const recorded = await service().db.select().from(webhookEvents).where(inArray(webhookEvents.id, [good.id, stale.id, foreign.id]));
      assert.deepEqual(recorded, []);
      const [row] = await service().db.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId));
      assert.equal(row.fulfilledAt, null);
      await assertLedgerConsistent(service(), buyer.id, 20);

      assert.equal((await postEvent(service(), good)).status, 200, 'the genuine event still goes through');
      await assertLedgerConsistent(service(), buyer.id, 120);
    });

    test('the webhook acknowledges event types it does not handle, and sessions it did not create', async () => {
      for (const event of [
        fake.event('payment_intent.created', { id: 'pi_1', object: 'payment_intent' }),
        fake.event('charge.refunded', { id: 'ch_1', object: 'charge' }),
        fake.event('checkout.session.completed', { id: 'cs_not_ours', object: 'checkout.session' }),
        fake.event('invoice.paid', { id: 'in_one_off', object: 'invoice', customer: 'cus_x', parent: null }),
        fake.event('customer.subscription.updated', { id: 'sub_elsewhere', object: 'subscription', customer: 'cus_elsewhere' }),
        fake.event('invoice.paid', {
          id: 'in_elsewhere',
          object: 'invoice',
          customer: 'cus_elsewhere',
          parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_elsewhere', metadata: {} } },
        }),
      ]) {
        const res = await postEvent(service(), event);
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body, { received: true });
      }
      assert.ok(!fake.requests.some((r) => r.path.includes('sub_elsewhere')), 'subscriptions of unknown customers are not looked up');
      const res = await service().request('POST', WEBHOOK, { rawBody: 'not json', headers: { 'content-type': 'text/plain', 'stripe-signature': 'x' } });
      assert.equal(res.status, 400);
    });

    // ---- the payment provider failing (500s, requests never answered) ----

    afterEach(() => fake.recover());

    const nothingWritten = async (accountId: string) => {
      assert.deepEqual(await service().db.select().from(checkoutSessions).where(eq(checkoutSessions.accountId, accountId)), [], 'no checkout_sessions row');
      const [account] = await service().db.select({ customer: accounts.billingCustomerId }).from(accounts).where(eq(accounts.id, accountId));
      assert.equal(account.customer, null, 'no billing customer id set');
      await assertLedgerConsistent(service(), accountId, 20);
    };

    for (const [what, path, mode] of [
      ['creating the customer fails with 500', /\/v1\/customers/, 'error'],
      ['creating the session fails with 500', /\/v1\/checkout\/sessions/, 'error'],
      ['creating the session never answers', /\/v1\/checkout\/sessions/, 'hang'],
    ] as const) {
      test(`credit checkout when ${what}: 502, nothing written; the retry uses one customer`, async () => {
        const buyer = await customer(service());
        fake.fail(mode, { path });
        const started = Date.now();
        const res = await service().request('POST', '/api/v1/credits/checkout', { token: buyer.accessToken, body: { packageId: 'small' } });
        assert.equal(res.status, 502, res.text);
        assert.deepEqual(res.body, UNAVAILABLE);
        assert.ok(Date.now() - started < 10_000, 'a hung provider is given up on');
        await nothingWritten(buyer.id);

        fake.recover();
        const retry = await service().request('POST', '/api/v1/credits/checkout', { token: buyer.accessToken, body: { packageId: 'small' } });
        assert.equal(retry.status, 200, retry.text);
        const customers = [...fake.customers.values()].filter((c) => c.metadata.accountId === buyer.id);
        assert.equal(customers.length, 1, 'one provider customer for the account');
        const [account] = await service().db.select({ customer: accounts.billingCustomerId }).from(accounts).where(eq(accounts.id, buyer.id));
        assert.equal(account.customer, customers[0].id);
      });
    }

    test('subscription checkout and the portal answer 502 while the provider fails', async () => {
      const buyer = await customer(service());
      fake.fail('error');
      const checkout = await service().request('POST', '/api/v1/subscriptions/checkout/api', { token: buyer.apiKey, body: { planId: 'starter' } });
      assert.equal(checkout.status, 502);
      assert.deepEqual(checkout.body, UNAVAILABLE);
      await nothingWritten(buyer.id);

      fake.recover();
      assert.equal((await service().request('POST', '/api/v1/credits/checkout/api', { token: buyer.apiKey, body: { packageId: 'small' } })).status, 200);
      fake.fail('hang', { path: /billing_portal/ });
      const portal = await service().request('POST', '/api/v1/subscriptions/portal/api', { token: buyer.apiKey, body: {} });
      assert.equal(portal.status, 502);
      assert.deepEqual(portal.body, UNAVAILABLE);
    });

    test('fulfilment while the provider fails: verify-session and the webhook answer 502 and add nothing; the retry adds once', async () => {
      const buyer = await customer(service());
      const checkout = await service().request('POST', '/api/v1/credits/checkout/api', { token: buyer.apiKey, body: { packageId: 'small' } });
      const { session } = fake.pay(checkout.body.sessionId);
      const event = fake.event('checkout.session.completed', session);

      for (const mode of ['error', 'hang'] as const) {
        fake.fail(mode, { path: /\/v1\/checkout\/sessions\// });
        const verified = await service().request('GET', `/api/v1/credits/verify-session/${session.id}/api`, { token: buyer.apiKey });
        assert.equal(verified.status, 502, verified.text);
        assert.deepEqual(verified.body, UNAVAILABLE);
        const delivered = await postEvent(service(), event);
        assert.equal(delivered.status, 502, 'non-2xx, so the provider delivers it again');
        assert.deepEqual(await service().db.select().from(webhookEvents).where(eq(webhookEvents.id, event.id)), []);
        const [row] = await service().db.select().from(checkoutSessions).where(eq(checkoutSessions.id, session.id));
        assert.equal(row.fulfilledAt, null);
        await assertLedgerConsistent(service(), buyer.id, 20);
        fake.recover();
      }

      assert.equal((await postEvent(service(), event)).status, 200);
      const verified = await service().request('GET', `/api/v1/credits/verify-session/${session.id}/api`, { token: buyer.apiKey });
      assert.deepEqual(verified.body, { success: true, credits: 100, sessionId: session.id });
      await assertLedgerConsistent(service(), buyer.id, 120);
    });

    test('a subscription event while the provider fails: 502, no plan, no grant; the redelivery applies it', async () => {
      const subscriber = await customer(service());
      const checkout = await service().request('POST', '/api/v1/subscriptions/checkout/api', { token: subscriber.apiKey, body: { planId: 'starter' } });
      const paid = fake.pay(checkout.body.sessionId);
      const events = [fake.event('invoice.paid', paid.invoice!), fake.event('checkout.session.completed', paid.session)];

      fake.fail('error', { path: /\/v1\/subscriptions\// });
      for (const event of events) assert.equal((await postEvent(service(), event)).status, 502);
      assert.equal(await planOf(service(), subscriber.id), 'free');
      assert.deepEqual(await service().db.select().from(subscriptions).where(eq(subscriptions.accountId, subscriber.id)), []);
      await assertLedgerConsistent(service(), subscriber.id, 20);

      fake.recover();
      for (const event of events) assert.equal((await postEvent(service(), event)).status, 200);
      assert.equal(await planOf(service(), subscriber.id), 'starter');
      await assertLedgerConsistent(service(), subscriber.id, 520);
    });
  },
  {
    env: { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: KEYS.secretKey, STRIPE_WEBHOOK_SECRET: KEYS.webhookSecret },
    payments: () => fake.provider({ timeoutMs: 800 }),
  },
);
