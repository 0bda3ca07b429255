// The websites and webhook receivers of the isolation benchmark (bench/isolation.ts), in a
// process of their own so that neither the service nor the load generator slows them down:
// `node bench/isolation-sites.ts`. Prints one JSON line of origins once every server listens;
// runs until killed.
import { page, routes, startSite, type Handler } from '../src/testing/test-site.ts';

/** How long a slow page takes to answer. */
const SLOW_MS = 5000;
/** Pages of each site whose scheduled check the benchmark slows down. */
const CHECKED_PAGES = 8;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const notFound = { status: 404, body: '' };
const noRobots = { '/robots.txt': notFound, '/sitemap.xml': notFound };

/**
 * A page of `bytes` of prose no other page repeats (words of random syllables), so that none of it
 * can pass for the site's boilerplate. Pages are kept under the markdown cut (MAX_MARKDOWN_CHARS):
 * llms-full.txt grows with their number.
 */
function bigPage(index: number, bytes: number): string {
  const syllables = ['ka', 'lo', 'mi', 'ren', 'tu', 'sa', 'vel', 'dor', 'pi', 'ne', 'qua', 'sto', 'bri', 'fen', 'ga', 'hu'];
  let seed = index + 1;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) >> 8;
  const word = () => Array.from({ length: 2 + (next() % 3) }, () => syllables[next() % syllables.length]).join('');
  const paragraphs: string[] = [];
  for (let size = 0; size < bytes; ) {
    const sentence = Array.from({ length: 60 }, word).join(' ');
    paragraphs.push(`<p>${sentence}.</p>`);
    size += sentence.length + 8;
  }
  return `<!doctype html><html><head><title>Big page ${index}</title></head><body><main><h1>Big page ${index}</h1>${paragraphs.join('\n')}</main></body></html>`;
}

/** Pages that answer after SLOW_MS, each linking to ten more: a crawl of it never runs out. */
const slowSite: Handler = async (req, res) => {
  if (req.url === '/robots.txt' || req.url?.startsWith('/sitemap')) {
    res.writeHead(404);
    return res.end();
  }
  await sleep(SLOW_MS);
  // Links below the page's own path: a crawl started at /3/ keeps to /3/….
  const path = req.url ?? '/';
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(page(`Slow ${path}`, Array.from({ length: 10 }, (_, i) => `${path}${i}/`)));
};

let checksSlow = false;

/** A site of CHECKED_PAGES pages, answering after SLOW_MS once the benchmark asks for slow checks. */
function checkedSite(name: string): Handler {
  const links = Array.from({ length: CHECKED_PAGES - 1 }, (_, i) => `/page-${i}`);
  const serve = routes({ ...noRobots, '/': page(`Checked ${name}`, links), ...Object.fromEntries(links.map((link) => [link, page(`Checked ${name} ${link}`, ['/'])])) });
  return async (req, res) => {
    if (checksSlow && !req.url?.startsWith('/robots') && !req.url?.startsWith('/sitemap')) await sleep(SLOW_MS);
    return serve(req, res);
  };
}

const arrivals: Record<string, number[]> = {};

/**
 * A webhook receiver and the benchmark's controls: `/hook/NAME` answers 204 and notes when it was
 * called, `GET /arrivals` lists those times (ms since the epoch) by name, `POST /slow-checks`
 * slows the checked sites down.
 */
const receiver: Handler = (req, res) => {
  const url = req.url ?? '';
  if (url.startsWith('/hook/')) (arrivals[url.slice('/hook/'.length)] ??= []).push(Date.now());
  if (url === '/slow-checks') checksSlow = true;
  if (url === '/arrivals') {
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(JSON.stringify(arrivals));
  }
  req.resume();
  res.writeHead(204);
  res.end();
};

const bigLinks = Array.from({ length: 120 }, (_, i) => `/big-${i}`);
const sites = {
  crafted: routes({ ...noRobots, '/': page('Crafted', [], `<meta name="description" content="A page of unrendered templates: ${'{{'.repeat(40_000)}">`) }),
  fast: routes({ ...noRobots, '/': page('Fast', [], '<meta name="description" content="A one-page site that answers at once.">') }),
  slow: slowSite,
  big: routes({ ...noRobots, '/': page('Big site', bigLinks), ...Object.fromEntries(bigLinks.map((link, i) => [link, bigPage(i, 95_000)])) }),
  checked0: checkedSite('0'),
  checked1: checkedSite('1'),
  checked2: checkedSite('2'),
  receiver,
  /** Webhook receivers that never answer, on an origin of their own. */
  hang: () => {},
};

const origins: Record<string, string> = {};
for (const [name, handler] of Object.entries(sites)) origins[name] = (await startSite(handler)).origin;
console.log(JSON.stringify(origins));
