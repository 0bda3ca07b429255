/**
 * A small documentation website served on 127.0.0.1 for the service's end-to-end tests:
 * a sitemap (with lastmod), robots.txt, docs, an API reference, a blog and legal pages,
 * plus one page reachable only by links and one page disallowed by robots.txt.
 */
import { routes, startSite, type Route, type TestSite } from '../testing/test-site.ts';

interface Page {
  path: string;
  title: string;
  description?: string;
  body: string;
  lastmod?: string;
  inSitemap?: boolean;
}

const PAGES: Page[] = [
  { path: '/', title: 'Acme Widgets', description: 'Acme Widgets builds programmable widgets for modern factories.', body: '<p>Acme Widgets makes programmable widgets. Read the <a href="/docs/getting-started">getting started guide</a>, the <a href="/docs/configuration">configuration reference</a> and the <a href="/api/widgets">API</a>.</p><p><a href="/blog/launch">Launch post</a> <a href="/legal/privacy">Privacy</a> <a href="/docs/hidden-gem">Hidden gem</a> <a href="/private/secret">Secret</a></p>', lastmod: '2026-10-01' },
  { path: '/docs/getting-started', title: 'Getting started | Acme Widgets', description: 'Install the Acme CLI and connect your first widget in five minutes.', body: '<h1>Getting started</h1><p>Install the Acme command line tool with npm. Then connect your first widget by running acme connect with its serial number. The widget blinks twice when it is paired.</p><pre><code>npm install -g acme-cli</code></pre>', lastmod: '2026-10-02' },
  { path: '/docs/configuration', title: 'Configuration | Acme Widgets', description: 'Every configuration option of a widget, with defaults and examples.', body: '<h1>Configuration</h1><p>Widgets read their configuration from a YAML file. Each option has a default value that suits most factories.</p><table><tr><th>Option</th><th>Default</th></tr><tr><td>speed</td><td>10</td></tr></table>', lastmod: '2026-10-03' },
  { path: '/docs/troubleshooting', title: 'Troubleshooting | Acme Widgets', description: 'Fix the most common widget pairing and network problems.', body: '<h1>Troubleshooting</h1><p>When a widget does not pair, check that it is within ten meters of the hub. Restarting the hub clears most network problems.</p>', lastmod: '2026-10-04' },
  { path: '/api/widgets', title: 'Widgets API | Acme Widgets', description: 'Create, list, update and delete widgets through the REST API.', body: '<h1>Widgets API</h1><p>The widgets endpoint lists every widget of your factory. Send a POST request to create one.</p>', lastmod: '2026-10-05' },
  { path: '/api/events', title: 'Events API | Acme Widgets', description: 'Subscribe to widget events with webhooks and server-sent events.', body: '<h1>Events API</h1><p>Widgets emit events when their state changes. Subscribe with a webhook URL to receive them.</p>', lastmod: '2026-10-06' },
  { path: '/blog/launch', title: 'We launched | Acme Widgets', description: 'The story of how Acme Widgets shipped its first programmable widget.', body: '<h1>We launched</h1><p>After two years of work, the first programmable widget shipped to forty factories this spring.</p>', lastmod: '2026-09-01' },
  { path: '/legal/privacy', title: 'Privacy policy | Acme Widgets', description: 'How Acme Widgets collects, uses and protects personal data.', body: '<h1>Privacy policy</h1><p>We collect only the data needed to run your widgets and never sell it.</p>', lastmod: '2026-01-01' },
  { path: '/docs/hidden-gem', title: 'Hidden gem | Acme Widgets', body: '<h1>Hidden gem</h1><p>This page is reachable only through a link on the home page, so only the crawler finds it. It explains batch pairing of many widgets at once.</p>', inSitemap: false },
];

function html(page: Page): string {
  const description = page.description ? `<meta name="description" content="${page.description}">` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${page.title}</title>${description}</head><body><nav><a href="/">Home</a></nav><main>${page.body}</main><footer>© Acme</footer></body></html>`;
}

export interface DocsSite extends TestSite {
  /** paths listed in the sitemap, in order */
  sitemapPaths: string[];
  /** every page a crawl may list (not the robots-disallowed one) */
  pagePaths: string[];
}

/** `port` 0 (the default) takes any free port. */
export async function startDocsSite({ port = 0 } = {}): Promise<DocsSite> {
  let origin = '';
  const map: Record<string, Route> = {};
  for (const page of PAGES) map[page.path] = html(page);
  map['/private/secret'] = html({ path: '/private/secret', title: 'Secret', body: '<p>Robots.txt forbids this page.</p>' });
  const site = await startSite((req, res) => {
    if (req.url === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end(`User-agent: *\nDisallow: /private/\nSitemap: ${origin}/sitemap.xml\n`);
    }
    if (req.url === '/sitemap.xml') {
      res.writeHead(200, { 'content-type': 'application/xml' });
      const entries = PAGES.filter((p) => p.inSitemap !== false)
        .map((p) => `<url><loc>${origin}${p.path}</loc>${p.lastmod ? `<lastmod>${p.lastmod}</lastmod>` : ''}</url>`)
        .join('');
      return res.end(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries}</urlset>`);
    }
    return routes(map)(req, res);
  }, undefined, port);
  origin = site.origin;
  return {
    ...site,
    sitemapPaths: PAGES.filter((p) => p.inSitemap !== false).map((p) => p.path),
    pagePaths: PAGES.map((p) => p.path),
  };
}
