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
type Cycle = 'monthly' | 'yearly';

/** Starts a hosted checkout or portal session and goes there: which one is opening (its key), and the error if it failed. */
function useRedirect() {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<string | null>(null);
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
  return { error, busy, redirect };
}

/** The checkout sessions and the billing portal the page opens, each returning to the dashboard or here. */
function checkouts(redirect: ReturnType<typeof useRedirect>['redirect'], cycle: Cycle) {
  const origin = location.origin;
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
  return { buy, subscribe, manage };
}

type Subscription = Answer<'/api/v1/subscriptions/current', 'get'>['subscription'];

/** The signed-in user's plan, with "Manage billing" once they have a subscription. */
function CurrentPlan({ subscription, subscribed, plan, busy, onManage }: { subscription: Subscription | undefined; subscribed: boolean; plan: string | null; busy: boolean; onManage: () => void }) {
  return (
    <>
      <p>
        Your plan: <strong data-testid="current-plan">{subscribed && subscription ? `${subscription.planId} (${subscription.billingCycle})` : plan ?? '…'}</strong>
        {subscription?.cancelAtPeriodEnd ? ' · ends at the end of the period' : ''}
      </p>
      {subscription ? (
        <p>
          <button type="button" onClick={onManage} disabled={busy}>
            Manage billing
          </button>
        </p>
      ) : null}
    </>
  );
}

function CycleToggle({ cycle, onChange }: { cycle: Cycle; onChange: (cycle: Cycle) => void }) {
  return (
    <fieldset class="toggle">
      <legend>Billing cycle</legend>
      <label>
        <input type="radio" name="cycle" value="monthly" checked={cycle === 'monthly'} onChange={() => onChange('monthly')} /> Monthly
      </label>
      <label>
        <input type="radio" name="cycle" value="yearly" checked={cycle === 'yearly'} onChange={() => onChange('yearly')} /> Yearly
      </label>
    </fieldset>
  );
}

/** Who may subscribe to a plan: a visitor signs up first, a subscriber changes plans in billing. */
type Subscriber = { loggedIn: boolean; subscribed: boolean; currentPlanId: string | undefined; busy: string | null };

function PlanCard({ plan: p, cycle, perCredit, who, onSubscribe }: { plan: Plan; cycle: Cycle; perCredit: PagesPerCredit | undefined; who: Subscriber; onSubscribe: (p: Plan) => void }) {
  return (
    <article class="card plan" aria-labelledby={`plan-${p.id}`}>
      <h3 id={`plan-${p.id}`}>{p.name}</h3>
      <p class="price">
        {cycle === 'monthly' ? formatCents(p.priceCents) : formatCents(p.yearlyPriceCents)}
        <span class="muted"> / {cycle === 'monthly' ? 'month' : 'year'}</span>
      </p>
      <p>{p.monthlyCredits.toLocaleString()} credits every month</p>
      <PagesNote credits={p.monthlyCredits} perCredit={perCredit} />
      {!who.loggedIn ? (
        <a class="button" href="/signup">
          Sign up to subscribe
        </a>
      ) : who.subscribed ? (
        who.currentPlanId === p.id ? (
          <p class="muted">Your current plan</p>
        ) : (
          <p class="muted">Change plans in billing</p>
        )
      ) : (
        <button type="button" onClick={() => onSubscribe(p)} disabled={who.busy !== null} aria-label={`Subscribe to ${p.name} ${cycle}`}>
          {who.busy === `plan-${p.id}` ? 'Opening checkout…' : 'Subscribe'}
        </button>
      )}
    </article>
  );
}

function PackageCard({ pkg, perCredit, loggedIn, busy, onBuy }: { pkg: Package; perCredit: PagesPerCredit | undefined; loggedIn: boolean; busy: string | null; onBuy: (pkg: Package) => void }) {
  return (
    <article class="card plan" aria-labelledby={`pkg-${pkg.id}`}>
      <h3 id={`pkg-${pkg.id}`}>{pkg.name}</h3>
      <p class="price">{formatCents(pkg.priceCents)}</p>
      <p>{pkg.credits.toLocaleString()} credits</p>
      <PagesNote credits={pkg.credits} perCredit={perCredit} />
      {loggedIn ? (
        <button type="button" onClick={() => onBuy(pkg)} disabled={busy !== null} aria-label={`Buy ${pkg.name}`}>
          {busy === `pkg-${pkg.id}` ? 'Opening checkout…' : 'Buy'}
        </button>
      ) : (
        <a class="button" href="/signup">
          Sign up to buy
        </a>
      )}
    </article>
  );
}

export function PricingPage({ query, plan }: { query: URLSearchParams; plan: string | null }) {
  const loggedIn = session.loggedIn;
  const [cycle, setCycle] = useState<Cycle>('monthly');
  const { error, busy, redirect } = useRedirect();
  const plans = useLoad(() => answer(publicApi.GET('/api/v1/plans')));
  const packages = useLoad(() => answer(publicApi.GET('/api/v1/credits/packages')));
  const current = useLoad(() => (loggedIn ? answer(api.GET('/api/v1/subscriptions/current')) : Promise.resolve({ subscription: null })), [loggedIn]);
  const subscription = current.data?.subscription;
  const subscribed = !!subscription && ACTIVE.includes(subscription.status);
  const { buy, subscribe, manage } = checkouts(redirect, cycle);
  const perCredit = plans.data?.pagesPerCredit;
  const who: Subscriber = { loggedIn, subscribed, currentPlanId: subscription?.planId, busy };

  return (
    <>
      <PageHeading>Pricing</PageHeading>
      {query.get('checkout') === 'canceled' ? <Notice>Checkout canceled. Nothing was charged.</Notice> : null}
      {loggedIn ? <CurrentPlan subscription={subscription} subscribed={subscribed} plan={plan} busy={busy !== null} onManage={manage} /> : null}
      <ErrorMessage error={error} />
      {perCredit ? <CreditValue perCredit={perCredit} /> : null}
      <section aria-labelledby="plans-title">
        <h2 id="plans-title">Plans</h2>
        <CycleToggle cycle={cycle} onChange={setCycle} />
        <ErrorMessage error={plans.error} />
        <div class="cards">
          {plans.data?.plans.map((p) => <PlanCard key={p.id} plan={p} cycle={cycle} perCredit={perCredit} who={who} onSubscribe={subscribe} />)}
        </div>
      </section>
      <section aria-labelledby="packages-title">
        <h2 id="packages-title">Credit packages</h2>
        <p>One-off credits that never expire.</p>
        <ErrorMessage error={packages.error} />
        <div class="cards">
          {packages.data?.packages.map((pkg) => <PackageCard key={pkg.id} pkg={pkg} perCredit={perCredit} loggedIn={loggedIn} busy={busy} onBuy={buy} />)}
        </div>
      </section>
    </>
  );
}
