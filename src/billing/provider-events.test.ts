/**
 * Notifications as a real provider sends them: twice, at once, out of order, racing the
 * verify-session fallback, and into a handler that fails halfway.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { and, eq, like, sql } from '../db/orm.ts';
import { checkoutSessions, creditTransactions, webhookEvents } from '../db/schema.ts';
import { describeOnEachDatabase, type TestService } from '../testing/service.ts';
import { FakeStripeServer, type StripeObject } from './testing/fake-stripe-server.ts';
import { assertLedgerConsistent, customer, ledger, planOf, postEvent } from './testing/billing-test-kit.ts';

const KEYS = { secretKey: 'sk_test_webhooks', webhookSecret: 'whsec_webhooks' };
let fake: FakeStripeServer;
before(async () => {
  fake = await FakeStripeServer.start(KEYS);
});
after(async () => {
  await fake?.close();
});

type SignedEvent = ReturnType<FakeStripeServer['event']>;

/** Deterministic shuffles, so a failure names the order that failed. */
function permutations<T>(items: T[], count: number): T[][] {
  const orders: T[][] = [items, [...items].reverse()];
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  while (orders.length < count) {
    const order = [...items];
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    orders.push(order);
  }
  return orders;
}

describeOnEachDatabase(
  'Webhook: idempotency, races and order',
  (service) => {
    async function paidPurchase(apiKey: string, packageId = 'small') {
      const checkout = await service().request('POST', '/api/v1/credits/checkout/api', { token: apiKey, body: { packageId } });
      assert.equal(checkout.status, 200, checkout.text);
      return fake.pay(checkout.body.sessionId).session;
    }

    test('an event delivered many times, at once and again later, is applied once', async () => {
      const buyer = await customer(service());
      const event = fake.event('checkout.session.completed', await paidPurchase(buyer.apiKey));
      const at_once = await Promise.all(Array.from({ length: 8 }, () => postEvent(service(), event)));
      assert.deepEqual(at_once.map((r) => r.status), Array(8).fill(200));
      for (let i = 0; i < 3; i++) assert.equal((await postEvent(service(), event)).status, 200);
      await assertLedgerConsistent(service(), buyer.id, 120);
      const rows = await service().db.select().from(webhookEvents).where(eq(webhookEvents.id, event.id));
      assert.equal(rows.length, 1);
    });

    test('checkout.session.completed and async_payment_succeeded for one session add the credits once', async () => {
      const buyer = await customer(service());
      const session = await paidPurchase(buyer.apiKey);
      const events = [fake.event('checkout.session.completed', session), fake.event('checkout.session.async_payment_succeeded', session)];
      const results = await Promise.all([...events, ...events].map((e) => postEvent(service(), e)));
      assert.deepEqual(results.map((r) => r.status), [200, 200, 200, 200]);
      await assertLedgerConsistent(service(), buyer.id, 120);
    });

    test('an asynchronous payment: completed while unpaid adds nothing; async_payment_succeeded adds the credits', async () => {
      const buyer = await customer(service());
      const checkout = await service().request('POST', '/api/v1/credits/checkout/api', { token: buyer.apiKey, body: { packageId: 'medium' } });
      const { session } = fake.pay(checkout.body.sessionId, 'unpaid');
      assert.equal((await postEvent(service(), fake.event('checkout.session.completed', session))).status, 200);
      await assertLedgerConsistent(service(), buyer.id, 20);
      const pending = await service().request('GET', `/api/v1/credits/verify-session/${session.id}/api`, { token: buyer.apiKey });
      assert.deepEqual(pending.body, { success: false, message: 'Payment not completed' });

      const { session: settled } = fake.pay(session.id, 'paid');
      assert.equal((await postEvent(service(), fake.event('checkout.session.async_payment_succeeded', settled))).status, 200);
      await assertLedgerConsistent(service(), buyer.id, 520);
    });

    test('verify-session racing the webhook, 20 rounds: each purchase is credited exactly once', async () => {
      const buyer = await customer(service());
      for (let round = 0; round < 20; round++) {
        const session = await paidPurchase(buyer.apiKey);
        const completed = fake.event('checkout.session.completed', session);
        const asyncSucceeded = fake.event('checkout.session.async_payment_succeeded', session);
        const verify = (suffix: string, token: string) => service().request('GET', `/api/v1/credits/verify-session/${session.id}${suffix}`, { token });
        const results = await Promise.all([
          postEvent(service(), completed),
          verify('', buyer.accessToken),
          postEvent(service(), asyncSucceeded),
          verify('/api', buyer.apiKey),
          postEvent(service(), completed),
          verify('/api', buyer.apiKey),
        ]);
        for (const result of results) assert.equal(result.status, 200, `round ${round}: ${result.text}`);
        for (const verified of [results[1], results[3], results[5]]) assert.deepEqual(verified.body, { success: true, credits: 100, sessionId: session.id });
      }
      await assertLedgerConsistent(service(), buyer.id, 20 + 20 * 100);
      const [grants] = await service()
        .db.select({ n: sql<string>`count(*)` })
        .from(creditTransactions)
        .where(and(eq(creditTransactions.accountId, buyer.id), like(creditTransactions.reference, 'checkout:%')));
      assert.equal(Number(grants.n), 20);
      assert.equal((await ledger(service(), buyer.id)).rows, 21);
    });

    test('a handler that fails halfway answers non-2xx and leaves nothing written; the redelivery applies it once', async () => {
      const buyer = await customer(service());
      const session = await paidPurchase(buyer.apiKey);
      const event = fake.event('checkout.session.completed', session);
      const db = service().db;
      // the ledger write fails after the event row and the session's fulfilment were written in the transaction
      await db.execute(sql.raw(`
        create or replace function billing_test_refuse() returns trigger language plpgsql as $$
        begin
          if new.reference = 'checkout:${session.id}' then raise exception 'ledger unavailable (test)'; end if;
          return new;
        end $$`));
      await db.execute(sql.raw('create trigger billing_test_refuse before insert on credit_transactions for each row execute function billing_test_refuse()'));
      try {
        const failed = await postEvent(service(), event);
        assert.ok(failed.status >= 500, `non-2xx, got ${failed.status}`);
        assert.deepEqual(failed.body, { message: 'Internal server error' });
        assert.deepEqual(await db.select().from(webhookEvents).where(eq(webhookEvents.id, event.id)), []);
        const [row] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, session.id));
        assert.equal(row.fulfilledAt, null);
        await assertLedgerConsistent(service(), buyer.id, 20);
      } finally {
        await db.execute(sql.raw('drop trigger billing_test_refuse on credit_transactions'));
        await db.execute(sql.raw('drop function billing_test_refuse()'));
      }
      assert.equal((await postEvent(service(), event)).status, 200);
      assert.equal((await postEvent(service(), event)).status, 200);
      await assertLedgerConsistent(service(), buyer.id, 120);
    });

    /**
     * One subscription's life at the fake Stripe, with the events it sent at each step (each a
     * snapshot of that moment): checkout, first invoice, renewal, its invoice, a plan change,
     * and optionally the cancellation.
     */
    async function subscriptionStory(service: TestService, cancel: boolean) {
      const subscriber = await customer(service);
      const checkout = await service.request('POST', '/api/v1/subscriptions/checkout/api', { token: subscriber.apiKey, body: { planId: 'starter' } });
      assert.equal(checkout.status, 200, checkout.text);
      const paid = fake.pay(checkout.body.sessionId);
      const subscriptionId = paid.subscription!.id;
      const events: SignedEvent[] = [fake.event('checkout.session.completed', paid.session), fake.event('invoice.paid', paid.invoice!)];
      const renewal = fake.renew(subscriptionId);
      events.push(fake.event('customer.subscription.updated', renewal.subscription), fake.event('invoice.paid', renewal.invoice));
      events.push(fake.event('customer.subscription.updated', fake.changePlan(subscriptionId, 'professional', 'monthly', 2900)));
      if (cancel) events.push(fake.event('customer.subscription.deleted', fake.cancel(subscriptionId)));
      return { subscriber, events };
    }

    async function finalState(service: TestService, subscriber: { id: string; apiKey: string }) {
      const current = await service.request('GET', '/api/v1/subscriptions/current/api', { token: subscriber.apiKey });
      const { balance, sum, rows } = await ledger(service, subscriber.id);
      const { id: _id, ...subscription } = current.body.subscription ?? {};
      return { plan: await planOf(service, subscriber.id), subscription, balance, sum, rows };
    }

    for (const cancel of [false, true]) {
      test(`subscription events in shuffled orders, and twice, end in one state (${cancel ? 'canceled' : 'plan changed'})`, async () => {
        const states: unknown[] = [];
        const stories = await Promise.all([0, 1, 2, 3].map(() => subscriptionStory(service(), cancel)));
        const orders = permutations(stories[0].events.map((_, i) => i), stories.length);
        for (const [n, story] of stories.entries()) {
          const order = orders[n];
          for (const i of [...order, ...order]) {
            const response = await postEvent(service(), story.events[i]);
            assert.equal(response.status, 200, `order ${order}: ${response.text}`);
          }
          states.push({ order, ...(await finalState(service(), story.subscriber)) });
        }
        const expected = {
          plan: cancel ? 'free' : 'professional',
          subscription: { planId: 'professional', status: cancel ? 'canceled' : 'active', billingCycle: 'monthly', cancelAtPeriodEnd: false },
          balance: 20 + 500 + 500,
          sum: 20 + 500 + 500,
          rows: 3,
        };
        for (const state of states as Array<Record<string, any>>) {
          const { order, subscription, ...rest } = state;
          const { currentPeriodStart, currentPeriodEnd, ...subscriptionRest } = subscription;
          assert.deepEqual({ ...rest, subscription: subscriptionRest }, expected, `order ${order}`);
          assert.ok(currentPeriodStart && currentPeriodEnd, `order ${order}: the period is known`);
        }
      });
    }

    test('a renewal invoice arriving before the checkout event still grants once, to the right account', async () => {
      const { subscriber, events } = await subscriptionStory(service(), false);
      const [completed, firstInvoice, updated, renewalInvoice, changed] = events;
      for (const event of [renewalInvoice, firstInvoice, renewalInvoice, changed, updated, completed]) {
        assert.equal((await postEvent(service(), event)).status, 200);
      }
      await assertLedgerConsistent(service(), subscriber.id, 1020);
      assert.equal(await planOf(service(), subscriber.id), 'professional');
    });

    test('the same verified invoice grants per its own plan, even when the plan changed before it was delivered', async () => {
      const subscriber = await customer(service());
      const checkout = await service().request('POST', '/api/v1/subscriptions/checkout/api', {
        token: subscriber.apiKey,
        body: { planId: 'business', billingCycle: 'yearly' },
      });
      const paid = fake.pay(checkout.body.sessionId);
      const invoice: StripeObject = paid.invoice!;
      fake.changePlan(paid.subscription!.id, 'starter', 'monthly', 900);
      assert.equal((await postEvent(service(), fake.event('invoice.paid', invoice))).status, 200);
      await assertLedgerConsistent(service(), subscriber.id, 20 + 6000 * 12);
      assert.equal(await planOf(service(), subscriber.id), 'starter', 'the plan is the provider’s current one');
    });
  },
  { env: { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: KEYS.secretKey, STRIPE_WEBHOOK_SECRET: KEYS.webhookSecret }, payments: () => fake.provider() },
);
