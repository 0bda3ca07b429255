import { Type } from 'typebox';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { errors } from '../errors.ts';
import { callerOf } from '../http/authenticate.ts';
import { IdempotencyHeaders } from '../http/idempotency.ts';
import { BODY_LIMITS } from '../http/json-bodies.ts';
import { STRIPE_WEBHOOK_ROUTE } from '../http/paths.ts';
import { errorAnswers, sessionAndKeyRoutes } from '../http/schemas.ts';
import { Nullable } from '../shapes.ts';
import type { App, RoutePlugin } from '../http/types.ts';
import { openBillingPortal, startCreditCheckout, startSubscriptionCheckout } from './checkout.ts';
import type { BillingDeps } from './deps.ts';
import { fulfilCheckoutSession } from './fulfilment.ts';
import { WebhookSignatureError, type PaymentProvider } from './provider.ts';
import { currentSubscription, SubscriptionView } from './subscriptions.ts';
import { applyProviderEvent } from './provider-events.ts';

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

type BillingRoutesDeps = { db: Database; clock: Clock; config: Config; payments: PaymentProvider };

/** What every billing route uses: the billing dependencies for its request, and the dashboard's address. */
interface BillingRouteContext extends BillingRoutesDeps {
  billing: (log: BillingDeps['log']) => BillingDeps;
  dashboard: string;
}

export const billingRoutes: RoutePlugin<BillingRoutesDeps> = async (app, deps) => {
  const { db, payments, clock, config } = deps;
  const context = { ...deps, billing: (log: BillingDeps['log']): BillingDeps => ({ db, payments, clock, log }), dashboard: `${config.publicUrl}/dashboard` };
  creditCheckoutRoutes(app, context);
  creditVerifyRoutes(app, context);
  subscriptionCheckoutRoutes(app, context);
  subscriptionAccountRoutes(app, context);
  await providerEventReceiver(app, context);
};

/** Buying a credit package on the provider's hosted checkout. */
function creditCheckoutRoutes(app: App, { billing, dashboard }: BillingRouteContext): void {
  for (const { url, auth, summary } of sessionAndKeyRoutes(
    '/credits/checkout',
    '/credits/checkout/api',
    "Start buying a credit package on the payment provider's hosted checkout",
  )) {
    app.post(
      url,
      {
        config: { auth, idempotent: true },
        schema: {
          tags: ['Credits'],
          summary,
          body: CreditCheckoutBody,
          headers: IdempotencyHeaders,
          response: {
            200: Type.Object({
              ...CheckoutView,
              package: Type.Object({ id: Type.String(), name: Type.String(), credits: Type.Integer(), priceCents: Type.Integer() }),
            }),
            ...errorAnswers(404, 409, 422, 502),
          },
        },
      },
      async (request) => {
        const { body } = request;
        const urls = {
          successUrl: redirectUrl('successUrl', body.successUrl, `${dashboard}?checkout=success&session_id={CHECKOUT_SESSION_ID}`),
          cancelUrl: redirectUrl('cancelUrl', body.cancelUrl, `${dashboard}?checkout=canceled`),
        };
        const started = await startCreditCheckout(billing(request.log), callerOf(request).accountId, body.packageId, urls);
        const { id, name, credits, priceCents } = started.package;
        return { sessionId: started.sessionId, url: started.url, package: { id, name, credits, priceCents } };
      },
    );
  }
}

/** A paid credit checkout's fulfilment, when the caller comes back before the provider's event. */
function creditVerifyRoutes(app: App, { billing }: BillingRouteContext): void {
  for (const { url, auth, summary } of sessionAndKeyRoutes(
    '/credits/verify-session/:sessionId',
    '/credits/verify-session/:sessionId/api',
    'Add the credits of a paid checkout now, if the notification has not yet (idempotent)',
  )) {
    app.get(
      url,
      {
        config: { auth },
        schema: {
          tags: ['Credits'],
          summary,
          params: Type.Object({ sessionId: Type.String({ minLength: 1, maxLength: 255 }) }),
          response: {
            200: Type.Object({ success: Type.Boolean(), credits: Type.Integer(), sessionId: Type.String() }),
            ...errorAnswers(400, 403, 404, 502),
          },
        },
      },
      async (request) => {
        const fulfilled = await fulfilCheckoutSession(billing(request.log), request.params.sessionId, callerOf(request).accountId);
        return { success: true, credits: fulfilled.credits, sessionId: fulfilled.sessionId };
      },
    );
  }
}

