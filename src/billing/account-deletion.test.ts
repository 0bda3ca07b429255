/**
 * Deleting an account cancels its live subscriptions at the payment provider first, through real
 * HTTP, against Stripe (the SDK talking to the fake Stripe API) and the local provider, on both
 * databases. A provider failure is 502 and deletes nothing, so the user can retry.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { count, eq, or, sql, type SQL } from '../db/orm.ts';
import type { AppDeps } from '../deps.ts';
import { accounts, apiKeys, creditTransactions, localPayEvents, localPayObjects, subscriptions } from '../db/schema.ts';
import { errors } from '../errors.ts';
import { describeOnEachDatabase, type TestService } from '../testing/service.ts';
import { LocalPaymentProvider } from './local/provider.ts';
import { PaymentProviderError } from './provider.ts';
import { FakeStripeServer } from './testing/fake-stripe-server.ts';
import { customer, localPayer, stripePayer, type Payer } from './testing/billing-test-kit.ts';

const KEYS = { secretKey: 'sk_test_deletion', webhookSecret: 'whsec_deletion' };
let fake: FakeStripeServer;
before(async () => {
  fake = await FakeStripeServer.start(KEYS);
});
after(async () => {
  await fake?.close();
});

/** The local provider with a call counter and an outage switch for `cancelSubscription`. */
class ObservedLocalProvider extends LocalPaymentProvider {
  cancelCalls = 0;
  down = false;

  override async cancelSubscription(id: string): Promise<void> {
    this.cancelCalls++;
    if (this.down) throw new PaymentProviderError('local provider unavailable (test)');
    return super.cancelSubscription(id);
  }
}

/** What the tests need to see and do on the provider's side. */
interface ProviderSide {
  payer: Payer;
  /** the subscription's status as the provider holds it */
  statusAtProvider(subscriptionId: string): Promise<string | undefined>;
  /** what the provider holds of a subscription once its account is deleted: Stripe keeps it canceled, the local provider forgets it */
  statusAfterDeletion: 'canceled' | undefined;
  /** cancellation calls received so far */
  cancelCalls(): number;
  /** runs `body` with the provider's cancellation failing */
  whileDown(body: () => Promise<void>): Promise<void>;
}

function accountDeletion(service: () => TestService, side: ProviderSide) {
  const deleteAccount = (apiKey: string) => service().request('DELETE', '/api/v1/accounts', { token: apiKey });
  const rowsOf = async (accountId: string) => ({
    accounts: (await service().db.select().from(accounts).where(eq(accounts.id, accountId))).length,
    apiKeys: (await service().db.select().from(apiKeys).where(eq(apiKeys.accountId, accountId))).length,
    subscriptions: (await service().db.select().from(subscriptions).where(eq(subscriptions.accountId, accountId))).length,
  });

  /** A signed-up account with a paid, active `starter` subscription. */
  async function subscriber() {
    const account = await customer(service());
    const checkout = await service().request('POST', '/api/v1/subscriptions/checkout/api', { token: account.apiKey, body: { planId: 'starter' } });
    assert.equal(checkout.status, 200, checkout.text);
    await side.payer.pay(checkout.body.sessionId);
    const [row] = await service().db.select().from(subscriptions).where(eq(subscriptions.accountId, account.id));
    assert.equal(row?.status, 'active');
    assert.equal(await side.statusAtProvider(row.providerSubscriptionId), 'active');
    return { ...account, subscriptionId: row.providerSubscriptionId };
  }

  test('cancels the live subscription at the provider, then deletes the account and its rows', async () => {
    const leaving = await subscriber();
    const calls = side.cancelCalls();
    const res = await deleteAccount(leaving.apiKey);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { success: true, message: 'Account deleted successfully' });
    assert.equal(side.cancelCalls() - calls, 1);
    assert.equal(await side.statusAtProvider(leaving.subscriptionId), side.statusAfterDeletion);
    assert.deepEqual(await rowsOf(leaving.id), { accounts: 0, apiKeys: 0, subscriptions: 0 });
    assert.equal((await service().request('GET', '/api/v1/accounts/me', { token: leaving.apiKey })).status, 401);
  });

  test('answers 502 and deletes nothing when the provider fails; a retry then succeeds', async () => {
    const staying = await subscriber();
    await side.whileDown(async () => {
      const res = await deleteAccount(staying.apiKey);
      assert.equal(res.status, 502, res.text);
      assert.deepEqual(res.body, { message: errors.paymentProviderUnavailable().message });
    });
    assert.deepEqual(await rowsOf(staying.id), { accounts: 1, apiKeys: 1, subscriptions: 1 });
    const [row] = await service().db.select().from(subscriptions).where(eq(subscriptions.accountId, staying.id));
    assert.equal(row.status, 'active');
    assert.equal(await side.statusAtProvider(staying.subscriptionId), 'active');
    const me = await service().request('GET', '/api/v1/accounts/me', { token: staying.apiKey });
    assert.equal(me.status, 200, 'the API key still works');
    assert.equal(me.body.account.plan, 'starter');

    const retry = await deleteAccount(staying.apiKey);
    assert.equal(retry.status, 200, retry.text);
    assert.equal(await side.statusAtProvider(staying.subscriptionId), side.statusAfterDeletion);
    assert.deepEqual(await rowsOf(staying.id), { accounts: 0, apiKeys: 0, subscriptions: 0 });
  });

  test('makes no provider call for an account without a subscription, or with only a canceled one', async () => {
    const plain = await customer(service());
    const canceled = await subscriber();
    await side.payer.cancel(canceled);
    const [row] = await service().db.select().from(subscriptions).where(eq(subscriptions.accountId, canceled.id));
    assert.equal(row.status, 'canceled');

    const calls = side.cancelCalls();
    for (const account of [plain, canceled]) {
      const res = await deleteAccount(account.apiKey);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(await rowsOf(account.id), { accounts: 0, apiKeys: 0, subscriptions: 0 });
    }
    assert.equal(side.cancelCalls(), calls, 'no cancellation was asked of the provider');
  });
}

