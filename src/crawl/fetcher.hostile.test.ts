import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type http from 'node:http';
import { FetchError } from './fetch-error.ts';
import { createFetcher, type Fetcher } from './fetcher.ts';
import { gzipBomb, routes, startSite, type TestSite } from '../testing/test-site.ts';

/** Streams `total` bytes in 64 KB chunks, honoring backpressure, until the client leaves. */
function streamHuge(res: http.ServerResponse, total: number, state: { sent: number }) {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  res.writeHead(200, { 'content-type': 'text/html' });
  const pump = () => {
    while (state.sent < total && !res.destroyed) {
      state.sent += chunk.length;
      if (!res.write(chunk)) return res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

function drip(res: http.ServerResponse, intervalMs: number) {
  res.writeHead(200, { 'content-type': 'text/html' });
  const timer = setInterval(() => res.write('x'), intervalMs);
  res.on('close', () => clearInterval(timer));
}

async function expectFetchError(promise: Promise<unknown>, code: string, message?: RegExp): Promise<FetchError> {
  const err = await promise.then(
    () => assert.fail(`expected a ${code} error`),
    (e: unknown) => e,
  );
  assert.ok(err instanceof FetchError, String(err));
  assert.equal(err.code, code, err.message);
  if (message) assert.match(err.message, message);
  return err;
}

describe('fetcher against hostile servers', () => {
  let site: TestSite;
  let fetcher: Fetcher;
  const huge = { sent: 0 };
  let redirectHops = 0;

  before(async () => {
    site = await startSite(
      routes({
        '/loop-a': { status: 302, headers: { location: '/loop-b' } },
        '/loop-b': { status: 302, headers: { location: '/loop-a' } },
        '/self': { status: 301, headers: { location: '/self#again' } },
        '/to-ftp': { status: 302, headers: { location: 'ftp://example.com/file' } },
        '/huge': (_req, res) => streamHuge(res, 100 * 1024 * 1024, huge),
        '/bomb': { headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' }, body: gzipBomb() },
        '/drip': (_req, res) => drip(res, 1000),
        '/hang': () => {},
        '/ok': 'still fine',
        ...Object.fromEntries(
          Array.from({ length: 20 }, (_, i) => [
            `/chain/${i}`,
            (_req: http.IncomingMessage, res: http.ServerResponse) => {
              redirectHops++;
              res.writeHead(302, { location: `/chain/${i + 1}` });
              res.end();
            },
          ]),
        ),
      }),
    );
    fetcher = createFetcher({ allowPrivate: true, limits: { requestTimeoutMs: 1500 } });
  });
  after(async () => {
    await fetcher.close();
    await site.close();
  });

  test('a redirect loop ends with a clear error', async () => {
    await expectFetchError(fetcher.fetch(site.origin + '/loop-a'), 'REDIRECT_LOOP', /Redirect loop: .*\/loop-a was already visited/);
    await expectFetchError(fetcher.fetch(site.origin + '/self'), 'REDIRECT_LOOP');
  });

  test('an endless redirect chain stops after 5 hops', async () => {
    redirectHops = 0;
    await expectFetchError(fetcher.fetch(site.origin + '/chain/0'), 'TOO_MANY_REDIRECTS', /Too many redirects \(more than 5\)/);
    assert.equal(redirectHops, 6);
  });

  test('a redirect to another scheme is refused', async () => {
    await expectFetchError(fetcher.fetch(site.origin + '/to-ftp'), 'BAD_URL');
  });

  test('a 100 MB page is cut off at the 10 MB cap and the download stops', async () => {
    await expectFetchError(fetcher.fetch(site.origin + '/huge'), 'TOO_LARGE', /Response larger than 10 MB/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(huge.sent < 30 * 1024 * 1024, `server sent ${huge.sent} bytes`);
  });

  test('a gzip bomb is stopped at the decompressed-size cap', async () => {
    await expectFetchError(fetcher.fetch(site.origin + '/bomb'), 'TOO_LARGE');
  });

  test('a server dripping one byte a second is cut off by the total time cap', async () => {
    const started = Date.now();
    await expectFetchError(fetcher.fetch(site.origin + '/drip'), 'TIMEOUT', /Timed out after 1.5 s/);
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 1400 && elapsed < 3000, `took ${elapsed} ms`);
  });

  test('a server that never answers times out', async () => {
    await expectFetchError(fetcher.fetch(site.origin + '/hang', { timeoutMs: 300 }), 'TIMEOUT');
  });

  test("the caller's AbortSignal ends a request", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expectFetchError(fetcher.fetch(site.origin + '/hang', { signal: controller.signal }), 'ABORTED');
  });

  test('a connection refused is reported as such', async () => {
    const closed = await startSite(() => {});
    await closed.close();
    await expectFetchError(fetcher.fetch(closed.origin + '/'), 'CONNECTION', /Connection refused/);
  });

  test('after all that, the same fetcher still works', async () => {
    const res = await fetcher.fetch(site.origin + '/ok');
    assert.equal(res.text(), 'still fine');
  });
});
