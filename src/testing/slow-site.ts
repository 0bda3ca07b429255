/** A site whose pages answer slowly, so a test can act while a job is mid-way. */
import { startSite, type TestSite } from '../testing/test-site.ts';

export async function startSlowSite(pages: number, delayMs: number): Promise<TestSite> {
  const links = Array.from({ length: pages }, (_, i) => `<a href="/page-${i}">Page ${i}</a>`).join(' ');
  return startSite(async (req, res) => {
    if (req.url === '/robots.txt' || req.url?.startsWith('/sitemap')) {
      res.writeHead(404);
      return res.end();
    }
    await new Promise((r) => setTimeout(r, delayMs));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><title>Slow ${req.url}</title><meta name="description" content="A slow page at ${req.url} for tests."></head><body><main><p>Slow content of ${req.url}.</p>${links}</main></body></html>`);
  });
}
