import { useState } from 'preact/hooks';
import { answer, api, formatCents, publicApi, session, type Answer } from './api.ts';
import { ErrorMessage, Notice, PageHeading, useLoad } from './ui.tsx';

type Plan = Answer<'/api/v1/plans', 'get'>['plans'][number];
type Package = Answer<'/api/v1/credits/packages', 'get'>['packages'][number];
type PagesPerCredit = Answer<'/api/v1/plans', 'get'>['pagesPerCredit'];

const pages = (credits: number, perCredit: number) => Math.floor(credits * perCredit).toLocaleString('en');

/** What a credit buys, per method, as the service prices a generation. */
function CreditValue({ perCredit }: { perCredit: PagesPerCredit }) {
  return (
    <section class="card" aria-labelledby="credit-title">
      <h2 id="credit-title">What a credit buys</h2>
      <ul class="plain" data-testid="credit-value">
        <li>
          <strong>Simple</strong>: {perCredit.simple} pages per credit
        </li>
        <li>
          <strong>Enhanced</strong> (AI descriptions): {perCredit.enhanced} pages per credit
        </li>
      </ul>
      <p class="muted">
        A job reserves credits for the most pages you allow; the credits of pages it does not find come back when it ends. The Generate form shows
        the price before you start.
      </p>
    </section>
  );
}

/** "up to 1,000 pages (simple) or 500 (enhanced)" */
function PagesNote({ credits, perCredit }: { credits: number; perCredit: PagesPerCredit | undefined }) {
  if (!perCredit) return null;
  return (
    <p class="muted small">
      up to {pages(credits, perCredit.simple)} pages simple, or {pages(credits, perCredit.enhanced)} enhanced
    </p>
  );
}

const ACTIVE = ['active', 'trialing', 'past_due'];

export function PricingPage({ query, plan }: { query: URLSearchParams; plan: string | null }) {
  const loggedIn = session.loggedIn;
  const [cycle, setCycle] = useState<'monthly' | 'yearly'>('monthly');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const plans = useLoad(() => answer(publicApi.GET('/api/v1/plans')));
  const packages = useLoad(() => answer(publicApi.GET('/api/v1/credits/packages')));
  const current = useLoad(() => (loggedIn ? answer(api.GET('/api/v1/subscriptions/current')) : Promise.resolve({ subscription: null })), [loggedIn]);
  const subscription = current.data?.subscription;
  const subscribed = !!subscription && ACTIVE.includes(subscription.status);
  const origin = location.origin;

  /** Starts a hosted checkout or portal session and goes there. */
  const redirect = async (key: string, start: () => Promise<{ url: string }>) => {
    setError(null);
    setBusy(key);
    try {
      const result = await start();
      location.assign(result.url);
    } catch (err) {
      setError(err);
      setBusy(null);
    }
  };
  const buy = (pkg: Package) =>
    redirect(`pkg-${pkg.id}`, () =>
      answer(
        api.POST('/api/v1/credits/checkout', {
          body: {
            packageId: pkg.packageId,
            successUrl: `${origin}/dashboard?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
            cancelUrl: `${origin}/dashboard?checkout=canceled`,
          },
        }),
      ),
    );
  const subscribe = (p: Plan) =>
    redirect(`plan-${p.id}`, () =>
      answer(
        api.POST('/api/v1/subscriptions/checkout', {
          body: {
            planId: p.id,
            billingCycle: cycle,
            successUrl: `${origin}/dashboard?subscription=success&session_id={CHECKOUT_SESSION_ID}`,
            cancelUrl: `${origin}/pricing?checkout=canceled`,
          },
        }),
      ),
    );
  const manage = () => redirect('portal', () => answer(api.POST('/api/v1/subscriptions/portal', { body: { returnUrl: `${origin}/pricing` } })));

  return (
    <>
      <PageHeading>Pricing</PageHeading>
      {query.get('checkout') === 'canceled' ? <Notice>Checkout canceled. Nothing was charged.</Notice> : null}
      {loggedIn ? (
        <p>
          Your plan: <strong data-testid="current-plan">{subscribed && subscription ? `${subscription.planId} (${subscription.billingCycle})` : plan ?? '…'}</strong>
          {subscription?.cancelAtPeriodEnd ? ' · ends at the end of the period' : ''}
        </p>
      ) : null}
      {loggedIn && subscription ? (
        <p>
          <button type="button" onClick={manage} disabled={busy !== null}>
            Manage billing
          </button>
        </p>
      ) : null}
      <ErrorMessage error={error} />
      {plans.data ? <CreditValue perCredit={plans.data.pagesPerCredit} /> : null}
      <section aria-labelledby="plans-title">
        <h2 id="plans-title">Plans</h2>
        <fieldset class="toggle">
          <legend>Billing cycle</legend>
          <label>
            <input type="radio" name="cycle" value="monthly" checked={cycle === 'monthly'} onChange={() => setCycle('monthly')} /> Monthly
          </label>
          <label>
            <input type="radio" name="cycle" value="yearly" checked={cycle === 'yearly'} onChange={() => setCycle('yearly')} /> Yearly
          </label>
        </fieldset>
        <ErrorMessage error={plans.error} />
        <div class="cards">
          {plans.data?.plans.map((p) => (
            <article class="card plan" key={p.id} aria-labelledby={`plan-${p.id}`}>
              <h3 id={`plan-${p.id}`}>{p.name}</h3>
              <p class="price">
                {cycle === 'monthly' ? formatCents(p.priceCents) : formatCents(p.yearlyPriceCents)}
                <span class="muted"> / {cycle === 'monthly' ? 'month' : 'year'}</span>
              </p>
              <p>{p.monthlyCredits.toLocaleString()} credits every month</p>
              <PagesNote credits={p.monthlyCredits} perCredit={plans.data?.pagesPerCredit} />
              {!loggedIn ? (
                <a class="button" href="/signup">
                  Sign up to subscribe
                </a>
              ) : subscribed ? (
                subscription?.planId === p.id ? (
                  <p class="muted">Your current plan</p>
                ) : (
                  <p class="muted">Change plans in billing</p>
                )
              ) : (
                <button type="button" onClick={() => subscribe(p)} disabled={busy !== null} aria-label={`Subscribe to ${p.name} ${cycle}`}>
                  {busy === `plan-${p.id}` ? 'Opening checkout…' : 'Subscribe'}
                </button>
              )}
            </article>
          ))}
        </div>
      </section>
      <section aria-labelledby="packages-title">
        <h2 id="packages-title">Credit packages</h2>
        <p>One-off credits that never expire.</p>
        <ErrorMessage error={packages.error} />
        <div class="cards">
          {packages.data?.packages.map((pkg) => (
            <article class="card plan" key={pkg.id} aria-labelledby={`pkg-${pkg.id}`}>
              <h3 id={`pkg-${pkg.id}`}>{pkg.name}</h3>
              <p class="price">{formatCents(pkg.priceCents)}</p>
              <p>{pkg.credits.toLocaleString()} credits</p>
              <PagesNote credits={pkg.credits} perCredit={plans.data?.pagesPerCredit} />
              {loggedIn ? (
                <button type="button" onClick={() => buy(pkg)} disabled={busy !== null} aria-label={`Buy ${pkg.name}`}>
                  {busy === `pkg-${pkg.id}` ? 'Opening checkout…' : 'Buy'}
                </button>
              ) : (
                <a class="button" href="/signup">
                  Sign up to buy
                </a>
              )}
            </article>
          ))}
        </div>
      </section>
    </>
  );
}
