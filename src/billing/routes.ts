import { Type } from 'typebox';
import type { ResolvedAppDeps } from '../app.ts';
import { errors } from '../errors.ts';
import { callerOf } from '../http/authenticate.ts';
import { IsoDate, Nullable } from '../http/schemas.ts';
import { registerTwins } from '../http/twins.ts';
import type { App } from '../http/types.ts';
import type { BillingCycle } from '../plans/plans.ts';
import { openBillingPortal, startCreditCheckout, startSubscriptionCheckout } from './checkout.ts';
import type { BillingDeps } from './deps.ts';
import { fulfilCheckoutSession } from './fulfilment.ts';
import { WebhookSignatureError } from './provider.ts';
import { currentSubscription } from './subscriptions.ts';
import { handleWebhookEvent } from './webhooks.ts';

const RedirectUrl = Type.String({ minLength: 1, maxLength: 2048, description: 'http or https URL; may contain {CHECKOUT_SESSION_ID}' });

const CreditCheckoutBody = Type.Object(
  {
    packageId: Type.String({ minLength: 1, maxLength: 100, description: 'a package id or its short packageId' }),
    successUrl: Type.Optional(RedirectUrl),
    cancelUrl: Type.Optional(RedirectUrl),
  },
  { additionalProperties: false },
);

const SubscriptionCheckoutBody = Type.Object(
  {
    planId: Type.String({ minLength: 1, maxLength: 100, description: 'starter, professional, business or agency' }),
    billingCycle: Type.Union([Type.Literal('monthly'), Type.Literal('yearly')], { default: 'monthly' }),
    successUrl: Type.Optional(RedirectUrl),
    cancelUrl: Type.Optional(RedirectUrl),
  },
  { additionalProperties: false },
);

const PortalBody = Type.Object({ returnUrl: Type.Optional(RedirectUrl) }, { additionalProperties: false });

const CheckoutView = { sessionId: Type.String(), url: Type.String() };

const SubscriptionView = Type.Object({
  id: Type.String(),
  planId: Type.String(),
  status: Type.String(),
  billingCycle: Type.String(),
  currentPeriodStart: Nullable(IsoDate),
  currentPeriodEnd: Nullable(IsoDate),
  cancelAtPeriodEnd: Type.Boolean(),
});

const errorBody = Type.Ref('ErrorBody');

