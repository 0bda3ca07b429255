/**
 * The local provider's hosted pages, outside the API prefix: checkout (`/pay/checkout/{id}`, Pay and
 * Cancel) and the billing portal (`/pay/portal/{id}`: change plan, cancel, resume, emulate a
 * renewal, invoices). Plain HTML forms, so they work without JavaScript and with a keyboard.
 */
import formbody from '@fastify/formbody';
import type { FastifyReply } from 'fastify';
import type { App } from '../../http/types.ts';
import { planName, PLANS, priceFor, type BillingCycle } from '../../plans/plans.ts';
import type { LocalObject, LocalStripe } from './emulator.ts';

const hidden = { hide: true } as const;

export async function registerLocalPages(app: App, provider: LocalStripe): Promise<void> {
  await app.register(async (pages) => {
    await pages.register(formbody);
    checkoutRoutes(pages, provider);
    portalRoutes(pages, provider);
  });
}

/** The checkout page, and its Pay and Cancel buttons. */
function checkoutRoutes(pages: App, provider: LocalStripe) {
  pages.get<{ Params: { sessionId: string } }>('/pay/checkout/:sessionId', { schema: hidden }, async (request, reply) => {
    const session = await provider.find(request.params.sessionId, 'checkout.session');
    if (!session) return notFound(reply, 'This checkout does not exist.');
    const customer = await provider.find(session.customer, 'customer');
    return html(reply, 200, 'Checkout', checkoutPage(session, customer));
  });

  pages.post<{ Params: { sessionId: string } }>('/pay/checkout/:sessionId/complete', { schema: hidden }, async (request, reply) => {
    const session = await provider.completeCheckout(request.params.sessionId);
    if (!session) return notFound(reply, 'This checkout does not exist.');
    return reply.redirect(successUrl(session), 303);
  });

  pages.post<{ Params: { sessionId: string } }>('/pay/checkout/:sessionId/cancel', { schema: hidden }, async (request, reply) => {
    // Like Stripe's back link: the session stays open and unpaid until it expires.
    const session = await provider.find(request.params.sessionId, 'checkout.session');
    if (!session) return notFound(reply, 'This checkout does not exist.');
    return reply.redirect(session.cancel_url, 303);
  });

}

/** The billing portal, and what it does to a subscription. */
function portalRoutes(pages: App, provider: LocalStripe) {
  pages.get<{ Params: { portalId: string } }>('/pay/portal/:portalId', { schema: hidden }, async (request, reply) => {
    const portal = await provider.find(request.params.portalId, 'billing_portal.session');
    if (!portal) return notFound(reply, 'This billing portal link does not exist.');
    const [customer, subscriptions, invoices] = await Promise.all([
      provider.find(portal.customer, 'customer'),
      provider.listForCustomer(portal.customer, 'subscription'),
      provider.listForCustomer(portal.customer, 'invoice'),
    ]);
    return html(reply, 200, 'Billing portal', portalPage(portal, customer, subscriptions, invoices));
  });

  type PortalAction = { Params: { portalId: string; subscriptionId: string }; Body: Record<string, string> | undefined };
  const portalAction = (
    action: string,
    run: (subscriptionId: string, body: Record<string, string>) => Promise<unknown>,
  ) =>
    pages.post<PortalAction>(`/pay/portal/:portalId/subscriptions/:subscriptionId/${action}`, { schema: hidden }, async (request, reply) => {
      const { portalId, subscriptionId } = request.params;
      const portal = await provider.find(portalId, 'billing_portal.session');
      const subscription = await provider.find(subscriptionId, 'subscription');
      if (!portal || !subscription || subscription.customer !== portal.customer) {
        return notFound(reply, 'This subscription is not part of this billing portal.');
      }
      const done = await run(subscriptionId, request.body ?? {});
      if (done === false) return html(reply, 400, 'Billing portal', `<h1>Billing portal</h1><p role="alert">That choice is not available.</p>${backTo(portalId)}`);
      return reply.redirect(`/pay/portal/${portalId}`, 303);
    });

  portalAction('change-plan', async (subscriptionId, body) => {
    const [planId, cycle] = String(body.plan ?? '').split(':');
    if (!PLANS.some((p) => p.id === planId) || (cycle !== 'monthly' && cycle !== 'yearly')) return false;
    return provider.changePlan(subscriptionId, planId, cycle);
  });
  portalAction('cancel', async (subscriptionId, body) => {
    if (body.when !== 'now' && body.when !== 'period_end') return false;
    return provider.cancelSubscriptionAt(subscriptionId, body.when);
  });
  portalAction('resume', (subscriptionId) => provider.resumeSubscription(subscriptionId));
  portalAction('renew', (subscriptionId) => provider.renewSubscription(subscriptionId));
}

