import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { answer, api, logout, session, subscribe, type Me } from './api.ts';
import { KeysPage, ProfilePage } from './account-pages.tsx';
import { LoginPage, SignupPage } from './auth-pages.tsx';
import { DashboardPage } from './dashboard.tsx';
import { DiscoveryJobPage, DiscoveryPage } from './discovery.tsx';
import { LintPage } from './lint.tsx';
import { PricingPage } from './pricing.tsx';
import { navigate, onLinkClick, useLocation } from './router.ts';
import { matchClientRoute, type ClientRoute } from '../../src/web/client-routes.ts';
import { SitePage, SitesPage } from './sites.tsx';
import { PageHeading } from './ui.tsx';
import { WebhooksPage } from './webhooks.tsx';
import './style.css';

function useSession() {
  const [, setTick] = useState(0);
  useEffect(() => subscribe(() => setTick((t) => t + 1)), []);
  return session;
}

function Home() {
  return (
    <section class="hero">
      <PageHeading>Turn any website into llms.txt</PageHeading>
      <p>Map a site, summarise every page and publish llms.txt and llms-full.txt files that language models can read. Pay only for the pages you process.</p>
      <p class="row">
        <a class="button" href="/signup">
          Create a free account
        </a>
        <a class="button secondary" href="/login">
          Log in
        </a>
        <a href="/pricing">See pricing</a>
      </p>
    </section>
  );
}

/** The signed-in account, loaded again on each page and when `version` changes (null while logged out). */
function useMe(loggedIn: boolean, path: string, version: number) {
  const [me, setMe] = useState<Me | null>(null);
  useEffect(() => {
    if (!loggedIn) return setMe(null);
    answer(api.GET('/api/v1/accounts/me')).then(
      (r) => setMe(r.account),
      () => undefined,
    );
  }, [loggedIn, version, path]);
  return me;
}

function NotFoundPage() {
  return (
    <>
      <PageHeading>Page not found</PageHeading>
      <p>
        <a href="/">Go to the home page</a>
      </p>
    </>
  );
}

/** The site's header: its name and the main navigation, which depends on whether the user is logged in. */
function TopBar({ path, loggedIn }: { path: string; loggedIn: boolean }) {
  const link = (href: string, label: string) => (
    <li>
      <a href={href} aria-current={path === href || (href !== '/' && path.startsWith(href + '/')) ? 'page' : undefined}>
        {label}
      </a>
    </li>
  );
  const doLogout = async () => {
    await logout();
    navigate('/login');
  };
  return (
    <header class="top">
      <a class="brand" href={loggedIn ? "/dashboard" : "/"} aria-label="llms.txt service, home">
        llms.txt
      </a>
      <nav aria-label="Main">
        <ul>
          {loggedIn ? (
            <>
              {link('/dashboard', 'Dashboard')}
              {link('/sites', 'Sites')}
              {link('/discovery', 'Discovery')}
              {link('/lint', 'Check llms.txt')}
              {link('/keys', 'API keys')}
              {link('/webhooks', 'Webhooks')}
              {link('/pricing', 'Pricing')}
              {link('/profile', 'Profile')}
              <li>
                <button type="button" class="linklike" onClick={doLogout}>
                  Log out
                </button>
              </li>
            </>
          ) : (
            <>
              {link('/pricing', 'Pricing')}
              {link('/login', 'Log in')}
              {link('/signup', 'Sign up')}
            </>
          )}
        </ul>
      </nav>
    </header>
  );
}

/** What the whole dashboard says above any page: an outage of the service, a deleted account. */
function Banners({ outage, deleted }: { outage: boolean; deleted: boolean }) {
  return (
    <>
      {outage ? (
        <div class="banner" role="alert">
          <strong>The service is having trouble right now.</strong> Some information could not be loaded; it may be out of date. Please try again in a moment.
        </div>
      ) : null}
      {deleted ? (
        <div class="notice success" role="status">
          Your account was deleted.
        </div>
      ) : null}
    </>
  );
}

/** The page of each client route, given the route's id and what the pages need of the app. */
function routePages(s: typeof session, query: URLSearchParams, me: Me | null, accountChanged: () => void): Record<ClientRoute, (id: string) => preact.JSX.Element> {
  return {
    '/': () => <Home />,
    '/signup': () => <SignupPage />,
    '/login': () => <LoginPage reason={s.endedReason} />,
    '/pricing': () => <PricingPage query={query} plan={me?.plan ?? null} />,
    '/dashboard': () => <DashboardPage query={query} me={me} onAccountChanged={accountChanged} />,
    '/sites': () => <SitesPage query={query} />,
    '/sites/:id': (id) => <SitePage id={id} plan={me?.plan ?? 'free'} />,
    '/discovery': () => <DiscoveryPage />,
    '/discovery/:id': (id) => <DiscoveryJobPage id={id} />,
    '/keys': () => <KeysPage />,
    '/webhooks': () => <WebhooksPage />,
    '/profile': () => <ProfilePage me={me} onSaved={accountChanged} />,
    '/lint': () => <LintPage />,
  };
}

function App() {
  const { path, query } = useLocation();
  const s = useSession();
  const loggedIn = s.loggedIn;
  const [meVersion, setMeVersion] = useState(0);
  const me = useMe(loggedIn, path, meVersion);

  const match = matchClientRoute(path);
  const needsLogin = match !== null && !match.isPublic;
  useEffect(() => {
    if (needsLogin && !loggedIn) navigate('/login', true);
    if (loggedIn && (path === '/login' || path === '/')) navigate('/dashboard', true);
  }, [needsLogin, loggedIn, path]);

  let page;
  if (match && (match.isPublic || loggedIn)) page = routePages(s, query, me, () => setMeVersion((v) => v + 1))[match.route](match.id);
  else if (match) page = null;
  else page = <NotFoundPage />;

  return (
    <div onClick={onLinkClick as any}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <TopBar path={path} loggedIn={loggedIn} />
      <Banners outage={!!s.outage} deleted={!!query.get('deleted')} />
      <main id="main">{page}</main>
      <footer class="foot">
        <a href="/docs">API reference</a>
      </footer>
    </div>
  );
}

render(<App />, document.getElementById('app')!);
