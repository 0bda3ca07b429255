/**
 * The dashboard's discovery screens and account deletion, end to end in headless Chromium
 * (playwright-core) against the real service: start a discovery of a docs site on 127.0.0.1,
 * watch it complete, read its URLs with their sources; validation errors next to the URL field;
 * delete the account after its confirmation, after which the old API key answers 401.
 * Chromium is required: without it this suite fails, it does not skip.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { dashboardWithAccount, type DashboardWithAccount } from '../testing/browser.ts';
import type { DocsSite } from '../testing/docs-site.ts';
import type { TestService } from '../testing/service.ts';

let page: Page;
let service: TestService;
let docs: DocsSite;
let account: DashboardWithAccount['account'];
const { shot, url, nav } = dashboardWithAccount('Grace', (opened) => ({ page, service, docs, account } = opened));
const focusedId = () => page.evaluate(() => document.activeElement?.id);

describe('Discovery and account deletion in a browser', () => {
  test('the discovery pages are client routes: a reload or a deep link answers the app', async () => {
    for (const path of ['/discovery', '/discovery/some-id']) {
      const response = await service.request('GET', path);
      assert.equal(response.status, 200, path);
      assert.match(response.text, /<div id="app">/);
    }
  });

  test('log in with the API key; Discovery is in the main navigation', async () => {
    await page.goto(url('/login'));
    await page.getByLabel('API key').fill(account.apiKey);
    await Promise.all([page.waitForURL(/\/dashboard$/), page.getByRole('button', { name: 'Log in with API key' }).click()]);
    await Promise.all([page.waitForURL(/\/discovery$/), nav('Discovery').click()]);
    assert.equal(await nav('Discovery').getAttribute('aria-current'), 'page');
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Discovery');
    await page.getByText('No discoveries yet.').waitFor();
  });

  test('validation errors appear next to their field, from the form and from the API', async () => {
    await page.getByRole('button', { name: 'Start discovery' }).click();
    assert.match((await page.locator('#disc-url-error').textContent()) ?? '', /^Enter the website's address/);
    assert.equal(await focusedId(), 'disc-url');

    // the address is checked by the API; its message lands next to the URL field
    await page.getByLabel('Website URL').fill('not a url');
    await page.getByLabel('Maximum URLs').fill('1001');
    await page.getByRole('button', { name: 'Start discovery' }).click();
    assert.equal(await page.locator('#disc-max-error').textContent(), 'Enter a whole number from 1 to 1,000.');
    assert.equal(await focusedId(), 'disc-max');
    await page.getByLabel('Maximum URLs').fill('50');
    await page.getByRole('button', { name: 'Start discovery' }).click();
    await page.locator('#disc-url-error').waitFor();
    assert.equal(await page.locator('#disc-url-error').textContent(), 'URL must be a valid http or https URL');
    assert.equal(await page.getByLabel('Website URL').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.getByLabel('Website URL').getAttribute('aria-describedby'), 'disc-url-hint disc-url-error');
    assert.equal(await focusedId(), 'disc-url');
    await shot('web-discovery-validation');
    assert.equal((await service.request('GET', '/api/v1/discovery', { token: account.apiKey })).body.total, 0, 'nothing was started');
  });

  test('start a discovery of the docs site, watch it complete, see its URLs from the sitemap and the crawl', async () => {
    await page.getByLabel('Website URL').fill(docs.origin);
    await page.getByLabel('Maximum URLs').fill('50');
    await page.getByLabel('Discovery type').selectOption('full');
    await Promise.all([page.waitForURL(/\/discovery\/[^/]+$/), page.getByRole('button', { name: 'Start discovery' }).click()]);
    const id = page.url().split('/').pop()!;
    await page.getByRole('heading', { level: 1, name: `Discovery of ${docs.origin}` }).waitFor();
    await page.locator('.status-completed').waitFor({ timeout: 40_000 });
    const found = Number(await page.getByTestId('disc-urls-found').textContent());
    assert.ok(found >= docs.sitemapPaths.length, `${found} URLs found`);

    // the URLs list follows the job: both sources, with the sitemap's lastmod
    const table = page.getByRole('table');
    await table.getByRole('cell', { name: 'crawl', exact: true }).first().waitFor();
    assert.ok(await table.getByRole('cell', { name: 'sitemap', exact: true }).first().isVisible());
    const hidden = table.getByRole('row').filter({ has: page.getByRole('link', { name: `${docs.origin}/docs/hidden-gem` }) });
    assert.equal(await hidden.getByRole('cell', { name: 'crawl', exact: true }).count(), 1, 'the page only links reach is found by the crawl');
    const started = table.getByRole('row').filter({ has: page.getByRole('link', { name: `${docs.origin}/docs/getting-started` }) });
    assert.equal(await started.getByRole('cell', { name: 'sitemap', exact: true }).count(), 1);
    assert.ok(await started.getByRole('cell', { name: '2026-10-02', exact: true }).isVisible(), 'lastModified from the sitemap');
    assert.ok(await page.getByText(`${found} URLs`, { exact: true }).isVisible());
    assert.equal(await page.getByRole('navigation', { name: 'Discovered URL pages' }).getByText('Page 1 of 1').count(), 1);
    await shot('web-discovery');

    const api = await service.request('GET', `/api/v1/discovery/${id}/urls?limit=100`, { token: account.apiKey });
    assert.equal(api.body.total, found, 'the page shows what the API has');
  });

  test('the list of discoveries shows status and URLs found, refreshes while a job runs, and filters by status', async () => {
    await Promise.all([page.waitForURL(/\/discovery$/), page.getByRole('link', { name: '← All discoveries' }).click()]);
    const rows = page.getByRole('table').getByRole('row');
    await rows.filter({ hasText: 'completed' }).first().waitFor();

    // a job started elsewhere (here through the API) shows up and is followed until it completes, without a reload
    const loads: string[] = [];
    page.on('request', (request) => {
      if (/\/api\/v1\/discovery\?/.test(request.url())) loads.push(request.url());
    });
    await page.getByLabel('Status').selectOption('completed');
    await page.getByText('1 discovery', { exact: true }).waitFor();
    const started = await service.request('POST', '/api/v1/discovery', { token: account.apiKey, body: { url: `${docs.origin}/docs/`, maxUrls: 5, discoveryType: 'sitemap' } });
    assert.equal(started.status, 201);
    await page.getByLabel('Status').selectOption('');
    const second = rows.filter({ has: page.getByRole('link', { name: `${docs.origin}/docs`, exact: false }) });
    await second.filter({ hasText: 'completed' }).waitFor({ timeout: 40_000 });
    assert.ok(Number(await second.getByTestId('urls-found').textContent()) > 0);
    await page.getByText('2 discoveries', { exact: true }).waitFor();
    assert.ok(loads.length >= 2, 'the list was loaded again');

    await page.getByLabel('Status').selectOption('failed');
    await page.getByText('No failed discoveries.').waitFor();
    await page.getByLabel('Status').selectOption('');
    await page.getByText('2 discoveries', { exact: true }).waitFor();
  });

  test('delete the account: it asks for an API key and a confirmation, then the old key answers 401', async () => {
    await nav('Profile').click();
    const remove = page.getByRole('button', { name: 'Delete my account' });
    await remove.click();
    assert.equal(await page.locator('#delete-key-error').textContent(), 'Paste one of your API keys to confirm it is you.');
    assert.equal(await focusedId(), 'delete-key');
    await page.locator('#delete-key').fill('llms_not-a-real-key-0000000000000000');
    await page.getByLabel('I understand that this cannot be undone').check();
    await remove.click();
    await page.locator('#delete-key-error').filter({ hasText: 'That API key was not accepted.' }).waitFor();

    await page.locator('#delete-key').fill(account.apiKey);
    await page.getByLabel('I understand that this cannot be undone').uncheck();
    await remove.click();
    await page.getByRole('alert').filter({ hasText: 'Tick the box to confirm that everything will be deleted.' }).waitFor();
    assert.equal(await page.locator('#delete-key-error').count(), 0, 'the earlier key error is gone');
    assert.equal(await focusedId(), 'delete-confirm');
    assert.equal((await service.request('POST', '/api/v1/auth/login', { token: account.apiKey })).status, 200, 'nothing was deleted yet');
    await page.getByLabel('I understand that this cannot be undone').check();
    await page.getByRole('alert').waitFor({ state: 'detached' });
    await shot('web-delete-account');

    await Promise.all([page.waitForURL((u) => u.pathname === '/' && u.searchParams.get('deleted') === '1'), remove.click()]);
    await page.getByText('Your account was deleted.').waitFor();
    await page.getByRole('heading', { name: 'Turn any website into llms.txt' }).waitFor();
    assert.ok(await nav('Sign up').isVisible(), 'logged out');
    assert.equal(await page.evaluate(() => localStorage.getItem('llmstxt.refreshToken')), null);
    assert.equal((await service.request('POST', '/api/v1/auth/login', { token: account.apiKey })).status, 401);
    assert.equal((await service.request('GET', '/api/v1/discovery', { token: account.apiKey })).status, 401);

    await page.goto(url('/discovery'));
    await page.waitForURL(/\/login$/);
  });
});
