// The address guard as the crawler meets it: allowPrivate OFF. A test server is reachable
// only through the test hook that allows exactly 127.0.0.1; every other internal address,
// reached directly, by redirect or through DNS, must be refused.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FetchError } from './fetch-error.ts';
import { createFetcher, type Fetcher } from './fetcher.ts';
import type { Resolver } from './address-guard.ts';
import { startSite, type TestSite } from '../testing/test-site.ts';
import { crawlMessages } from '../errors.ts';

const REFUSED = crawlMessages.addressRefused;

const onlyTestServer = (address: string) => address === '127.0.0.1';

async function refused(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(
    () => assert.fail('expected the address guard to refuse'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof FetchError, String(err));
  assert.equal(err.code, 'REFUSED_ADDRESS', err.message);
  return err.message;
}

describe('address guard in the fetcher (allowPrivate off)', () => {
  let site: TestSite;
  let decoy: TestSite;
  let fetcher: Fetcher;
  let target = '';
  // Rebinding: site.test answers 127.0.0.1 first, then 127.0.0.2.
  let siteTestAnswers: string[] = [];
  const resolve: Resolver = async (hostname) => {
    if (hostname === 'loopback.test') return [{ address: '127.0.0.2', family: 4 }];
    if (hostname === 'metadata.test') return [{ address: '169.254.169.254', family: 4 }];
    if (hostname === 'site.test') return [{ address: siteTestAnswers.shift() ?? '127.0.0.2', family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  };

  before(async () => {
    site = await startSite((req, res) => {
      if (req.url === '/redirect') {
        res.writeHead(302, { location: target });
        return void res.end();
      }
      res.end('public page');
    });
    // Reachable (127.0.0.2 is loopback on Linux) but must never be reached.
    decoy = await startSite((_req, res) => res.end('internal secret'), '127.0.0.2');
    fetcher = createFetcher({ isAllowedAddress: onlyTestServer, resolve });
  });
  after(async () => {
    await fetcher.close();
    await site.close();
    await decoy.close();
  });

  const blocked = [
    'http://127.0.0.1/',
    'http://[::1]/',
    'http://10.0.0.1/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://0.0.0.0/',
    'http://[::ffff:127.0.0.1]/',
    'http://loopback.test/',
    'http://metadata.test/',
  ];

  test('refuses each internal address when fetched directly, quickly, with one message that never names the address', async () => {
    // Without the test hook, so 127.0.0.1 is refused like the rest.
    const strict = createFetcher({ resolve });
    try {
      for (const url of blocked) {
        const started = Date.now();
        assert.equal(await refused(strict.fetch(url)), REFUSED, url);
        assert.ok(Date.now() - started < 1000, `${url} should fail before any connect timeout`);
      }
    } finally {
      await strict.close();
    }
  });

  test('the test hook reaches the test server (so the refusals below are not a dead server)', async () => {
    const res = await fetcher.fetch(`${site.origin}/`);
    assert.equal(res.text(), 'public page');
  });

  const redirectTargets = () => [
    `http://127.0.0.2:${decoy.port}/`,
    `http://[::1]:${decoy.port}/`,
    'http://10.0.0.1/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    `http://0.0.0.0:${decoy.port}/`,
    `http://[::ffff:127.0.0.2]:${decoy.port}/`,
    `http://loopback.test:${decoy.port}/`,
  ];

  test('refuses a redirect from the allowed server to each internal address', async () => {
    for (const location of redirectTargets()) {
      target = location;
      assert.equal(await refused(fetcher.fetch(`${site.origin}/redirect`)), REFUSED, location);
    }
    assert.equal(decoy.hits.length, 0, 'the internal server was never reached');
  });

  test('checks the address again on every new connection, so DNS rebinding between hops is refused', async () => {
    siteTestAnswers = ['127.0.0.1', '127.0.0.2'];
    // Same hostname, another port: a new connection, a new lookup, a new (now internal) answer.
    target = `http://site.test:${decoy.port}/`;
    const message = await refused(fetcher.fetch(`http://site.test:${site.port}/redirect`));
    assert.equal(message, REFUSED);
    assert.equal(decoy.hits.length, 0);
  });
});
