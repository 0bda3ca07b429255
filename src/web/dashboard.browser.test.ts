/**
 * The web dashboard end to end in headless Chromium (playwright-core) against the real service:
 * sign up, buy credits on the local provider's hosted checkout, generate an llms.txt for a docs
 * site on 127.0.0.1, log out, log in by e-mail code, subscribe, manage billing and cancel.
 * Also: validation errors next to their field, a silent refresh of an expired session, an API outage.
 * Chromium is required: without it this suite fails, it does not skip.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq } from '../db/orm.ts';
import type { BrowserContext, Page } from 'playwright-core';
import { siteFiles } from '../db/schema.ts';
import { openDashboard, type DashboardFixture } from '../testing/browser.ts';
import type { DocsSite } from '../testing/docs-site.ts';
import type { TestService } from '../testing/service.ts';

let fixture: DashboardFixture;
let context: BrowserContext;
let page: Page;
let service: TestService;
let docs: DocsSite;
const email = `web-${Math.random().toString(36).slice(2)}@example.com`;

before(async () => {
  fixture = await openDashboard();
  ({ context, page, service, docs } = fixture);
  page.on('dialog', (dialog) => void dialog.accept());
});

after(async () => {
  await fixture?.close();
});

const shot = (name: string) => fixture.shot(name);
const url = (path: string) => fixture.url(path);
const nav = (name: string) => fixture.nav(name);
const balance = async () => Number(await page.getByTestId('balance').textContent());

describe('Web dashboard in a browser', () => {
  test('the built dashboard answers its client routes; unknown API paths keep their JSON 404', async () => {
    const api = await service.request('GET', '/api/v1/nope');
    assert.equal(api.status, 404);
    assert.match(api.headers.get('content-type') ?? '', /json/);
    const deep = await service.request('GET', '/sites/some-id');
    assert.equal(deep.status, 200);
    assert.match(deep.text, /<div id="app">/);
  });

  test('an unknown page answers the dashboard\'s own "Page not found" with a 404; the icon is served', async () => {
    const unknown = await service.request('GET', '/no/such/page', { headers: { accept: 'text/html' } });
    assert.equal(unknown.status, 404);
    assert.match(unknown.headers.get('content-type') ?? '', /text\/html/);
    const apiStill = await service.request('GET', '/api/v1/no/such/route', { headers: { accept: 'text/html' } });
    assert.equal(apiStill.status, 404);
    assert.deepEqual(apiStill.body, { message: 'Route GET /api/v1/no/such/route not found' });
    const icon = await fetch(url('/favicon.ico'));
    assert.equal(icon.status, 200);
    assert.match(icon.headers.get('content-type') ?? '', /image\/svg\+xml/);

    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(url('/no/such/page'));
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    page.removeAllListeners('response');
    assert.deepEqual(failed, [url('/no/such/page')].map((u) => `404 ${u}`), 'nothing but the page itself is missing (no icon 404)');
  });

  test('the API docs page renders without a Content-Security-Policy violation', async () => {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) violations.push(message.text());
    });
    await page.goto(url('/docs'));
    await page.getByText('Generation', { exact: true }).first().waitFor();
    page.removeAllListeners('console');
    assert.deepEqual(violations, []);
  });

  test('sign up: errors next to their field, then the API key once', async () => {
    const taken = await service.createAccount();
    await page.goto(url('/signup'));
    await page.getByRole('button', { name: 'Sign up' }).click();
    assert.equal(await page.locator('#firstName-error').textContent(), 'Enter your first name.');
    assert.equal(await page.locator('#email-error').textContent(), 'Enter your e-mail address.');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'email');
    await page.getByLabel('First name').fill('x'.repeat(51));
    await page.getByRole('button', { name: 'Sign up' }).click();
    assert.equal(await page.locator('#firstName-error').textContent(), 'First name must be at most 50 characters.');

    // an error from the API lands next to the field it concerns
    await page.getByLabel('E-mail').fill(taken.email);
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.locator('#email-error').waitFor();
    assert.equal(await page.locator('#email-error').textContent(), 'An account with this email already exists');
    assert.equal(await page.getByLabel('E-mail').getAttribute('aria-invalid'), 'true');
    await shot('web-signup-validation');

    await page.getByLabel('E-mail').fill(email);
    await shot('web-signup');
    await page.getByRole('button', { name: 'Sign up' }).click();
    const key = (await page.getByTestId('api-key').textContent()) ?? '';
    assert.ok(key.length > 20, key);
    assert.ok(await page.getByRole('button', { name: 'Copy API key' }).isVisible());
    assert.ok(await page.getByText('It is shown only once', { exact: false }).isVisible());
    await shot('web-key-shown');
    const login = await service.request('POST', '/api/v1/auth/login', { token: key });
    assert.equal(login.status, 200, 'the key shown works');

    await Promise.all([page.waitForURL(/\/dashboard$/), page.getByRole('button', { name: /continue to the dashboard/ }).click()]);
    await page.getByTestId('balance').waitFor();
    assert.equal(await balance(), 20);
  });

  test('buy a credit package on the hosted checkout; the balance is updated', async () => {
    await nav('Pricing').click();
    await page.getByRole('heading', { name: 'Small: 100 credits' }).waitFor();
    await page.getByRole('heading', { name: 'Starter' }).waitFor();
    await shot('web-pricing');
    await Promise.all([page.waitForURL(/\/pay\//), page.getByRole('button', { name: 'Buy Small: 100 credits' }).click()]);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Checkout');
    await Promise.all([page.waitForURL(/\/dashboard\?checkout=success&session_id=cs_/), page.getByRole('button', { name: 'Pay $5.00' }).click()]);
    await page.getByText('Payment received: 100 credits were added to your balance.').waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid=balance]')?.textContent === '120');
    assert.ok(await page.getByRole('cell', { name: 'purchase', exact: true }).first().isVisible());
    await shot('web-dashboard');
  });

  test('a canceled checkout says nothing was charged', async () => {
    await page.goto(url('/pricing'));
    await Promise.all([page.waitForURL(/\/pay\//), page.getByRole('button', { name: 'Buy Medium: 500 credits' }).click()]);
    await Promise.all([page.waitForURL(/checkout=canceled/), page.getByRole('button', { name: 'Cancel' }).click()]);
    await page.getByText('Checkout canceled. Nothing was charged.').waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid=balance]')?.textContent === '120');
  });

  test('generate for a docs site, watch progress reach 100, open the llms.txt and the site page', async () => {
    await nav('Dashboard').click();
    await page.getByLabel('Website URL').fill('not a url');
    await page.getByRole('button', { name: 'Generate' }).click();
    assert.equal(await page.locator('#gen-url-error').textContent(), 'Enter a full http:// or https:// address.');
    await page.getByLabel('Website URL').fill(docs.origin);
    await page.getByLabel('Maximum pages').fill('20');
    await page.getByLabel('Method').selectOption('simple');
    await page.getByLabel('Also build llms-full.txt (full text)').check();
    await page.getByRole('button', { name: 'Generate' }).click();
    await page.getByTestId('job-status').waitFor();
    await page.getByText('Done: 100%').waitFor({ timeout: 40_000 });
    assert.equal(await page.locator('.job progress').getAttribute('value'), '100');
    await shot('web-generation-done');

    const href = await page.getByRole('link', { name: 'Open llms.txt' }).getAttribute('href');
    assert.ok(href);
    const [popup] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: 'Open llms.txt' }).click()]);
    await popup.waitForLoadState();
    assert.match((await popup.textContent('body')) ?? '', /^# Acme Widgets/m);
    await popup.close();

    await Promise.all([page.waitForURL(/\/sites\/[^/]+$/), page.getByRole('link', { name: 'View site' }).click()]);
    await page.getByRole('heading', { name: 'Mapped URLs' }).waitFor();
    await page.locator('main').getByRole('link', { name: 'llms.txt', exact: true }).waitFor();
    assert.ok(await page.getByRole('link', { name: 'Download llms-full.txt' }).isVisible());
    // Each file's size, as the API reports it.
    const siteId = new URL(page.url()).pathname.split('/').pop();
    const files = await service.db.select({ tokens: siteFiles.tokens }).from(siteFiles).where(eq(siteFiles.siteId, siteId!));
    assert.equal(files.length, 2);
    for (const { tokens } of files) assert.ok(await page.getByText(`${tokens!.toLocaleString('en')} tokens`).first().isVisible(), `${tokens} tokens shown`);
    await page.getByRole('link', { name: /Getting started/ }).first().waitFor();
    await page.getByLabel('Status').selectOption('failed');
    await page.getByText('0 URLs').waitFor();
    await page.getByLabel('Status').selectOption('');
    await page.getByRole('link', { name: /Getting started/ }).first().waitFor();
    assert.ok(await page.getByText('Markdown export is available on paid plans').isVisible());
    await page.getByLabel('Refresh', { exact: true }).selectOption('daily');
    await page.getByTestId('schedule-state').getByText(/^Next check .*Not checked yet\.$/).waitFor();
    await shot('web-site');
    await page.getByLabel('Refresh', { exact: true }).selectOption('');
    await page.getByTestId('schedule-state').waitFor({ state: 'detached' });
    await nav('Sites').click();
    await page.getByRole('cell', { name: 'completed' }).first().waitFor();
  });

  test('API keys: create with a name, revoke', async () => {
    await nav('API keys').click();
    await page.getByRole('button', { name: 'Create key' }).click();
    assert.equal(await page.locator('#key-name-error').textContent(), 'Enter a name of 1 to 100 characters.');
    await page.getByLabel('Key name').fill('CI pipeline');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-key').textContent()) ?? '';
    assert.equal((await service.request('POST', '/api/v1/auth/login', { token: key })).status, 200);
    await page.getByRole('cell', { name: 'CI pipeline', exact: true }).waitFor();
    await shot('web-api-keys');
    await page.getByRole('button', { name: 'Revoke CI pipeline' }).click();
    await page.getByRole('cell', { name: 'CI pipeline', exact: true }).waitFor({ state: 'detached' });
    assert.equal((await service.request('POST', '/api/v1/auth/login', { token: key })).status, 401);
  });

  test('an expired session is refreshed silently and the page keeps working', async () => {
    const refreshes: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/v1/auth/refresh')) refreshes.push(request.method());
    });
    service.clock.advance(16 * 60 * 1000);
    await nav('Dashboard').click();
    await page.getByTestId('balance').waitFor();
    assert.ok(refreshes.length >= 1, 'the 401 led to a refresh');
    assert.equal(refreshes.length, 1, 'concurrent 401s share one refresh');
    assert.ok(page.url().endsWith('/dashboard'));
    await nav('Profile').click();
    await page.getByLabel('Company').fill('Analytical Engines');
    await page.getByLabel('Last name').fill(''); // optional at sign-up, optional here
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByText('Profile saved.').waitFor();
  });

  test('an API outage is shown as a banner, not a blank page', async () => {
    const banner = page.getByRole('alert').filter({ hasText: 'The service is having trouble right now.' });
    await page.route('**/api/v1/credits/balance', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"Service unavailable"}' }));
    try {
      await nav('Sites').click();
      await nav('Dashboard').click();
      await banner.waitFor();
      assert.ok(await page.getByText('The service is having trouble (503)').isVisible());
      assert.ok(await page.getByRole('heading', { name: 'Generate llms.txt' }).isVisible(), 'the rest of the page still works');
      await shot('web-outage');
    } finally {
      await page.unroute('**/api/v1/credits/balance');
    }
    await nav('Sites').click();
    await nav('Dashboard').click();
    await page.getByTestId('balance').waitFor();
    await banner.waitFor({ state: 'detached' });
  });

  test('log out, log in by e-mail code', async () => {
    await Promise.all([page.waitForURL(/\/login$/), page.getByRole('button', { name: 'Log out' }).click()]);
    assert.equal(await page.evaluate(() => localStorage.getItem('llmstxt.refreshToken')), null);
    await page.goto(url('/dashboard'));
    await page.waitForURL(/\/login$/);
    await page.getByLabel('E-mail').fill(email);
    const before = service.mailbox.length;
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByLabel('Login code').waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'login-code');
    const deadline = Date.now() + 5000;
    while (service.mailbox.length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const mail = service.mailbox.slice(before).find((m) => m.to === email);
    assert.ok(mail, 'a login code was mailed');
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
    assert.ok(code);
    await page.getByLabel('Login code').fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.locator('#login-code-error').waitFor();
    await page.getByLabel('Login code').fill(code);
    await Promise.all([page.waitForURL(/\/dashboard$/), page.getByRole('button', { name: 'Log in', exact: true }).click()]);
    await page.waitForFunction(() => document.querySelector('[data-testid=balance]')?.textContent === '120' || Number(document.querySelector('[data-testid=balance]')?.textContent) > 0);
  });

  test('subscribe, manage billing in the portal, cancel: the plan is free again', async () => {
    await nav('Pricing').click();
    await page.getByTestId('current-plan').waitFor();
    await page.getByRole('radio', { name: 'Yearly' }).check();
    await page.getByText('$90.00').waitFor();
    await page.getByRole('radio', { name: 'Monthly' }).check();
    await Promise.all([page.waitForURL(/\/pay\//), page.getByRole('button', { name: 'Subscribe to Starter monthly' }).click()]);
    await Promise.all([page.waitForURL(/\/dashboard\?subscription=success/), page.getByRole('button', { name: 'Pay $9.00 per month' }).click()]);
    await page.getByText('Your subscription is active').waitFor();
    await page.getByText('plan: starter').waitFor();

    // a paid plan unlocks the markdown export on the site page
    await nav('Sites').click();
    await Promise.all([page.waitForURL(/\/sites\/[^/]+$/), page.getByRole('link', { name: docs.origin, exact: false }).first().click()]);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export markdown' }).click()]);
    assert.match(download.suggestedFilename(), /\.md$/);

    await nav('Pricing').click();
    await page.getByText('starter (monthly)').waitFor();
    await Promise.all([page.waitForURL(/\/pay\/portal\//), page.getByRole('button', { name: 'Manage billing' }).click()]);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Billing portal');
    await page.getByRole('button', { name: 'Cancel now' }).click();
    await page.getByRole('link', { name: 'Back to llms.txt' }).waitFor();
    await Promise.all([page.waitForURL(/\/pricing$/), page.getByRole('link', { name: 'Back to llms.txt' }).click()]);
    await page.waitForFunction(() => document.querySelector('[data-testid=current-plan]')?.textContent === 'free');
    assert.ok(await page.getByRole('button', { name: 'Subscribe to Starter monthly' }).isVisible());
  });

  test('readable on a phone', async () => {
    await page.setViewportSize({ width: 375, height: 740 });
    await nav('Dashboard').click();
    await page.getByTestId('balance').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `no horizontal scrolling (${overflow}px)`);
    await shot('web-dashboard-phone');
  });
});
