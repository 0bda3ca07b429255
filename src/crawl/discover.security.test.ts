// Discovery with the address guard on (allowPrivate off, the production setting). The
// test site is reached through the test hook that allows exactly 127.0.0.1.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { discover, DiscoveryError, type DiscoveryResult } from './discover.ts';
import { page, routes, startSite, type TestSite } from '../testing/test-site.ts';

async function expectRefused(promise: Promise<DiscoveryResult>, message: string): Promise<void> {
  const err = await promise.then(
    () => assert.fail('expected discovery to be refused'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof DiscoveryError, String(err));
  assert.equal(err.code, 'UNREACHABLE');
  assert.equal(err.message, message);
}

describe('discover with the address guard on', () => {
  let site: TestSite;
  let decoy: TestSite;
  const guard = { isAllowedAddress: (address: string) => address === '127.0.0.1' };

  before(async () => {
    decoy = await startSite((_req, res) => res.end(page('internal', ['/more'])), '127.0.0.2');
    const internal = `http://127.0.0.2:${decoy.port}`;
    site = await startSite(
      routes({
        '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: `Sitemap: ${internal}/sitemap.xml\n` },
        '/': page('Home', ['/to-internal', '/ok']),
        '/ok': page('Ok'),
        '/to-internal': { status: 302, headers: { location: `${internal}/admin` } },
        '/start-to-metadata/': { status: 301, headers: { location: 'http://169.254.169.254/latest/meta-data/' } },
      }),
    );
  });
  after(async () => {
    await site.close();
    await decoy.close();
  });

  test('a start URL on an internal address fails the job with the reason', async () => {
    await expectRefused(discover(`${site.origin}/`, { mode: 'full', maxUrls: 10 }), `Could not fetch ${site.origin}/: Refused to connect to a private or reserved address`);
    await expectRefused(discover('http://10.0.0.1/', { mode: 'crawl', maxUrls: 10 }), 'Could not fetch http://10.0.0.1/: Refused to connect to a private or reserved address');
    await expectRefused(
      discover('http://metadata.test/', { mode: 'sitemap', maxUrls: 10 }, { resolve: async () => [{ address: '169.254.169.254', family: 4 }] }),
      'Could not fetch http://metadata.test/: Refused to connect to a private or reserved address',
    );
  });

  test('a start URL that redirects to an internal address fails the job', async () => {
    await expectRefused(
      discover(`${site.origin}/start-to-metadata/`, { mode: 'crawl', maxUrls: 10 }, guard),
      `Could not fetch ${site.origin}/start-to-metadata/: Refused to connect to a private or reserved address`,
    );
  });

  test('links and sitemaps leading to internal addresses are refused; the rest of the site is found', async () => {
    const result = await discover(`${site.origin}/`, { mode: 'full', maxUrls: 10 }, guard);
    assert.deepEqual(result.urls.map((u) => u.url), [`${site.origin}/`, `${site.origin}/ok`]);
    const warnings = result.warnings.join('\n');
    assert.match(warnings, /Sitemap http:\/\/127\.0\.0\.2:\d+\/sitemap\.xml: Refused to connect to a private or reserved address$/m);
    assert.match(warnings, /\/to-internal: Refused to connect to a private or reserved address$/m);
    assert.equal(decoy.hits.length, 0, 'the internal server was never reached');
  });
});
