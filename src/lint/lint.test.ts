/** The llms.txt checker through the API, the CLI and the module both call, on files a test site serves. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../clock.ts';
import { RobotsCache } from '../crawl/index.ts';
import { startSite, type TestSite } from '../testing/test-site.ts';
import { startDocsSite, type DocsSite } from '../testing/docs-site.ts';
import { waitForGeneration } from '../testing/jobs.ts';
import { startTestService, type TestService } from '../testing/service.ts';
import { lintUrl, type LintReport } from './checker.ts';

const page = (body: string) => `<!doctype html><html><head><title>Page</title></head><body>${body}</body></html>`;
const MB = 1024 * 1024;

function defectiveFile(origin: string): string {
  return [
    '# Example',
    '',
    'No blockquote summary above this line.',
    '### A heading where none may be',
    '',
    '## Docs',
    `- [A](${origin}/docs/a): fine`,
    `- [Missing](${origin}/docs/missing): gone`,
    `- [A again](${origin}/docs/a/)`,
    '- just words, not a link',
    `- [Secret](${origin}/private/x): robots.txt forbids it`,
    '- [Elsewhere](http://127.0.0.2:1/x): a loopback address',
    '',
    '## Optional',
    `- [B](${origin}/docs/b): changed after the file`,
    '',
    '## Empty',
    '',
  ].join('\n');
}

let site: TestSite;
before(async () => {
  let origin = '';
  site = await startSite((req, res) => {
    const path = (req.url ?? '/').split('?')[0].replace(/(.)\/$/, '$1');
    const text = (body: string, headers: Record<string, string> = {}) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', ...headers });
      res.end(body);
    };
    if (path === '/robots.txt') return text(`User-agent: *\nDisallow: /private/\nSitemap: ${origin}/sitemap.xml\n`);
    if (path === '/sitemap.xml') {
      const entries = [['/', '2026-01-01'], ['/docs/a', '2026-01-01'], ['/docs/b', '2030-01-01'], ['/pricing', '2026-01-01']];
      res.writeHead(200, { 'content-type': 'application/xml' });
      return res.end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.map(([p, d]) => `<url><loc>${origin}${p}</loc><lastmod>${d}</lastmod></url>`).join('')}</urlset>`);
    }
    if (path === '/llms.txt') return text(defectiveFile(origin), { 'last-modified': 'Mon, 01 Jun 2026 00:00:00 GMT' });
    if (path === '/good/llms.txt') {
      return text(`# Example\n\n> An example site.\n\n## Docs\n- [A](${origin}/docs/a): the first\n- [About](${origin}/about): who\n- [Pricing](${origin}/pricing): what it costs\n\n## Optional\n- [B](${origin}/docs/b)\n`, {
        'last-modified': 'Tue, 01 Jan 2030 00:00:00 GMT',
      });
    }
    if (path === '/bare/llms.txt') return text('Just some words.\n');
    if (path === '/html/llms.txt') return res.writeHead(200, { 'content-type': 'text/html' }).end(page('an app shell'));
    if (path === '/many/llms.txt') {
      const lines = Array.from({ length: 100_000 }, (_, i) => `- [${i}](${origin}/p/${i})`);
      return text(`# Many\n\n> Too many links.\n\n## Pages\n${lines.join('\n')}\n`);
    }
    if (path === '/huge/llms.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(MB, 'a');
      let sent = 0;
      const more = () => {
        while (sent < 50 && !res.destroyed) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      return more();
    }
    if (path === '/private-links/llms.txt') {
      return text('# Inside\n\n> Links to private addresses.\n\n## Docs\n- [Metadata](http://169.254.169.254/latest/meta-data/)\n- [Router](http://192.168.1.1/)\n- [Intranet](http://10.0.0.1/wiki)\n');
    }
    if (path === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(page(`<nav><a href="/">Home</a><a href="/docs/a">A</a><a href="/about">About</a></nav><main>Hi</main>`));
    if (['/docs/a', '/docs/b', '/about', '/pricing', '/private/x'].includes(path) || path.startsWith('/p/')) return res.writeHead(200, { 'content-type': 'text/html' }).end(page('ok'));
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  origin = site.origin;
});
after(async () => {
  await site.close();
});

const codesOf = (report: LintReport) => report.findings.map((f) => `${f.line ?? '-'} ${f.code}`);

/** What the defective file is found to have, wherever the check runs (the loopback link: see each caller). */
function assertDefects(report: LintReport, loopbackLink: 'broken-link' | 'link-refused') {
  assert.deepEqual(codesOf(report).sort(), [
    '- missing-key-page',
    '- missing-key-page',
    `12 ${loopbackLink}`,
    '11 link-disallowed',
    '10 bad-link-line',
    '15 changed-after-file',
    '17 empty-section',
    '3 missing-summary',
    '4 misplaced-heading',
    '8 broken-link',
    '9 duplicate-link',
    '14 optional-not-last',
  ].sort());
  const messages = report.findings.map((f) => f.message);
  assert.ok(messages.includes(`${site.origin}/docs/missing answered HTTP 404`), messages.join('\n'));
  assert.ok(messages.includes(`${site.origin}/docs/a/ is already listed on line 7`));
  assert.ok(messages.includes(`${site.origin}/about is in the site's navigation but not in the file`));
  assert.ok(messages.includes(`${site.origin}/pricing is in the site's sitemap but not in the file`));
  assert.ok(messages.includes(`${site.origin}/docs/b changed on 2030-01-01T00:00:00.000Z (sitemap), after the file (2026-06-01T00:00:00.000Z)`), messages.join('\n'));
  assert.ok(report.findings.every((f) => ['error', 'warning', 'notice'].includes(f.severity)));
  // 10 summary + 3 heading + 3 link line + 5 empty + 5 Optional + 2 duplicate + 5 + 5 broken/refused + 1 disallowed + 4 key pages + 2 changed
  assert.equal(report.score, 100 - 45);
  assert.deepEqual(report.links, { listed: 6, checked: 6 });
}

