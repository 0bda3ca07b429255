/**
 * Headless Chromium for the browser tests (playwright-core driving Debian's `chromium`), the
 * dashboard's build for its tests, and the folder the tests save their screenshots in. Chromium is required: without it the suites fail, they do not skip.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { WEB_DIST } from '../web/plugin.ts';
import { startDocsSite, type DocsSite } from './docs-site.ts';
import { startTestService, type TestService } from './service.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where the browser tests save their screenshots (the CI artifacts the README names). */
export const SCREENSHOTS = fileURLToPath(new URL('../../artifacts/screenshots/', import.meta.url));

/** The dashboard's tests need it built; `npm install` normally has done it. */
export function ensureWebBuilt(): void {
  if (!existsSync(join(WEB_DIST, 'index.html'))) {
    execFileSync(process.execPath, [join(ROOT, 'scripts/build-web.mjs')], { cwd: ROOT, stdio: 'inherit' });
  }
}

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is required for the browser tests and was not found at ${CHROMIUM}. Install it (apt-get install -y chromium) or set CHROMIUM_PATH.`);
  }
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export interface DashboardFixture {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  service: TestService;
  docs: DocsSite;
  /** a full-page screenshot into artifacts/screenshots/ */
  shot(name: string): Promise<unknown>;
  /** the service's address of a path */
  url(path: string): string;
  /** a link of the main navigation */
  nav(name: string): ReturnType<Page['getByRole']>;
  close(): Promise<void>;
}

/** The built dashboard, served by a real service (PGlite) beside a docs site, in one browser page. */
export async function openDashboard(): Promise<DashboardFixture> {
  ensureWebBuilt();
  const browser = await launchBrowser();
  const service = await startTestService('pglite', { env: { CRAWL_ALLOW_PRIVATE: 'true' } });
  const docs = await startDocsSite();
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return {
    browser,
    context,
    page,
    service,
    docs,
    shot: (name) => page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true }),
    url: (path) => service.baseUrl + path,
    nav: (name) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }),
    async close() {
      await context.close();
      await browser.close();
      await service.close();
      await docs.close();
    },
  };
}

export interface DashboardWithAccount extends DashboardFixture {
  account: { id: string; apiKey: string; email: string };
}

/**
 * A suite's dashboard with one account on it: opened before the suite's tests (`opened` then
 * receives it, for the suite to keep what it uses) and closed after them. The functions returned
 * act on it once it is open.
 */
export function dashboardWithAccount(
  firstName: string,
  opened: (dashboard: DashboardWithAccount) => void,
): Pick<DashboardFixture, 'shot' | 'url' | 'nav'> {
  let fixture: DashboardFixture | undefined;
  before(async () => {
    fixture = await openDashboard();
    const account = await fixture.service.createAccount({ firstName });
    opened({ ...fixture, account });
  });
  after(async () => {
    await fixture?.close();
  });
  const open = () => fixture ?? assert.fail('the dashboard is opened before the suite\'s tests');
  return { shot: (name) => open().shot(name), url: (path) => open().url(path), nav: (name) => open().nav(name) };
}
