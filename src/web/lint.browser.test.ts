/**
 * The dashboard's "Check an llms.txt" page in headless Chromium against the real service: a
 * missing address is refused next to its field, a site without an llms.txt scores 0 with the
 * reason, and a file the service generated scores 100. Chromium is required: without it this
 * suite fails, it does not skip.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { dashboardWithAccount, type DashboardWithAccount } from '../testing/browser.ts';
import type { DocsSite } from '../testing/docs-site.ts';
import { waitForGeneration } from '../testing/jobs.ts';
import type { TestService } from '../testing/service.ts';

let page: Page;
let service: TestService;
let docs: DocsSite;
let account: DashboardWithAccount['account'];
const fixture = dashboardWithAccount('Ada', (opened) => ({ page, service, docs, account } = opened));

describe('Check an llms.txt in a browser', () => {
  test('/lint is a client route, and in the main navigation once logged in', async () => {
    const response = await service.request('GET', '/lint');
    assert.equal(response.status, 200);
    assert.match(response.text, /<div id="app">/);
    await page.goto(fixture.url('/login'));
    await page.getByLabel('API key').fill(account.apiKey);
    await Promise.all([page.waitForURL(/\/dashboard$/), page.getByRole('button', { name: 'Log in with API key' }).click()]);
    await Promise.all([page.waitForURL(/\/lint$/), fixture.nav('Check llms.txt').click()]);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Check an llms.txt');
  });

  test('an empty address is refused next to the field; a site without llms.txt scores 0 with the reason', async () => {
    await page.getByRole('button', { name: 'Check' }).click();
    assert.equal(await page.locator('#lint-url-error').textContent(), 'Enter the address of an llms.txt, or of any page of the site.');
    await page.getByLabel('llms.txt or page URL').fill(`${docs.origin}/docs/getting-started`);
    await page.getByRole('button', { name: 'Check' }).click();
    await page.getByText(`${docs.origin}/llms.txt answered HTTP 404`).waitFor();
    assert.equal(await page.getByTestId('lint-score').textContent(), '0');
  });

  test('the llms.txt the service generated scores 100', async () => {
    const start = await service.request('POST', '/api/v1/generate', { token: account.apiKey, body: { url: `${docs.origin}/`, options: { generationMethod: 'simple', maxUrls: 20 } } });
    const job = await waitForGeneration(service, account.apiKey, start.body.jobId);
    await page.getByLabel('llms.txt or page URL').fill(job.fileUrl);
    await page.getByRole('button', { name: 'Check' }).click();
    await page.getByText('No findings.').waitFor();
    assert.equal(await page.getByTestId('lint-score').textContent(), '100');
    await fixture.shot('lint-100');
  });
});
