// Production is recognised strictly and refuses settings that would be unsafe there. Each case
// starts the real service process, as an operator would.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';

const main = new URL('./main.ts', import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), 'config-security-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

const STRONG_SECRET = 'q7Vw2LkP9xZs4RtY8bNc3MdJ6hGf1EaU0oIi5u';
const production = {
  NODE_ENV: 'production',
  JWT_SECRET: STRONG_SECRET,
  PAYMENT_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: 'sk_test_config',
  STRIPE_WEBHOOK_SECRET: 'whsec_config',
  SMTP_URL: 'smtp://127.0.0.1:2525',
  DATA_DIR: dataDir,
  PORT: '0',
  HOST: '127.0.0.1',
};

/** Starts the service with `env` on top of a clean environment; answers how it ended. */
function start(env: Record<string, string | undefined>) {
  const result = spawnSync(process.execPath, [main, 'serve'], { env: { PATH: process.env.PATH, ...env } as NodeJS.ProcessEnv, encoding: 'utf8', timeout: 30_000 });
  return { status: result.status, stderr: result.stderr };
}

describe('Configuration safety', () => {
  test('a NODE_ENV other than development, test or production is refused', () => {
    for (const value of ['prod', 'Production', 'staging']) {
      const { status, stderr } = start({ ...production, NODE_ENV: value });
      assert.equal(status, 2, stderr);
      assert.equal(stderr.trim(), `Configuration error: NODE_ENV must be one of development, test, production, got "${value}"`);
    }
  });

  test('production refuses a placeholder or simple JWT_SECRET', () => {
    for (const secret of ['change-me-change-me-change-me-change-me', 'abababababababababababababababababababab', 'x'.repeat(40)]) {
      const { status, stderr } = start({ ...production, JWT_SECRET: secret });
      assert.equal(status, 2, stderr);
      assert.equal(
        stderr.trim(),
        'Configuration error: JWT_SECRET is a known placeholder or too simple (fewer than 16 distinct characters): make one with `openssl rand -base64 48`',
      );
    }
  });

  test('production requires SMTP_URL, so login codes never go to the log', () => {
    const { status, stderr } = start({ ...production, SMTP_URL: undefined });
    assert.equal(status, 2, stderr);
    assert.equal(stderr.trim(), 'Configuration error: SMTP_URL is required when NODE_ENV=production (login codes are sent by e-mail)');
  });

  test('TRUST_PROXY=true (every hop) is refused; a hop count or proxy addresses are taken', () => {
    const { status, stderr } = start({ ...production, TRUST_PROXY: 'true' });
    assert.equal(status, 2, stderr);
    assert.match(stderr, /TRUST_PROXY=true would believe every X-Forwarded-For hop/);
    const wrong = start({ ...production, TRUST_PROXY: '10.0.0.1, proxy.internal' });
    assert.equal(wrong.status, 2, wrong.stderr);
    assert.equal(wrong.stderr.trim(), 'Configuration error: TRUST_PROXY must be false, a number of proxies or proxy addresses/CIDRs, got "proxy.internal"');
  });

  test('HTTP timeouts: headers that may take longer than the whole request, or no timeout at all, are refused', () => {
    const longer = start({ ...production, HTTP_HEADERS_TIMEOUT_SECONDS: '60', HTTP_REQUEST_TIMEOUT_SECONDS: '30' });
    assert.equal(longer.status, 2, longer.stderr);
    assert.equal(longer.stderr.trim(), 'Configuration error: HTTP_HEADERS_TIMEOUT_SECONDS must not exceed HTTP_REQUEST_TIMEOUT_SECONDS');
    const none = start({ ...production, HTTP_REQUEST_TIMEOUT_SECONDS: '0' });
    assert.equal(none.status, 2, none.stderr);
    assert.equal(none.stderr.trim(), 'Configuration error: HTTP_REQUEST_TIMEOUT_SECONDS must be a number from 0.1 to 3600, got "0"');
  });

  test('CRAWL_ALLOW_PRIVATE=true in production starts, with a warning in the log', async () => {
    const child = spawn(process.execPath, [main, 'serve', '--no-worker'], {
      env: { PATH: process.env.PATH, ...production, CRAWL_ALLOW_PRIVATE: 'true', TRUST_PROXY: '1' },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no warning in: ${output}`)), 60_000);
        child.stdout.on('data', () => {
          if (output.includes('llms.txt service on')) {
            clearTimeout(timer);
            resolve();
          }
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
      });
      assert.match(output, /CRAWL_ALLOW_PRIVATE=true in production: the crawler may reach private and internal addresses/);
    } finally {
      child.kill();
    }
  });
});
