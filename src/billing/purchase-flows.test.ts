/**
 * Buying credits and subscriptions end to end, through real HTTP, once against Stripe (the SDK
 * talking to a fake Stripe API, events POSTed signed to the webhook) and once against the local
 * provider (its hosted pages submitted over HTTP, its own signed events), on both databases.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eq } from '../db/orm.ts';
import { accounts, localPayEvents, localPaySettings } from '../db/schema.ts';
import { describeOnEachDatabase, type TestService } from '../testing/service.ts';
import { FakeStripeServer } from './testing/fake-stripe-server.ts';
import { assertLedgerConsistent, customer, ledger, localPayer, planOf, stripePayer, type Payer } from './testing/billing-test-kit.ts';

const KEYS = { secretKey: 'sk_test_flows', webhookSecret: 'whsec_flows' };
let fake: FakeStripeServer;
before(async () => {
  fake = await FakeStripeServer.start(KEYS);
});
after(async () => {
  await fake?.close();
});

const balanceOf = async (service: TestService, apiKey: string) =>
  (await service.request('GET', '/api/v1/credits/balance/api', { token: apiKey })).body.balance as number;

function purchaseFlows(service: () => TestService, payer: Payer) {
  test('sells a credit package: the credits arrive once, and verify-session agrees without adding more', async () => {
    const buyer = await customer(service());
    const checkout = await service().request('POST', '/api/v1/credits/checkout', {
      token: buyer.accessToken,
      body: { packageId: 'small', successUrl: `${service().baseUrl}/done?session_id={CHECKOUT_SESSION_ID}` },
    });
    assert.equal(checkout.status, 200, checkout.text);
    assert.deepEqual(Object.keys(checkout.body).sort(), ['package', 'sessionId', 'url']);
    assert.deepEqual(checkout.body.package, { id: 'credits_100', name: 'Small: 100 credits', credits: 100, priceCents: 500 });
    assert.match(checkout.body.url, /^https?:\/\//);
    const { sessionId } = checkout.body;

    const early = await service().request('GET', `/api/v1/credits/verify-session/${sessionId}`, { token: buyer.accessToken });
    assert.equal(early.status, 400);
    assert.deepEqual(early.body, { success: false, message: 'Payment not completed' });

    await payer.pay(sessionId);
    assert.equal(await balanceOf(service(), buyer.apiKey), 120);

    for (const [path, token] of [[`/api/v1/credits/verify-session/${sessionId}`, buyer.accessToken], [`/api/v1/credits/verify-session/${sessionId}/api`, buyer.apiKey]]) {
      const verified = await service().request('GET', path, { token });
      assert.equal(verified.status, 200, verified.text);
      assert.deepEqual(verified.body, { success: true, credits: 100, sessionId });
    }
    const history = await service().request('GET', '/api/v1/credits/history/api?type=purchase', { token: buyer.apiKey });
    assert.deepEqual(history.body.transactions.map((t: any) => [t.amount, t.description]), [
      [100, 'Credit purchase: Small: 100 credits'],
      [20, 'Welcome credits'],
    ]);
    await assertLedgerConsistent(service(), buyer.id, 120);
  });

  test('accepts a package id or its short packageId, with an API key too', async () => {
    const buyer = await customer(service());
    for (const packageId of ['credits_2000', 'large']) {
      const checkout = await service().request('POST', '/api/v1/credits/checkout/api', { token: buyer.apiKey, body: { packageId } });
      assert.equal(checkout.status, 200, checkout.text);
      assert.deepEqual(checkout.body.package, { id: 'credits_2000', name: 'Large: 2,000 credits', credits: 2000, priceCents: 6000 });
    }
  });

  test('runs a subscription from checkout to cancellation: plan, a grant per paid invoice, replays ignored, plan change', async () => {
    const subscriber = await customer(service());
    const none = await service().request('GET', '/api/v1/subscriptions/current', { token: subscriber.accessToken });
    assert.deepEqual(none.body, { subscription: null });

    const checkout = await service().request('POST', '/api/v1/subscriptions/checkout', { token: subscriber.accessToken, body: { planId: 'starter' } });
    assert.equal(checkout.status, 200, checkout.text);
    assert.deepEqual(checkout.body.plan, { id: 'starter', name: 'Starter', monthlyCredits: 500, priceCents: 900 });
    assert.equal(await planOf(service(), subscriber.id), 'free', 'nothing changes before payment');

    await payer.pay(checkout.body.sessionId);
    assert.equal(await planOf(service(), subscriber.id), 'starter');
    assert.equal(await balanceOf(service(), subscriber.apiKey), 520);
    const current = await service().request('GET', '/api/v1/subscriptions/current/api', { token: subscriber.apiKey });
    assert.equal(current.status, 200);
    assert.deepEqual(Object.keys(current.body.subscription).sort(), [
      'billingCycle', 'cancelAtPeriodEnd', 'currentPeriodEnd', 'currentPeriodStart', 'id', 'planId', 'status',
    ]);
    assert.equal(current.body.subscription.planId, 'starter');
    assert.equal(current.body.subscription.status, 'active');
    assert.equal(current.body.subscription.billingCycle, 'monthly');
    assert.equal(current.body.subscription.cancelAtPeriodEnd, false);
    assert.ok(Date.parse(current.body.subscription.currentPeriodEnd) > Date.parse(current.body.subscription.currentPeriodStart));

    const again = await service().request('POST', '/api/v1/subscriptions/checkout', { token: subscriber.accessToken, body: { planId: 'agency' } });
    assert.equal(again.status, 400);
    assert.deepEqual(again.body, { message: 'You already have an active subscription. Use the billing portal to change plans' });

    const verified = await service().request('GET', `/api/v1/credits/verify-session/${checkout.body.sessionId}`, { token: subscriber.accessToken });
    assert.deepEqual(verified.body, { success: true, credits: 500, sessionId: checkout.body.sessionId });
    assert.equal(await balanceOf(service(), subscriber.apiKey), 520, 'verify-session adds nothing to a subscription');

    await payer.renew(subscriber);
    assert.equal(await balanceOf(service(), subscriber.apiKey), 1020, 'the renewal invoice grants the next month');
    await payer.replayLatestInvoice(subscriber);
    assert.equal(await balanceOf(service(), subscriber.apiKey), 1020, 'a replayed invoice grants nothing');

    await payer.changePlan(subscriber, 'business', 'monthly');
    assert.equal(await planOf(service(), subscriber.id), 'business');
    assert.equal(await balanceOf(service(), subscriber.apiKey), 1020, 'a plan change takes effect at the next invoice');
    await payer.renew(subscriber);
    assert.equal(await balanceOf(service(), subscriber.apiKey), 7020);

    await payer.cancel(subscriber);
    assert.equal(await planOf(service(), subscriber.id), 'free');
    const ended = await service().request('GET', '/api/v1/subscriptions/current', { token: subscriber.accessToken });
    assert.equal(ended.body.subscription.status, 'canceled');
    assert.equal(ended.body.subscription.planId, 'business');
    assert.equal(await balanceOf(service(), subscriber.apiKey), 7020, 'granted credits stay');
    await assertLedgerConsistent(service(), subscriber.id, 7020);

    const resubscribe = await service().request('POST', '/api/v1/subscriptions/checkout/api', { token: subscriber.apiKey, body: { planId: 'starter' } });
    assert.equal(resubscribe.status, 200, 'after cancellation a new subscription can be bought');
  });

  test('grants twelve months of credits for a paid yearly invoice', async () => {
    const subscriber = await customer(service());
    const checkout = await service().request('POST', '/api/v1/subscriptions/checkout/api', {
      token: subscriber.apiKey,
      body: { planId: 'professional', billingCycle: 'yearly' },
    });
    assert.equal(checkout.status, 200, checkout.text);
    assert.deepEqual(checkout.body.plan, { id: 'professional', name: 'Professional', monthlyCredits: 2000, priceCents: 29000 });
    await payer.pay(checkout.body.sessionId);
    assert.equal(await balanceOf(service(), subscriber.apiKey), 20 + 24000);
    const current = await service().request('GET', '/api/v1/subscriptions/current/api', { token: subscriber.apiKey });
    assert.equal(current.body.subscription.billingCycle, 'yearly');
  });

  test('opens the billing portal once the account has a billing customer', async () => {
    const buyer = await customer(service());
    await service().request('POST', '/api/v1/credits/checkout/api', { token: buyer.apiKey, body: { packageId: 'small' } });
    for (const [path, token] of [['/api/v1/subscriptions/portal', buyer.accessToken], ['/api/v1/subscriptions/portal/api', buyer.apiKey]]) {
      const portal = await service().request('POST', path, { token, body: { returnUrl: 'https://app.example.com/account' } });
      assert.equal(portal.status, 200, portal.text);
      assert.deepEqual(Object.keys(portal.body), ['url']);
      assert.match(portal.body.url, /^https?:\/\//);
    }
    const bodyless = await service().request('POST', '/api/v1/subscriptions/portal/api', { token: buyer.apiKey });
    assert.equal(bodyless.status, 200, 'the body is optional');
  });
}

describeOnEachDatabase(
  'Purchases through Stripe (fake Stripe API)',
  (service) => {
    purchaseFlows(service, stripePayer(service, () => fake));

    test('sends Stripe the price on record inline, the account as client_reference_id, and the default redirect URLs', async () => {
      const buyer = await customer(service());
      await service().request('POST', '/api/v1/credits/checkout/api', { token: buyer.apiKey, body: { packageId: 'medium' } });
      const sent = fake.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!.body;
      assert.equal(sent.mode, 'payment');
      assert.equal(sent.client_reference_id, buyer.id);
      assert.equal(sent.metadata.accountId, buyer.id);
      assert.equal(sent.line_items[0].price_data.unit_amount, '2000');
      assert.equal(sent.line_items[0].price_data.currency, 'usd');
      const base = service().deps.config.publicUrl;
      assert.equal(sent.success_url, `${base}/dashboard?checkout=success&session_id={CHECKOUT_SESSION_ID}`);
      assert.equal(sent.cancel_url, `${base}/dashboard?checkout=canceled`);

      await service().request('POST', '/api/v1/subscriptions/checkout/api', { token: buyer.apiKey, body: { planId: 'agency', billingCycle: 'yearly' } });
      const subscription = fake.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!.body;
      assert.equal(subscription.mode, 'subscription');
      assert.equal(subscription.line_items[0].price_data.unit_amount, '199000');
      assert.equal(subscription.line_items[0].price_data.recurring.interval, 'year');
      assert.deepEqual(subscription.subscription_data.metadata, { accountId: buyer.id, planId: 'agency', billingCycle: 'yearly' });
      assert.equal(subscription.success_url, `${base}/dashboard?subscription=success&session_id={CHECKOUT_SESSION_ID}`);
      assert.equal(subscription.cancel_url, `${base}/pricing`);
    });

    test('creates one Stripe customer per account, even when its first checkouts start at once', async () => {
      const buyer = await customer(service());
      const results = await Promise.all(
        Array.from({ length: 6 }, () => service().request('POST', '/api/v1/credits/checkout/api', { token: buyer.apiKey, body: { packageId: 'small' } })),
      );
      assert.deepEqual(results.map((r) => r.status), Array(6).fill(200));
      const [account] = await service().db.select({ customer: accounts.billingCustomerId }).from(accounts).where(eq(accounts.id, buyer.id));
      const customers = [...fake.customers.values()].filter((c) => c.metadata.accountId === buyer.id);
      assert.deepEqual(customers.map((c) => c.id), [account.customer]);
      const sessions = results.map((r) => fake.sessions.get(r.body.sessionId)!);
      assert.ok(sessions.every((s) => s.customer === account.customer));
    });
  },
  { env: { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: KEYS.secretKey, STRIPE_WEBHOOK_SECRET: KEYS.webhookSecret }, payments: () => fake.provider() },
);

describeOnEachDatabase('Purchases through the local provider', (service) => {
  purchaseFlows(service, localPayer(service));

  const form = (path: string, fields: Record<string, string> = {}) =>
    fetch(service().baseUrl + path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
      redirect: 'manual',
    });

  test('serves an accessible hosted checkout page with Pay and Cancel forms, and 404 for an unknown session', async () => {
    const buyer = await customer(service());
    const checkout = await service().request('POST', '/api/v1/credits/checkout/api', { token: buyer.apiKey, body: { packageId: 'small' } });
    assert.equal(checkout.body.url, `${service().baseUrl}/pay/checkout/${checkout.body.sessionId}`);
    const page = await fetch(checkout.body.url);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type')!, /^text\/html/);
    const html = await page.text();
    assert.match(html, /<html lang="en">/);
    assert.match(html, /<h1>Checkout<\/h1>/);
    assert.ok(html.includes(`<form method="post" action="/pay/checkout/${checkout.body.sessionId}/complete">`));
    assert.ok(html.includes(`<form method="post" action="/pay/checkout/${checkout.body.sessionId}/cancel">`));
    assert.match(html, /<button type="submit">Pay \$5\.00<\/button>/);
    assert.ok(html.includes(buyer.email), 'shows who is billed');

    const unknown = await fetch(`${service().baseUrl}/pay/checkout/cs_local_nope`);
    assert.equal(unknown.status, 404);
    assert.equal((await form('/pay/checkout/cs_local_nope/complete')).status, 404);
  });

  test('adds the credits once when Pay is submitted many times at once, and redirects each to the success URL', async () => {
    const buyer = await customer(service());
    const successUrl = 'https://app.example.com/thanks?s={CHECKOUT_SESSION_ID}&again={CHECKOUT_SESSION_ID}';
    const checkout = await service().request('POST', '/api/v1/credits/checkout/api', { token: buyer.apiKey, body: { packageId: 'small', successUrl } });
    const { sessionId } = checkout.body;
    const clicks = await Promise.all(Array.from({ length: 5 }, () => form(`/pay/checkout/${sessionId}/complete`)));
    for (const click of clicks) {
      assert.equal(click.status, 303);
      assert.equal(click.headers.get('location'), `https://app.example.com/thanks?s=${sessionId}&again=${sessionId}`);
    }
    await assertLedgerConsistent(service(), buyer.id, 120);
    const page = await (await fetch(checkout.body.url)).text();
    assert.match(page, /already paid/);
  });

  test('Cancel returns to the cancel URL and charges nothing', async () => {
    const buyer = await customer(service());
    const cancelUrl = 'https://app.example.com/pricing?canceled=1';
    const checkout = await service().request('POST', '/api/v1/credits/checkout/api', { token: buyer.apiKey, body: { packageId: 'small', cancelUrl } });
    const click = await form(`/pay/checkout/${checkout.body.sessionId}/cancel`);
    assert.equal(click.status, 303);
    assert.equal(click.headers.get('location'), cancelUrl);
    const verified = await service().request('GET', `/api/v1/credits/verify-session/${checkout.body.sessionId}/api`, { token: buyer.apiKey });
    assert.deepEqual(verified.body, { success: false, message: 'Payment not completed' });
    await assertLedgerConsistent(service(), buyer.id, 20);
  });

  test('signs its events with a secret it keeps in the database, and delivers each one', async () => {
    const [setting] = await service().db.select().from(localPaySettings).where(eq(localPaySettings.key, 'webhook_secret'));
    assert.match(setting.value, /^whsec_local_/);
    const events = await service().db.select().from(localPayEvents);
    assert.ok(events.length > 0);
    assert.deepEqual(events.filter((e) => !e.deliveredAt).map((e) => e.type), [], 'every event was delivered');
  });

  test('cancelling at the end of the period keeps the plan until the period ends', async () => {
    const subscriber = await customer(service());
    const checkout = await service().request('POST', '/api/v1/subscriptions/checkout/api', { token: subscriber.apiKey, body: { planId: 'starter' } });
    await localPayer(service).pay(checkout.body.sessionId);
    const portal = await service().request('POST', '/api/v1/subscriptions/portal/api', { token: subscriber.apiKey, body: {} });
    const html = await (await fetch(portal.body.url)).text();
    assert.match(html, /<label for="plan-0">Change plan<\/label>/);
    const base = /action="(\/pay\/portal\/[^"]+\/subscriptions\/[^"/]+)\/renew"/.exec(html)![1];

    assert.equal((await form(`${base}/cancel`, { when: 'period_end' })).status, 303);
    const pending = await service().request('GET', '/api/v1/subscriptions/current/api', { token: subscriber.apiKey });
    assert.equal(pending.body.subscription.cancelAtPeriodEnd, true);
    assert.equal(pending.body.subscription.status, 'active');
    assert.equal(await planOf(service(), subscriber.id), 'starter');

    assert.equal((await form(`${base}/renew`)).status, 303);
    assert.equal(await planOf(service(), subscriber.id), 'free');
    const ended = await service().request('GET', '/api/v1/subscriptions/current/api', { token: subscriber.apiKey });
    assert.equal(ended.body.subscription.status, 'canceled');
    assert.equal((await ledger(service(), subscriber.id)).balance, 520, 'no invoice for a period that was not renewed');
  });
});