describe('The checker module, with the address guard on (only the test site allowed)', () => {
  const deps = { crawl: { allowPrivate: false, isAllowedAddress: (address: string) => address === '127.0.0.1' }, robots: new RobotsCache(new ManualClock()) };

  test('finds each kind of defect; a link to another loopback address is refused, not fetched', async () => {
    assertDefects(await lintUrl(deps, `${site.origin}/llms.txt`), 'link-refused');
  });

  test('links to private addresses are refused without a request', async () => {
    const report = await lintUrl(deps, `${site.origin}/private-links/llms.txt`);
    assert.deepEqual(codesOf(report), ['6 link-refused', '7 link-refused', '8 link-refused']);
    assert.match(report.findings[0].message, /^http:\/\/169\.254\.169\.254\/latest\/meta-data\/: /);
    assert.equal(report.score, 85);
  });
});

describe('POST /api/v1/lint and llmstxt lint', () => {
  let service: TestService;
  let guarded: TestService;
  let apiKey: string;
  let docs: DocsSite;
  let work: string;
  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'llmstxt-lint-'));
    service = await startTestService('pglite', { env: { CRAWL_ALLOW_PRIVATE: 'true' } });
    guarded = await startTestService('pglite', { env: { RATE_LIMIT_JOB_STARTS: '2' } });
    docs = await startDocsSite();
    apiKey = (await service.createAccount()).apiKey;
  });
  after(async () => {
    // What started, even when the start of the rest failed.
    await Promise.all([service?.close(), guarded?.close(), docs?.close()]);
    rmSync(work, { recursive: true, force: true });
  });

  const lint = async (url: string) => {
    const response = await service.request('POST', '/api/v1/lint', { token: apiKey, body: { url } });
    assert.equal(response.status, 200, response.text);
    return response.body as LintReport;
  };

  test('any page of a site checks its /llms.txt: each kind of defect, with line, severity and score', async () => {
    const report = await lint(`${site.origin}/docs/a`);
    assert.equal(report.fileUrl, `${site.origin}/llms.txt`);
    assert.equal(report.site, site.origin);
    assertDefects(report, 'broken-link');
  });

  test('a good file scores 100; a file without H1 or sections, an HTML page and a 404 are reported', async () => {
    const good = await lint(`${site.origin}/good/llms.txt`);
    assert.deepEqual([good.score, good.findings], [100, []]);
    const bare = await lint(`${site.origin}/bare/llms.txt`);
    assert.deepEqual(codesOf(bare), ['1 missing-h1', '- no-sections']);
    assert.equal(bare.score, 40);
    const html = await lint(`${site.origin}/html/llms.txt`);
    assert.deepEqual([html.score, html.findings[0].code, html.findings[0].message], [0, 'file-unreadable', `${site.origin}/html/llms.txt is not an llms.txt: it answered text/html, not markdown text`]);
    const missing = await lint(`${site.origin}/nowhere/llms.txt`);
    assert.deepEqual([missing.score, missing.findings[0].message], [0, `${site.origin}/nowhere/llms.txt answered HTTP 404`]);
  });

  test('the llms.txt this service generates scores 100', async () => {
    const start = await service.request('POST', '/api/v1/generate', { token: apiKey, body: { url: `${docs.origin}/`, options: { generationMethod: 'simple', maxUrls: 50 } } });
    const job = await waitForGeneration(service, apiKey, start.body.jobId);
    const report = await lint(job.fileUrl);
    assert.deepEqual([report.score, report.findings, report.site], [100, [], docs.origin]);
    assert.equal(report.links.checked, report.links.listed);

    const cli = await llmstxt(['lint', job.fileUrl, '--json']);
    assert.equal(cli.code, 0, cli.stderr);
    assert.deepEqual(JSON.parse(cli.stdout), report);
  });

  test('hostile files are bounded: 100,000 links (200 checked), 50 MB (not read)', async () => {
    const many = await lint(`${site.origin}/many/llms.txt`);
    assert.deepEqual(many.links, { listed: 100_000, checked: 200 });
    assert.deepEqual(codesOf(many), ['- not-checked', '- missing-key-page', '- missing-key-page', '- missing-key-page']);
    assert.equal(many.findings[0].message, '99800 of 100000 links were not checked: at most 200 links are checked');
    assert.equal(many.score, 94);
    const huge = await lint(`${site.origin}/huge/llms.txt`);
    assert.deepEqual([huge.score, huge.findings[0].message], [0, `${site.origin}/huge/llms.txt is larger than 5 MB: not read`]);
    const hits = site.hits.filter((path) => path.startsWith('/p/')).length;
    assert.ok(hits <= 200, `${hits} links fetched`);
  });

  test('a private target is refused; lint is counted against the job-start rate limit', async () => {
    const { apiKey: key } = await guarded.createAccount();
    const refused = await guarded.request('POST', '/api/v1/lint', { token: key, body: { url: 'http://10.0.0.1/llms.txt' } });
    assert.deepEqual([refused.status, refused.body.message], [400, 'Validation error: url points to a private or reserved address. A self-hosted service can allow these with CRAWL_ALLOW_PRIVATE=true']);
    await guarded.request('POST', '/api/v1/lint', { token: key, body: { url: 'http://10.0.0.2/' } });
    const limited = await guarded.request('POST', '/api/v1/lint', { token: key, body: { url: 'http://10.0.0.3/' } });
    assert.equal(limited.status, 429);
    const anonymous = await guarded.request('POST', '/api/v1/lint', { body: { url: site.origin } });
    assert.equal(anonymous.status, 401);
  });

  test('llmstxt lint: a local file with its defects, a hostile one, and bad arguments', async () => {
    const file = join(work, 'llms.txt');
    writeFileSync(file, defectiveFile(site.origin));
    const run = await llmstxt(['lint', file]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^file: \d+\/100 \(6 of 6 links checked\)/);
    assert.match(run.stdout, /L8 {4}error {3}broken-link: http:\/\/127\.0\.0\.1:\d+\/docs\/missing answered HTTP 404/);
    assert.match(run.stdout, /L3 {4}warning missing-summary/);

    const huge = join(work, 'huge.txt');
    writeFileSync(huge, Buffer.alloc(6 * MB, 'a'));
    const hostile = await llmstxt(['lint', huge, '--json']);
    assert.equal(hostile.code, 0, hostile.stderr);
    assert.equal(JSON.parse(hostile.stdout).findings[0].message, `${huge} is larger than 5 MB: not read`);

    const missing = await llmstxt(['lint', join(work, 'absent.txt')]);
    assert.deepEqual([missing.code, missing.stderr.trim()], [2, `llmstxt: ${join(work, 'absent.txt')} is neither an http(s) URL nor a readable file`]);
  });
});

const BIN = new URL('../../bin/llmstxt.mjs', import.meta.url).pathname;

function llmstxt(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}
