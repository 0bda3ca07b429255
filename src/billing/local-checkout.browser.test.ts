/**
 * The local provider's hosted pages in a real browser (headless Chromium through playwright-core):
 * a customer pays or cancels a checkout the API started, and changes plan in the portal.
 * Chromium is required: without it this suite fails, it does not skip.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, SCREENSHOTS } from '../testing/browser.ts';
import { describeOnEachDatabase } from '../testing/service.ts';
import { customer, planOf } from './testing/billing-test-kit.ts';

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

async function withPage<T>(run: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    return await run(page);
  } finally {
    await context.close();
  }
}

describeOnEachDatabase('Local checkout in a browser', (service, kind) => {
  const balance = async (apiKey: string) => (await service().request('GET', '/api/v1/credits/balance/api', { token: apiKey })).body.balance;

  test('Pay lands on the success URL with the real session id, and the credits are there', async () => {
    const buyer = await customer(service());
    const successUrl = `${service().baseUrl}/api/v1/health?checkout=success&session_id={CHECKOUT_SESSION_ID}`;
    const checkout = await service().request('POST', '/api/v1/credits/checkout', {
      token: buyer.accessToken,
      body: { packageId: 'medium', successUrl, cancelUrl: `${service().baseUrl}/api/v1/health?checkout=canceled` },
    });
    assert.equal(checkout.status, 200, checkout.text);
    const { sessionId, url } = checkout.body;

    await withPage(async (page) => {
      await page.goto(url);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Checkout');
      assert.ok(await page.getByText(buyer.email).isVisible());
      const pay = page.getByRole('button', { name: 'Pay $20.00' });
      assert.ok(await pay.isVisible());
      if (kind === 'pglite') await page.screenshot({ path: `${SCREENSHOTS}local-checkout.png`, fullPage: true });
      await Promise.all([page.waitForURL(/checkout=success/), pay.click()]);
      assert.equal(page.url(), successUrl.replace('{CHECKOUT_SESSION_ID}', sessionId));
      assert.match((await page.textContent('body')) ?? '', /"status":"ok"/);
    });
    assert.equal(await balance(buyer.apiKey), 520);
  });

  test('Cancel lands on the cancel URL and nothing is charged', async () => {
    const buyer = await customer(service());
    const cancelUrl = `${service().baseUrl}/api/v1/health?checkout=canceled`;
    const checkout = await service().request('POST', '/api/v1/credits/checkout/api', { token: buyer.apiKey, body: { packageId: 'small', cancelUrl } });
    await withPage(async (page) => {
      await page.goto(checkout.body.url);
      await Promise.all([page.waitForURL(/checkout=canceled/), page.getByRole('button', { name: 'Cancel' }).click()]);
      assert.equal(page.url(), cancelUrl);
    });
    assert.equal(await balance(buyer.apiKey), 20);
    const verified = await service().request('GET', `/api/v1/credits/verify-session/${checkout.body.sessionId}/api`, { token: buyer.apiKey });
    assert.deepEqual(verified.body, { success: false, message: 'Payment not completed' });
  });

  test('Pay works from the keyboard, and the portal changes the plan', async () => {
    const subscriber = await customer(service());
    const checkout = await service().request('POST', '/api/v1/subscriptions/checkout/api', {
      token: subscriber.apiKey,
      body: { planId: 'starter', successUrl: `${service().baseUrl}/api/v1/health?subscription={CHECKOUT_SESSION_ID}` },
    });
    await withPage(async (page) => {
      await page.goto(checkout.body.url);
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Pay $9.00 per month');
      await Promise.all([page.waitForURL(/subscription=cs_local_/), page.keyboard.press('Enter')]);
    });
    assert.equal(await planOf(service(), subscriber.id), 'starter');

    const portal = await service().request('POST', '/api/v1/subscriptions/portal/api', {
      token: subscriber.apiKey,
      body: { returnUrl: `${service().baseUrl}/api/v1/health?from=portal` },
    });
    await withPage(async (page) => {
      await page.goto(portal.body.url);
      await page.getByLabel('Change plan').selectOption('agency:yearly');
      await Promise.all([page.waitForURL(portal.body.url), page.getByRole('button', { name: 'Change plan' }).click()]);
      assert.match((await page.textContent('main')) ?? '', /Agency plan \(yearly\)/);
      if (kind === 'pglite') await page.screenshot({ path: `${SCREENSHOTS}local-portal.png`, fullPage: true });
      await Promise.all([page.waitForURL(/from=portal/), page.getByRole('link', { name: 'Back to llms.txt' }).click()]);
    });
    assert.equal(await planOf(service(), subscriber.id), 'agency');
  });
});
