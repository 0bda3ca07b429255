/**
 * What the billing tests share: reading the ledger, and a "payer" per provider that plays the
 * customer and the provider (pays a checkout, renews, changes plan, cancels) so the same flow tests
 * run against Stripe (the fake server, events POSTed to the webhook) and the local provider (its
 * hosted pages clicked over HTTP, its own signed events).
 */
import assert from 'node:assert/strict';
import { and, asc, eq } from '../../db/orm.ts';
import Stripe from 'stripe';
import { accounts, localPayEvents, localPayObjects } from '../../db/schema.ts';
import { PLANS, priceFor } from '../../plans/plans.ts';
import type { TestService } from '../../testing/service.ts';
import type { LocalPaymentProvider } from '../local/provider.ts';
import { readLedger } from '../../testing/ledger.ts';
import type { FakeStripeServer } from './fake-stripe-server.ts';

export const WEBHOOK = '/api/v1/webhooks/stripe';

/** The cached balance and the sum of the ledger rows (checked to agree, totals included). */
export const ledger = readLedger;

export async function assertLedgerConsistent(service: TestService, accountId: string, expectedBalance: number): Promise<void> {
  const { balance, sum } = await ledger(service, accountId);
  assert.equal(balance, expectedBalance, 'balance');
  assert.equal(sum, balance, 'SUM(credit_transactions.amount) equals the balance');
}

export async function planOf(service: TestService, accountId: string): Promise<string> {
  const [account] = await service.db.select({ plan: accounts.plan }).from(accounts).where(eq(accounts.id, accountId));
  return account.plan;
}

export async function postEvent(service: TestService, event: { payload: string; headers: Record<string, string> }) {
  return service.request('POST', WEBHOOK, { rawBody: event.payload, headers: event.headers });
}

/** A signed-up account with a session token and its API key. */
export async function customer(service: TestService) {
  const account = await service.createAccount();
  const { accessToken } = await service.login(account.apiKey);
  return { ...account, accessToken };
}

export interface Account {
  id: string;
  apiKey: string;
}

/** Plays the provider's side and the paying customer's. */
export interface Payer {
  readonly name: 'stripe' | 'local';
  /** the customer pays the checkout; its notifications reach the service */
  pay(sessionId: string): Promise<void>;
  /** the subscription's next period begins, with its paid invoice */
  renew(account: Account): Promise<void>;
  /** the customer changes plan in the portal */
  changePlan(account: Account, planId: string, cycle: 'monthly' | 'yearly'): Promise<void>;
  /** the customer cancels in the portal, effective now */
  cancel(account: Account): Promise<void>;
  /** the provider delivers the latest invoice.paid again: as the same event, and as a new event for the same invoice */
  replayLatestInvoice(account: Account): Promise<void>;
}

export function stripePayer(service: () => TestService, fakeStripe: () => FakeStripeServer): Payer {
  const subscriptionOf = async (accountId: string) => {
    const [account] = await service().db.select({ customer: accounts.billingCustomerId }).from(accounts).where(eq(accounts.id, accountId));
    const subscription = [...fakeStripe().subscriptions.values()].reverse().find((s) => s.customer === account.customer && s.status !== 'canceled');
    assert.ok(subscription, 'the account has a live subscription at the fake Stripe');
    return subscription;
  };
  const deliver = async (event: { payload: string; headers: Record<string, string> }) => {
    const response = await postEvent(service(), event);
    assert.equal(response.status, 200, response.text);
  };
  const latestInvoice = new Map<string, { event: ReturnType<FakeStripeServer['event']>; invoice: any }>();
  const invoicePaid = async (accountId: string, invoice: any) => {
    const event = fakeStripe().event('invoice.paid', invoice);
    latestInvoice.set(accountId, { event, invoice });
    await deliver(event);
  };
  return {
    name: 'stripe',
    async pay(sessionId) {
      const { session, invoice } = fakeStripe().pay(sessionId);
      await deliver(fakeStripe().event('checkout.session.completed', session));
      if (invoice) await invoicePaid(session.client_reference_id, invoice);
    },
    async renew({ id: accountId }) {
      const { subscription, invoice } = fakeStripe().renew((await subscriptionOf(accountId)).id);
      await deliver(fakeStripe().event('customer.subscription.updated', subscription));
      await invoicePaid(accountId, invoice);
    },
    async changePlan({ id: accountId }, planId, cycle) {
      const plan = PLANS.find((p) => p.id === planId)!;
      const subscription = fakeStripe().changePlan((await subscriptionOf(accountId)).id, planId, cycle, priceFor(plan, cycle));
      await deliver(fakeStripe().event('customer.subscription.updated', subscription));
    },
    async cancel({ id: accountId }) {
      await deliver(fakeStripe().event('customer.subscription.deleted', fakeStripe().cancel((await subscriptionOf(accountId)).id)));
    },
    async replayLatestInvoice({ id: accountId }) {
      const latest = latestInvoice.get(accountId);
      assert.ok(latest, 'an invoice was paid');
      await deliver(latest.event);
      await deliver(fakeStripe().event('invoice.paid', latest.invoice));
    },
  };
}

