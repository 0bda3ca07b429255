/**
 * A site whose pages are built in the browser: every path answers the same shell (an empty
 * `<div id="root">` and a script), and the script fetches the page's text and the site's links from
 * a JSON file and writes them in. Its script also tries what a rendered page must not reach: a
 * loopback address on another port, a private address and another site's page (`forbidden`),
 * writing whatever it gets into the page. Hostile pages: an endless script, a page that allocates
 * without end, a redirect loop in script.
 */
import { startSite, type TestSite } from '../testing/test-site.ts';

export interface ScriptSite {
  origin: string;
  /** the paths of its pages, the home page first */
  pagePaths: string[];
  /** paths asked of the site, in order */
  hits: string[];
  /** requests that reached the server the page must not reach (loopback, other port) */
  forbiddenHits: string[];
  /** what a leaked answer from the forbidden server would put into the page */
  forbiddenMarker: string;
  close(): Promise<void>;
}

const PAGES: Record<string, { title: string; text: string }> = {
  '/': { title: 'Orbit Notes', text: 'Orbit Notes is a notebook for teams that plan satellite launches together.' },
  '/guide/install': { title: 'Installing Orbit Notes', text: 'Install the Orbit Notes desktop app from the download page and sign in with your team account.' },
  '/guide/sync': { title: 'Syncing notebooks', text: 'Notebooks sync every few seconds; conflicting edits are kept side by side for review.' },
  '/reference/shortcuts': { title: 'Keyboard shortcuts', text: 'Press Ctrl+K to search every notebook and Ctrl+N to start a new launch plan.' },
};

export const HOSTILE_PATHS = ['/hostile/endless', '/hostile/allocate', '/hostile/redirect-loop'];

const SHELL = (scriptPath: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>Loading…</title></head><body><div id="root"></div><script src="${scriptPath}"></script></body></html>`;

const HOSTILE_SCRIPTS: Record<string, string> = {
  '/hostile/endless.js': 'for (;;) {}',
  '/hostile/allocate.js': 'const kept = []; for (;;) kept.push(new Array(1e6).fill(Math.random()));',
  '/hostile/redirect-loop.js': "location.href = '/hostile/redirect-loop?' + Math.random();",
};

function appScript(forbidden: string[]): string {
  return `
(async () => {
  const root = document.getElementById('root');
  const leaks = await Promise.all(${JSON.stringify(forbidden)}.map((url) =>
    fetch(url).then((r) => r.text()).catch(() => '')));
  const site = await (await fetch('/api/pages.json')).json();
  const page = site.pages[location.pathname] || site.pages['/'];
  document.title = page.title;
  const nav = Object.entries(site.pages).map(([path, p]) => '<li><a href="' + path + '">' + p.title + '</a></li>').join('');
  root.innerHTML = '<nav><ul>' + nav + '</ul></nav><main><h1>' + page.title + '</h1><p>' + page.text + '</p>' +
    leaks.map((leak) => '<p>' + leak + '</p>').join('') + '</main>';
})();`;
}

export async function startScriptSite(): Promise<ScriptSite> {
  const forbiddenMarker = 'FORBIDDEN-ANSWER-7f3a';
  const forbidden: TestSite = await startSite((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' });
    res.end(forbiddenMarker);
  });
  const forbiddenUrls = [`${forbidden.origin}/loopback`, `http://localhost:${forbidden.port}/other-site`, 'http://10.255.255.1/private'];
  const site = await startSite((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/api/pages.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ pages: PAGES }));
    }
    if (path === '/app.js' || HOSTILE_SCRIPTS[path]) {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      return res.end(path === '/app.js' ? appScript(forbiddenUrls) : HOSTILE_SCRIPTS[path]);
    }
    if (path === '/hostile/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      const links = HOSTILE_PATHS.map((p) => `<li><a href="${p}">${p}</a></li>`).join('');
      return res.end(`<!doctype html><html><head><title>Hostile pages</title></head><body><h1>Hostile pages</h1><p>Pages whose scripts never end, allocate without end, or navigate in a loop.</p><ul>${links}</ul></body></html>`);
    }
    if (PAGES[path] || HOSTILE_PATHS.includes(path)) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(SHELL(PAGES[path] ? '/app.js' : `${path}.js`));
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  return {
    origin: site.origin,
    pagePaths: Object.keys(PAGES),
    hits: site.hits,
    forbiddenHits: forbidden.hits,
    forbiddenMarker,
    async close() {
      await site.close();
      await forbidden.close();
    },
  };
}