describeOnEachDatabase(
  'Account deletion through Stripe (fake Stripe API)',
  (service) => {
    accountDeletion(service, {
      payer: stripePayer(service, () => fake),
      statusAtProvider: async (id) => fake.subscriptions.get(id)?.status,
      statusAfterDeletion: 'canceled',
      cancelCalls: () => fake.requests.filter((r) => r.method === 'DELETE' && r.path.startsWith('/v1/subscriptions/')).length,
      async whileDown(body) {
        fake.fail('error', { path: /^\/v1\/subscriptions\// });
        try {
          await body();
        } finally {
          fake.recover();
        }
      },
    });

    test('the Stripe provider treats an unknown or already canceled subscription as canceled', async () => {
      const stripe = fake.provider();
      await stripe.cancelSubscription('sub_never_existed');
      const leaving = await customer(service());
      const checkout = await service().request('POST', '/api/v1/subscriptions/checkout/api', { token: leaving.apiKey, body: { planId: 'starter' } });
      const { subscription } = fake.pay(checkout.body.sessionId);
      await stripe.cancelSubscription(subscription!.id);
      await stripe.cancelSubscription(subscription!.id);
      assert.equal(fake.subscriptions.get(subscription!.id)?.status, 'canceled');
    });
  },
  { env: { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: KEYS.secretKey, STRIPE_WEBHOOK_SECRET: KEYS.webhookSecret }, payments: () => fake.provider() },
);

describeOnEachDatabase(
  'Account deletion through the local provider',
  (service) => {
    const provider = () => service().deps.payments as ObservedLocalProvider;
    accountDeletion(service, {
      payer: localPayer(service),
      statusAtProvider: async (id) => (await provider().emulator.find(id, 'subscription'))?.status,
      statusAfterDeletion: undefined,
      cancelCalls: () => provider().cancelCalls,
      async whileDown(body) {
        provider().down = true;
        try {
          await body();
        } finally {
          provider().down = false;
        }
      },
    });

    test("forgets the account's customer and all of its records; an open checkout of the deleted account answers 404 and grants nothing", async () => {
      const leaving = await customer(service());
      const subscription = await service().request('POST', '/api/v1/subscriptions/checkout/api', { token: leaving.apiKey, body: { planId: 'starter' } });
      assert.equal(subscription.status, 200, subscription.text);
      await localPayer(service).pay(subscription.body.sessionId);
      const open = await service().request('POST', '/api/v1/credits/checkout/api', { token: leaving.apiKey, body: { packageId: 'small' } });
      assert.equal(open.status, 200, open.text);
      const held = async () => {
        const mentions = (text: SQL) => or(...[leaving.id, leaving.email].map((value) => sql`strpos(${text}, ${value}) > 0`));
        const [objects] = await service().db.select({ n: count() }).from(localPayObjects).where(mentions(sql`${localPayObjects.data}::text`));
        const [events] = await service().db.select({ n: count() }).from(localPayEvents).where(mentions(sql`${localPayEvents.payload}`));
        return { objects: objects.n, events: events.n };
      };
      const before = await held();
      assert.ok(before.objects >= 4 && before.events >= 2, `the provider holds the customer, its sessions, subscription and invoice, and their events: ${JSON.stringify(before)}`);

      const deleted = await service().request('DELETE', '/api/v1/accounts', { token: leaving.apiKey });
      assert.equal(deleted.status, 200, deleted.text);
      assert.deepEqual(await held(), { objects: 0, events: 0 });
      const credits = async () => (await service().db.select({ n: count() }).from(creditTransactions))[0].n;
      const creditsBefore = await credits();
      const page = await fetch(open.body.url);
      assert.equal(page.status, 404);
      const paid = await fetch(`${service().baseUrl}/pay/checkout/${open.body.sessionId}/complete`, { method: 'POST', redirect: 'manual' });
      assert.equal(paid.status, 404);
      assert.match(await paid.text(), /This checkout does not exist\./);
      assert.equal(await credits(), creditsBefore, 'no credit granted to anyone');
    });
  },
  {
    payments: (deps: AppDeps) =>
      new ObservedLocalProvider({ db: deps.database.db, config: deps.config, clock: deps.clock }),
  },
);