/** Starting a subscription on the provider's hosted checkout. */
function subscriptionCheckoutRoutes(app: App, { billing, dashboard, config }: BillingRouteContext): void {
  for (const { url, auth, summary } of sessionAndKeyRoutes(
    '/subscriptions/checkout',
    '/subscriptions/checkout/api',
    "Start a subscription on the payment provider's hosted checkout",
  )) {
    app.post(
      url,
      {
        config: { auth, idempotent: true },
        schema: {
          tags: ['Subscriptions'],
          summary,
          body: SubscriptionCheckoutBody,
          headers: IdempotencyHeaders,
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
            ...errorAnswers(400, 409, 422, 502),
          },
        },
      },
      async (request) => {
        const { body } = request;
        const urls = {
          successUrl: redirectUrl('successUrl', body.successUrl, `${dashboard}?subscription=success&session_id={CHECKOUT_SESSION_ID}`),
          cancelUrl: redirectUrl('cancelUrl', body.cancelUrl, `${config.publicUrl}/pricing`),
        };
        const started = await startSubscriptionCheckout(billing(request.log), callerOf(request).accountId, body.planId, body.billingCycle, urls);
        const { id, name, monthlyCredits } = started.plan;
        return { sessionId: started.sessionId, url: started.url, plan: { id, name, monthlyCredits, priceCents: started.priceCents } };
      },
    );
  }
}

/** The account's subscription: the provider's portal to manage it, and what it is now. */
function subscriptionAccountRoutes(app: App, { billing, dashboard, db }: BillingRouteContext): void {
  for (const { url, auth, summary } of sessionAndKeyRoutes(
    '/subscriptions/portal',
    '/subscriptions/portal/api',
    "Open the payment provider's billing portal (plans, cancellation, payment methods, invoices)",
  )) {
    app.post(
      url,
      {
        config: { auth },
        schema: { tags: ['Subscriptions'], summary, body: PortalBody, response: { 200: Type.Object({ url: Type.String() }), ...errorAnswers(400, 502) } },
        // the body is optional: a bodyless POST is read as `{}`
        preValidation: async (request) => {
          request.body ??= {};
        },
      },
      async (request) => {
        const returnUrl = redirectUrl('returnUrl', request.body.returnUrl, dashboard);
        return openBillingPortal(billing(request.log), callerOf(request).accountId, returnUrl);
      },
    );
  }

  for (const { url, auth, summary } of sessionAndKeyRoutes(
    '/subscriptions/current',
    '/subscriptions/current/api',
    "The account's subscription: the one giving its plan, else its latest, else null",
  )) {
    app.get(
      url,
      { config: { auth }, schema: { tags: ['Subscriptions'], summary, response: { 200: Type.Object({ subscription: Nullable(SubscriptionView) }) } } },
      async (request) => ({ subscription: await currentSubscription(db, callerOf(request).accountId) }),
    );
  }
}

/** The payment provider's signed events (its webhooks), applied once each (provider-events.ts). */
async function providerEventReceiver(app: App, { billing, payments }: BillingRouteContext): Promise<void> {
  // The receiver reads the body as raw bytes (the signature covers them exactly): its own parser,
  // in a plugin of its own so no other route is affected.
  await app.register(async (receiver) => {
    receiver.removeAllContentTypeParsers();
    receiver.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    // The body is the raw bytes the parser above hands over (none when the request had none).
    receiver.post<{ Body: Buffer | undefined }>(
      STRIPE_WEBHOOK_ROUTE,
      {
        bodyLimit: BODY_LIMITS.paymentEvents,
        config: { rateLimit: false },
        schema: {
          tags: ['Payments'],
          summary: 'Payment provider notifications (Stripe-signed: Stripe-Signature header)',
          response: { 200: Type.Object({ received: Type.Boolean() }), ...errorAnswers(400, 502) },
        },
      },
      async (request) => {
        const header = request.headers['stripe-signature'];
        let event;
        try {
          event = await payments.verifyWebhook(request.body ?? Buffer.alloc(0), typeof header === 'string' ? header : undefined);
        } catch (error) {
          if (error instanceof WebhookSignatureError) throw errors.invalidWebhookSignature();
          throw error;
        }
        await applyProviderEvent(billing(request.log), event);
        return { received: true };
      },
    );
  });
}