export function localPayer(service: () => TestService): Payer {
  const provider = () => service().deps.payments as LocalPaymentProvider;
  const form = async (path: string, fields: Record<string, string> = {}) => {
    const response = await fetch(service().baseUrl + path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
      redirect: 'manual',
    });
    assert.equal(response.status, 303, `${path}: ${await response.text()}`);
    return response.headers.get('location')!;
  };
  /** Opens the billing portal through the API and answers the path of its subscription's forms. */
  const portalSubscription = async ({ apiKey }: Account) => {
    const portal = await service().request('POST', '/api/v1/subscriptions/portal/api', { token: apiKey, body: {} });
    assert.equal(portal.status, 200, portal.text);
    const page = await fetch(portal.body.url);
    assert.equal(page.status, 200);
    const html = await page.text();
    const action = /action="(\/pay\/portal\/[^"]+\/subscriptions\/[^"/]+)\/renew"/.exec(html);
    assert.ok(action, 'the portal offers a live subscription');
    return action[1];
  };
  return {
    name: 'local',
    async pay(sessionId) {
      const location = await form(`/pay/checkout/${sessionId}/complete`);
      assert.ok(location.includes(sessionId), 'the success URL carries the session id');
    },
    async renew(account) {
      await form(`${await portalSubscription(account)}/renew`);
    },
    async changePlan(account, planId, cycle) {
      await form(`${await portalSubscription(account)}/change-plan`, { plan: `${planId}:${cycle}` });
    },
    async cancel(account) {
      await form(`${await portalSubscription(account)}/cancel`, { when: 'now' });
    },
    async replayLatestInvoice({ id: accountId }) {
      const [account] = await service().db.select({ customer: accounts.billingCustomerId }).from(accounts).where(eq(accounts.id, accountId));
      const invoices = await service()
        .db.select({ id: localPayObjects.id })
        .from(localPayObjects)
        .where(and(eq(localPayObjects.customerId, account.customer!), eq(localPayObjects.object, 'invoice')))
        .orderBy(asc(localPayObjects.createdAt));
      const events = await service().db.select().from(localPayEvents).where(eq(localPayEvents.type, 'invoice.paid'));
      const latest = events.find((e) => JSON.parse(e.payload).data.object.id === invoices.at(-1)!.id);
      assert.ok(latest?.deliveredAt, 'the invoice.paid event was delivered');
      const secret = await provider().emulator.webhookSecret();
      const sign = (payload: string) => ({
        payload,
        headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }) },
      });
      assert.equal((await postEvent(service(), sign(latest.payload))).status, 200);
      const copy = JSON.parse(latest.payload);
      copy.id = `${copy.id}_again`;
      assert.equal((await postEvent(service(), sign(JSON.stringify(copy)))).status, 200);
    },
  };
}
