/**
 * What the dashboard does beyond the basics, in headless Chromium against the real service: the
 * price before the click (the estimate as the user types, the balance after it, "enhanced" honest
 * about its AI provider, what a credit buys), path filters and a token budget, a job's phase, its
 * cancel and its failure's reason, a site's llms.txt as an outline, regenerate, schedules
 * (presets and cron), delete, and the webhooks page (secret once, test event, delivery log, enable).
 * Chromium is required: without it this suite fails, it does not skip.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { eq } from '../db/orm.ts';
import { webhookEndpoints } from '../db/schema.ts';
import { startSite, type TestSite } from '../testing/test-site.ts';
import { openDashboard, type DashboardFixture } from '../testing/browser.ts';
import type { DocsSite } from '../testing/docs-site.ts';
import { readLedger } from '../testing/ledger.ts';
import type { TestService } from '../testing/service.ts';

let fixture: DashboardFixture;
let page: Page;
let service: TestService;
let docs: DocsSite;
let account: { id: string; apiKey: string; email: string };
/** A site whose pages answer only once released: its jobs stay in their discovering or fetching phase. */
let slow: TestSite & { release(): void };
let receiver: Server;
let received: string[] = [];

async function startSlowSite(): Promise<TestSite & { release(): void }> {
  const waiting: Array<() => void> = [];
  let released = false;
  let origin = '';
  const site = await startSite((req, res) => {
    if (req.url === '/robots.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end(`Sitemap: ${origin}/sitemap.xml\n`);
    if (req.url === '/sitemap.xml') {
      const urls = Array.from({ length: 30 }, (_, i) => `<url><loc>${origin}/docs/page-${i}</loc></url>`).join('');
      return res.writeHead(200, { 'content-type': 'application/xml' }).end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`);
    }
    const answer = () => res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Page ${req.url}</title><p>Slow page.</p>`);
    // The start page and a few others answer at once: the job finds its URLs, fetches some and waits for the rest.
    if (released || req.url === '/docs/' || /^\/docs\/page-[0-4]$/.test(req.url ?? '')) answer();
    else waiting.push(answer);
  });
  origin = site.origin;
  return {
    ...site,
    release() {
      released = true;
      for (const answer of waiting.splice(0)) answer();
    },
  };
}

before(async () => {
  fixture = await openDashboard();
  ({ page, service, docs } = fixture);
  page.on('dialog', (dialog) => void dialog.accept());
  account = await service.createAccount({ firstName: 'Ada' });
  slow = await startSlowSite();
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push(body);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});

after(async () => {
  slow?.release();
  await slow?.close();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
  await fixture?.close();
});

const shot = (name: string) => fixture.shot(name);
const url = (path: string) => fixture.url(path);
const nav = (name: string) => fixture.nav(name);
const cost = () => page.getByTestId('cost');
const jobStatus = () => page.getByTestId('job-status');
const balanceOf = async () => (await readLedger(service, account.id)).balance;
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The Sites list's link to a site, by its address (listed with or without a trailing slash). */
const siteLink = (origin: string) => page.getByRole('link', { name: new RegExp(`^${escaped(origin)}/?$`) });

async function openGenerateForm(site: string) {
  await nav('Dashboard').click();
  await page.getByLabel('Website URL').fill(site);
}

describe('Dashboard parity in a browser', () => {
  test('the pricing page says what a credit buys, per method and per package, before any sign-up', async () => {
    await page.goto(url('/pricing'));
    const value = page.getByTestId('credit-value');
    await value.waitFor();
    assert.equal(await value.innerText(), 'Simple: 10 pages per credit\nEnhanced (AI descriptions): 5 pages per credit');
    const small = page.getByRole('article', { name: 'Small: 100 credits' });
    assert.ok(await small.getByText('up to 1,000 pages simple, or 500 enhanced').isVisible());
    await shot('web-pricing-credit-value');
  });

  test('log in with the API key', async () => {
    await page.goto(url('/login'));
    await page.getByLabel('API key').fill(account.apiKey);
    await Promise.all([page.waitForURL(/\/dashboard$/), page.getByRole('button', { name: 'Log in with API key' }).click()]);
    await page.getByTestId('balance').waitFor();
  });

  test('the Generate form shows the price as the user types, the balance after it, and "enhanced" needing an AI provider', async () => {
    await nav('Dashboard').click();
    await cost().getByText("Enter the website's address to see what the job costs.").waitFor();
    // The form starts from the service's own defaults (its OpenAPI document), not from numbers of its own.
    const doc = (await service.request('GET', '/api/v1/openapi.json')).body;
    const defaults = doc.paths['/api/v1/generate'].post.requestBody.content['application/json'].schema.properties.options.properties;
    assert.equal(await page.getByLabel('Maximum pages').inputValue(), String(defaults.maxUrls.default));
    assert.equal(await page.getByLabel('Method').inputValue(), defaults.generationMethod.default);

    await page.getByLabel('Website URL').fill(docs.origin);
    await cost().getByText('Cost: 5 credits for up to 50 pages (simple) · balance after: 15 credits').waitFor();
    const notice = page.getByTestId('enhanced-needs-provider');
    assert.match(await notice.innerText(), /^Enhanced needs an AI provider, and this service has none configured \(the LLM_PROVIDER setting\)/);
    assert.equal(await notice.getByRole('link').getAttribute('href'), '/docs');

    await page.getByLabel('Maximum pages').fill('120');
    await cost().getByText('Cost: 12 credits for up to 120 pages (simple) · balance after: 8 credits').waitFor();
    await page.getByLabel('Maximum pages').fill('300');
    await page.getByText('You have 20 credits: 10 more credits needed.').waitFor();
    await page.getByLabel('Maximum pages').fill('5000');
    await cost().getByText('Maximum pages: Enter a whole number from 1 to 1,000.').waitFor();
    await page.getByLabel('Maximum pages').fill('50');
    // What only the service checks, it says in its own words, the estimate's as the start's.
    const tooLong = `/${'x'.repeat(300)}`;
    const refused = await service.request('POST', '/api/v1/generate/estimate', { token: account.apiKey, body: { url: docs.origin, options: { excludePaths: [tooLong] } } });
    assert.equal(refused.status, 400);
    await page.getByText('Path filters and token budget').click();
    await page.getByLabel('Never these paths (one pattern a line)').fill(tooLong);
    await cost().getByText(refused.body.message).waitFor();
    await page.getByLabel('Never these paths (one pattern a line)').fill('');
    await page.getByText('Path filters and token budget').click();
    await page.getByLabel('Method').selectOption('simple');
    await cost().getByText('Cost: 5 credits for up to 50 pages (simple)', { exact: false }).waitFor();
    await notice.waitFor({ state: 'detached' });
    await page.getByLabel('Method').selectOption('enhanced');
    await notice.waitFor();
    await shot('web-generate-cost');
  });

  test('path filters and a token budget go to the job; it charges what the form showed', async () => {
    await openGenerateForm(docs.origin);
    await page.getByLabel('Maximum pages').fill('20');
    await page.getByLabel('Method').selectOption('simple');
    await page.getByLabel('Also build llms-full.txt (full text)').check();
    await page.getByText('Path filters and token budget').click();
    await page.getByLabel('Never these paths (one pattern a line)').fill('/blog/\n/legal/');
    await page.getByLabel('Token budget of llms-full.txt').fill('50');
    await page.getByRole('button', { name: 'Generate' }).click();
    assert.match((await page.locator('#gen-max-tokens-error').textContent()) ?? '', /^Enter a whole number from 100 to /);
    await page.getByLabel('Token budget of llms-full.txt').fill('2000');
    await cost().getByText('Cost: 2 credits for up to 20 pages (simple)', { exact: false }).waitFor();
    // Rendering's price joins the estimate's, from the modes the service offers.
    await page.getByText('Rendering and markdown copies').click();
    const modes = await page.getByLabel('Render pages in a browser').locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    const doc = (await service.request('GET', '/api/v1/openapi.json')).body;
    const render = doc.paths['/api/v1/generate'].post.requestBody.content['application/json'].schema.properties.options.properties.render;
    assert.deepEqual(modes, render.anyOf.map((mode: { enum: string[] }) => mode.enum[0]));
    assert.equal(await page.getByLabel('Render pages in a browser').inputValue(), render.default);
    await page.getByLabel('Render pages in a browser').selectOption('auto');
    await cost().getByText('Cost: 4 credits for up to 20 pages (simple), 2 of them for rendering', { exact: false }).waitFor();
    await page.getByLabel('Render pages in a browser').selectOption('never');
    await cost().getByText('Cost: 2 credits for up to 20 pages (simple) ·', { exact: false }).waitFor();
    const before = await balanceOf();
    await page.getByRole('button', { name: 'Generate' }).click();
    await jobStatus().getByText('Done: 100%').waitFor({ timeout: 60_000 });

    const siteHref = await page.getByRole('link', { name: 'View site' }).getAttribute('href');
    const { body: site } = await service.request('GET', `/api/v1${siteHref}`, { token: account.apiKey });
    assert.deepEqual([site.lastGenerationOptions.excludePaths, site.lastGenerationOptions.maxTokens], [['/blog/', '/legal/'], 2000]);
    const { body: urls } = await service.request('GET', `/api/v1${siteHref}/urls?limit=100`, { token: account.apiKey });
    assert.ok(urls.urls.length > 0 && urls.urls.every((u: { url: string }) => !/\/(blog|legal)\//.test(u.url)), 'the excluded paths are not listed');
    const spent = before - (await balanceOf());
    assert.ok(spent <= 2, `charged ${spent}, at most the 2 credits shown`);
  });

  test('a running job shows its phase and counts, and Cancel stops it and refunds its credits', async () => {
    const before = await balanceOf();
    await openGenerateForm(slow.origin + '/docs/');
    await page.getByLabel('Maximum pages').fill('30');
    await page.getByLabel('Method').selectOption('simple');
    await page.getByRole('button', { name: 'Generate' }).click();
    // It waits for pages that do not answer: finding more, or fetching those it found.
    await jobStatus().getByText(/^(Finding pages: \d+ found \(at most 30\)|Fetching \d+ of \d+ pages)$/).waitFor({ timeout: 30_000 });
    assert.equal(await balanceOf(), before - 3, 'the job reserved its 3 credits');
    await shot('web-job-fetching');
    await page.getByRole('button', { name: 'Cancel job' }).click();
    await jobStatus().getByText('Failed: Canceled').waitFor();
    assert.equal(await page.locator('.job progress').count(), 0, 'a failed job shows no progress bar');
    assert.equal(await balanceOf(), before, 'the credits came back');
  });

  test('a failed job shows its reason and no percentage; its site page shows the last failure', async () => {
    const dead = 'http://127.0.0.1:1/';
    await openGenerateForm(dead);
    await page.getByLabel('Maximum pages').fill('10');
    await page.getByLabel('Method').selectOption('simple');
    await page.getByRole('button', { name: 'Generate' }).click();
    const failed = jobStatus().getByText(/^Failed: /);
    await failed.waitFor({ timeout: 60_000 });
    const reason = (await failed.textContent())!.slice('Failed: '.length);
    assert.ok(!/%/.test((await jobStatus().textContent()) ?? ''), 'no percentage');
    assert.equal(await page.locator('.job progress').count(), 0);

    await nav('Sites').click();
    await Promise.all([page.waitForURL(/\/sites\/[^/]+$/), siteLink('http://127.0.0.1:1').click()]);
    const lastFailure = page.getByTestId('last-failure');
    await lastFailure.waitFor();
    assert.match(await lastFailure.innerText(), new RegExp(`^The last generation failed .*: ${escaped(reason)}$`));
  });

  test("the site page previews the llms.txt as an outline: title, summary, sections with their links and descriptions", async () => {
    await nav('Sites').click();
    await Promise.all([page.waitForURL(/\/sites\/[^/]+$/), siteLink(docs.origin).click()]);
    const preview = page.getByRole('region', { name: 'Preview of llms.txt' });
    await preview.getByRole('heading', { name: 'Acme Widgets', level: 3 }).waitFor();
    const siteId = new URL(page.url()).pathname.split('/').pop()!;
    const file = (await service.request('GET', `/api/v1/file/${siteId}`)).text;
    const sections = [...file.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    assert.ok(sections.length >= 1, file);
    const toc = preview.getByRole('navigation', { name: 'Sections of the llms.txt' });
    assert.deepEqual(await toc.getByRole('link').allTextContents(), sections);
    const [, title, href, description] = /^- \[([^\]]+)\]\(([^)]+)\): (.+)$/m.exec(file)!;
    const link = preview.getByRole('link', { name: title, exact: true });
    assert.equal(await link.getAttribute('href'), href);
    assert.ok(await preview.getByText(`: ${description}`).first().isVisible());
    await toc.getByRole('link', { name: sections.at(-1) }).click();
    await page.waitForURL(/#outline-section-\d+$/);
    await page.getByRole('button', { name: /^Regenerate now \(\d+ credits?\)$/ }).waitFor();
    await shot('web-site-preview');

    // What an agent needs to read this site over MCP: the endpoint in a configuration to paste, the site's id.
    const mcp = page.getByRole('region', { name: 'For AI agents (MCP)' });
    const config = JSON.parse((await mcp.getByTestId('mcp-config').textContent())!);
    assert.equal(config.mcpServers.llmstxt.url, `${new URL(page.url()).origin}/mcp`);
    assert.equal(config.mcpServers.llmstxt.headers.Authorization, 'Bearer <your API key>');
    assert.ok(await mcp.getByText(siteId, { exact: true }).isVisible());
  });

  test('schedules: a preset, a cron expression of the user\'s, a bad one refused with the service\'s reason, then never', async () => {
    const refresh = page.getByLabel('Refresh', { exact: true });
    await refresh.selectOption('hourly');
    await page.getByTestId('schedule-state').getByText(/^Next check .*Not checked yet\.$/).waitFor();
    await refresh.selectOption('custom');
    await page.getByLabel('Cron expression (UTC)').fill('not a cron');
    await page.getByRole('button', { name: 'Save schedule' }).click();
    await page.getByRole('alert').getByText(/^Validation error: frequency/).waitFor();
    await page.getByLabel('Cron expression (UTC)').fill('0 6 * * 1-5');
    await page.getByRole('button', { name: 'Save schedule' }).click();
    await page.getByTestId('schedule-state').getByText(/^Runs on 0 6 \* \* 1-5 \(UTC\)\. Next check/).waitFor();
    const siteId = new URL(page.url()).pathname.split('/').pop()!;
    assert.equal((await service.request('GET', `/api/v1/sites/${siteId}`, { token: account.apiKey })).body.schedule.frequency, '0 6 * * 1-5');
    await refresh.selectOption('');
    await page.getByTestId('schedule-state').waitFor({ state: 'detached' });
  });

  test('regenerate now: its price on the button, a fresh job with the last options; then delete the site', async () => {
    const button = page.getByRole('button', { name: /^Regenerate now \(2 credits\)$/ });
    await button.waitFor();
    const before = await balanceOf();
    await button.click();
    await page.getByRole('region', { name: 'Actions' }).getByTestId('job-status').getByText('Done: 100%').waitFor({ timeout: 60_000 });
    assert.ok((await balanceOf()) < before, 'a fresh generation, not the cached answer');

    const siteId = new URL(page.url()).pathname.split('/').pop()!;
    await Promise.all([page.waitForURL(/\/sites\?siteDeleted=1$/), page.getByRole('button', { name: 'Delete site' }).click()]);
    await page.getByText('The site was deleted.').waitFor();
    assert.equal((await service.request('GET', `/api/v1/sites/${siteId}`, { token: account.apiKey })).status, 404);
  });

  test('webhooks: register an endpoint (secret shown once), send a test event, read its delivery log', async () => {
    await nav('Webhooks').click();
    await page.getByText('No endpoints yet.').waitFor();
    const endpointUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    await page.getByLabel('Endpoint URL').fill(endpointUrl);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = (await page.getByTestId('webhook-secret').textContent()) ?? '';
    assert.match(secret, /^whsec_/);
    assert.ok(await page.getByText('It is shown only once', { exact: false }).isVisible());
    const card = page.getByRole('article', { name: `Endpoint ${endpointUrl}` });
    await card.waitFor();
    assert.ok(await card.getByText('generation.completed').isVisible());

    await card.getByRole('button', { name: 'Send test event' }).click();
    await card.getByText('Test event queued', { exact: false }).waitFor();
    const delivery = card.getByTestId('delivery').first();
    await delivery.getByText('delivered').waitFor({ timeout: 20_000 });
    assert.match(await delivery.innerText(), /webhook\.test[\s\S]*HTTP 200 in \d+ ms/);
    assert.ok(received.some((body) => body.includes('"webhook.test"')), 'the receiver got the test event');
    await shot('web-webhooks');
  });

  test('webhooks: a disabled endpoint is enabled again; an endpoint is deleted', async () => {
    await service.db.update(webhookEndpoints).set({ disabledAt: service.clock.now() }).where(eq(webhookEndpoints.accountId, account.id));
    await nav('API keys').click();
    await nav('Webhooks').click();
    const card = page.getByRole('article').first();
    await card.getByText(/^Disabled .*: every attempt failed for a day/).waitFor();
    await card.getByRole('button', { name: 'Enable' }).click();
    await card.getByRole('button', { name: 'Send test event' }).waitFor();
    const [row] = await service.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.accountId, account.id));
    assert.equal(row!.disabledAt, null);
    await card.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No endpoints yet.').waitFor();
  });

  test('readable on a phone: the Generate form with its price, and the webhooks page', async () => {
    await page.setViewportSize({ width: 375, height: 740 });
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    await page.getByLabel('Endpoint URL').fill(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/a-rather-long-path/for-a-receiver`);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByRole('article').first().getByRole('button', { name: 'Send test event' }).click();
    await page.getByTestId('delivery').first().getByText('delivered').waitFor({ timeout: 20_000 });
    assert.ok((await overflow()) <= 0, `no horizontal scrolling on the webhooks page (${await overflow()}px)`);
    await openGenerateForm(docs.origin);
    await page.getByText('Path filters and token budget').click();
    await cost().getByText(/^Cost: /).waitFor();
    assert.ok((await overflow()) <= 0, `no horizontal scrolling on the dashboard (${await overflow()}px)`);
    await shot('web-generate-phone');
  });
});