function successUrl(session: LocalObject): string {
  return String(session.success_url).replaceAll('{CHECKOUT_SESSION_ID}', session.id);
}

function html(reply: FastifyReply, status: number, title: string, body: string) {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; base-uri 'none'; frame-ancestors 'none'")
    .header('referrer-policy', 'no-referrer')
    .send(layout(title, body));
}

function notFound(reply: FastifyReply, message: string) {
  return html(reply, 404, 'Not found', `<h1>Not found</h1><p>${escape(message)}</p>`);
}

const escape = (value: unknown) =>
  String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const money = (cents: number) => (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
const day = (unixSeconds: number | null | undefined) => (unixSeconds ? new Date(unixSeconds * 1000).toISOString().slice(0, 10) : '—');

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · llms.txt (local payments)</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
  body { margin: 0; padding: 2rem 1rem; background: Canvas; color: CanvasText; }
  main { max-width: 34rem; margin: 0 auto; }
  .notice { border: 2px dashed #b45309; padding: .5rem .75rem; border-radius: .5rem; }
  .card { border: 1px solid #8888; border-radius: .75rem; padding: 1rem 1.25rem; margin: 1rem 0; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
  dt { font-weight: 600; } dd { margin: 0; }
  form { display: inline-block; margin: .25rem .5rem .25rem 0; }
  button { font: inherit; padding: .6rem 1.2rem; border-radius: .5rem; border: 1px solid #1d4ed8; background: #1d4ed8; color: #fff; cursor: pointer; }
  button.secondary { background: transparent; color: inherit; border-color: #888; }
  button:focus-visible, a:focus-visible, select:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
  select { font: inherit; padding: .5rem; }
  table { width: 100%; border-collapse: collapse; } th, td { text-align: left; padding: .25rem .5rem; border-bottom: 1px solid #8884; }
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

const notice = `<p class="notice" role="note"><strong>Local test payments.</strong> No card is charged: this page stands in for the payment provider's hosted page.</p>`;

function checkoutPage(session: LocalObject, customer: LocalObject | null): string {
  const item = session.line_items.data[0];
  const interval = item.price.recurring?.interval;
  const price = `${money(item.amount_total)}${interval ? ` per ${interval}` : ''}`;
  const summary = `<section class="card" aria-labelledby="summary">
<h2 id="summary">Order summary</h2>
<dl>
  <dt>Item</dt><dd>${escape(item.description)}</dd>
  <dt>Price</dt><dd>${escape(price)}</dd>
  ${customer?.email ? `<dt>Billed to</dt><dd>${escape(customer.email)}</dd>` : ''}
</dl>
</section>`;
  if (session.status === 'complete') {
    return `<h1>Checkout</h1>${notice}${summary}<p role="status">This checkout is already paid.</p><p><a href="${escape(successUrl(session))}">Continue</a></p>`;
  }
  if (session.status !== 'open') return `<h1>Checkout</h1>${notice}${summary}<p role="status">This checkout has expired.</p>`;
  return `<h1>Checkout</h1>
${notice}
${summary}
<form method="post" action="/pay/checkout/${escape(session.id)}/complete">
  <button type="submit">Pay ${escape(price)}</button>
</form>
<form method="post" action="/pay/checkout/${escape(session.id)}/cancel">
  <button type="submit" class="secondary">Cancel</button>
</form>`;
}

function backTo(portalId: string): string {
  return `<p><a href="/pay/portal/${escape(portalId)}">Back to the billing portal</a></p>`;
}

function portalPage(portal: LocalObject, customer: LocalObject | null, subscriptions: LocalObject[], invoices: LocalObject[]): string {
  const base = `/pay/portal/${escape(portal.id)}/subscriptions`;
  const subscriptionCards = subscriptions.map((subscription, index) => {
    const item = subscription.items.data[0];
    const cycle: BillingCycle = item.price.recurring?.interval === 'year' ? 'yearly' : 'monthly';
    const current = `${subscription.metadata?.planId}:${cycle}`;
    const heading = `subscription-${index}`;
    const facts = `<dl>
  <dt>Plan</dt><dd>${escape(planName(subscription.metadata?.planId, cycle))}</dd>
  <dt>Price</dt><dd>${escape(money(item.price.unit_amount))} per ${escape(item.price.recurring?.interval)}</dd>
  <dt>Status</dt><dd>${escape(subscription.status)}${subscription.cancel_at_period_end ? ' (cancels at the end of the period)' : ''}</dd>
  <dt>Current period</dt><dd>${day(item.current_period_start)} to ${day(item.current_period_end)}</dd>
</dl>`;
    if (subscription.status === 'canceled') {
      return `<section class="card" aria-labelledby="${heading}"><h3 id="${heading}">Subscription (ended ${day(subscription.ended_at)})</h3>${facts}</section>`;
    }
    const action = `${base}/${escape(subscription.id)}`;
    const options = PLANS.flatMap((plan) =>
      (['monthly', 'yearly'] as const).map((c) => {
        const value = `${plan.id}:${c}`;
        return `<option value="${value}"${value === current ? ' selected' : ''}>${escape(plan.name)}, ${c}: ${money(priceFor(plan, c))}</option>`;
      }),
    ).join('');
    const cancelForms = subscription.cancel_at_period_end
      ? `<form method="post" action="${action}/resume"><button type="submit" class="secondary">Resume subscription</button></form>`
      : `<form method="post" action="${action}/cancel"><input type="hidden" name="when" value="period_end"><button type="submit" class="secondary">Cancel at period end</button></form>`;
    return `<section class="card" aria-labelledby="${heading}">
<h3 id="${heading}">Subscription</h3>
${facts}
<form method="post" action="${action}/change-plan">
  <label for="plan-${index}">Change plan</label>
  <select id="plan-${index}" name="plan">${options}</select>
  <button type="submit">Change plan</button>
</form>
<div>
${cancelForms}
<form method="post" action="${action}/cancel"><input type="hidden" name="when" value="now"><button type="submit" class="secondary">Cancel now</button></form>
</div>
<form method="post" action="${action}/renew" aria-describedby="renew-help-${index}"><button type="submit" class="secondary">Emulate renewal</button></form>
<p id="renew-help-${index}"><small>Emulation only: ends the current period now, as if the next invoice were paid.</small></p>
</section>`;
  });
  const invoiceRows = invoices
    .map((i) => `<tr><td>${day(i.created)}</td><td>${escape(i.description)}</td><td>${escape(money(i.amount_paid))}</td><td>${escape(i.status)}</td></tr>`)
    .join('');
  return `<h1>Billing portal</h1>
${notice}
${customer?.email ? `<p>Signed in as ${escape(customer.email)}</p>` : ''}
<h2>Subscriptions</h2>
${subscriptionCards.join('') || '<p>No subscriptions.</p>'}
<h2>Invoices</h2>
${invoiceRows ? `<table><thead><tr><th scope="col">Date</th><th scope="col">Description</th><th scope="col">Amount</th><th scope="col">Status</th></tr></thead><tbody>${invoiceRows}</tbody></table>` : '<p>No invoices yet.</p>'}
<p><a href="${escape(portal.return_url)}">Back to llms.txt</a></p>`;
}