/** A redirect target must be an absolute http(s) URL (`{CHECKOUT_SESSION_ID}` may appear in it). */
function redirectUrl(field: string, value: string | undefined, fallback: string): string {
  if (value === undefined) return fallback;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw errors.validation(`${field} must be an absolute http or https URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw errors.validation(`${field} must be an absolute http or https URL`);
  return value;
}

export async function billingRoutes(app: App, { config, database, clock, payments }: ResolvedAppDeps) {
  const billing = (log: BillingDeps['log']): BillingDeps => ({ db: database.db, payments, clock, log });
  const dashboard = () => `${config.publicUrl}/dashboard`;

  registerTwins(app, '/credits/checkout', {
    method: 'POST',
    schema: {
      tags: ['Credits'],
      summary: "Start buying a credit package on the payment provider's hosted checkout",
      body: CreditCheckoutBody,
      response: {
        200: Type.Object({
          ...CheckoutView,
          package: Type.Object({ id: Type.String(), name: Type.String(), credits: Type.Integer(), priceCents: Type.Integer() }),
        }),
        404: errorBody,
        502: errorBody,
      },
    },
    handler: async (request) => {
      const body = request.body as { packageId: string; successUrl?: string; cancelUrl?: string };
      const urls = {
        successUrl: redirectUrl('successUrl', body.successUrl, `${dashboard()}?checkout=success&session_id={CHECKOUT_SESSION_ID}`),
        cancelUrl: redirectUrl('cancelUrl', body.cancelUrl, `${dashboard()}?checkout=canceled`),
      };
      const started = await startCreditCheckout(billing(request.log), callerOf(request).accountId, body.packageId, urls);
      const { id, name, credits, priceCents } = started.package;
      return { sessionId: started.sessionId, url: started.url, package: { id, name, credits, priceCents } };
    },
  });

  registerTwins(app, '/credits/verify-session/:sessionId', {
    method: 'GET',
    schema: {
      tags: ['Credits'],
      summary: 'Add the credits of a paid checkout now, if the notification has not yet (idempotent)',
      params: Type.Object({ sessionId: Type.String({ minLength: 1, maxLength: 255 }) }),
      response: {
        200: Type.Object({ success: Type.Boolean(), credits: Type.Integer(), sessionId: Type.String() }),
        400: errorBody,
        403: errorBody,
        404: errorBody,
        502: errorBody,
      },
    },
    handler: async (request) => {
      const { sessionId } = request.params as { sessionId: string };
      const fulfilled = await fulfilCheckoutSession(billing(request.log), sessionId, callerOf(request).accountId);
      return { success: true, credits: fulfilled.credits, sessionId: fulfilled.sessionId };
    },
  });

  registerTwins(app, '/subscriptions/checkout', {
    method: 'POST',
    schema: {
      tags: ['Subscriptions'],
      summary: "Start a subscription on the payment provider's hosted checkout",
      body: SubscriptionCheckoutBody,
      response: {
        200: Type.Object({
          ...CheckoutView,
          plan: Type.Object({
            id: Type.String(),
            name: Type.String(),
            monthlyCredits: Type.Integer(),
            priceCents: Type.Integer({ description: 'the price of the chosen billing cycle' }),
          }),
        }),
        400: errorBody,
        502: errorBody,
      },
    },
    handler: async (request) => {
      const body = request.body as { planId: string; billingCycle: BillingCycle; successUrl?: string; cancelUrl?: string };
      const urls = {
        successUrl: redirectUrl('successUrl', body.successUrl, `${dashboard()}?subscription=success&session_id={CHECKOUT_SESSION_ID}`),
        cancelUrl: redirectUrl('cancelUrl', body.cancelUrl, `${config.publicUrl}/pricing`),
      };
      const started = await startSubscriptionCheckout(billing(request.log), callerOf(request).accountId, body.planId, body.billingCycle, urls);
      const { id, name, monthlyCredits } = started.plan;
      return { sessionId: started.sessionId, url: started.url, plan: { id, name, monthlyCredits, priceCents: started.priceCents } };
    },
  });

  registerTwins(app, '/subscriptions/portal', {
    method: 'POST',
    schema: {
      tags: ['Subscriptions'],
      summary: "Open the payment provider's billing portal (plans, cancellation, payment methods, invoices)",
      body: PortalBody,
      response: { 200: Type.Object({ url: Type.String() }), 400: errorBody, 502: errorBody },
    },
    // the body is optional: a bodyless POST is read as `{}`
    preValidation: async (request: { body: unknown }) => {
      request.body ??= {};
    },
    handler: async (request) => {
      const body = request.body as { returnUrl?: string };
      const returnUrl = redirectUrl('returnUrl', body.returnUrl, dashboard());
      return openBillingPortal(billing(request.log), callerOf(request).accountId, returnUrl);
    },
  });

  registerTwins(app, '/subscriptions/current', {
    method: 'GET',
    schema: {
      tags: ['Subscriptions'],
      summary: "The account's subscription: the one giving its plan, else its latest, else null",
      response: { 200: Type.Object({ subscription: Nullable(SubscriptionView) }) },
    },
    handler: async (request) => ({ subscription: await currentSubscription(database.db, callerOf(request).accountId) }),
  });

  // The receiver reads the body as raw bytes (the signature covers them exactly): its own parser,
  // in a plugin of its own so no other route is affected.
  await app.register(async (receiver) => {
    receiver.removeAllContentTypeParsers();
    receiver.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    receiver.post(
      '/webhooks/stripe',
      {
        config: { rateLimit: false },
        schema: {
          tags: ['Payments'],
          summary: 'Payment provider notifications (Stripe-signed: Stripe-Signature header)',
          response: { 200: Type.Object({ received: Type.Boolean() }), 400: errorBody, 502: errorBody },
        },
      },
      async (request) => {
        const header = request.headers['stripe-signature'];
        let event;
        try {
          event = await payments.verifyWebhook((request.body as Buffer | undefined) ?? Buffer.alloc(0), typeof header === 'string' ? header : undefined);
        } catch (error) {
          if (error instanceof WebhookSignatureError) throw errors.invalidWebhookSignature();
          throw error;
        }
        await handleWebhookEvent(billing(request.log), event);
        return { received: true };
      },
    );
  });
}
