import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { createFetcher, type Fetcher } from './fetcher.ts';
import { USER_AGENT } from './limits.ts';
import { routes, startSite, type TestSite } from '../testing/test-site.ts';

const CAFE_1252 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x93, 0x71, 0x94, 0x20, 0x80]); // café “q” €

describe('fetcher', () => {
  let site: TestSite;
  let fetcher: Fetcher;
  const seenAgents: string[] = [];
  const html = '<html><body>Hello, wörld</body></html>';

  before(async () => {
    site = await startSite(
      routes({
        '/': (req, res) => {
          seenAgents.push(req.headers['user-agent'] ?? '');
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(html);
        },
        '/gzip': { headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' }, body: zlib.gzipSync(html) },
        '/br': { headers: { 'content-type': 'text/html', 'content-encoding': 'br' }, body: zlib.brotliCompressSync(html) },
        '/deflate': { headers: { 'content-type': 'text/html', 'content-encoding': 'deflate' }, body: zlib.deflateSync(html) },
        '/deflate-raw': { headers: { 'content-type': 'text/html', 'content-encoding': 'deflate' }, body: zlib.deflateRawSync(html) },
        '/cp1252-header': { headers: { 'content-type': 'text/html; charset=windows-1252' }, body: CAFE_1252 },
        '/cp1252-meta': {
          headers: { 'content-type': 'text/html' },
          body: Buffer.concat([Buffer.from('<html><head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"></head><body>'), CAFE_1252]),
        },
        '/latin2-meta': {
          headers: { 'content-type': 'text/html' },
          body: Buffer.concat([Buffer.from('<meta charset="iso-8859-2">'), Buffer.from([0xa3, 0xf3, 0xdf])]), // Łóß
        },
        '/bom': { headers: { 'content-type': 'text/html; charset=windows-1252' }, body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('café')]) },
        '/invalid-utf8': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: Buffer.from([0x61, 0xff, 0xfe, 0xc3, 0x62]) },
        '/pdf': { headers: { 'content-type': 'application/pdf' }, body: Buffer.alloc(100_000) },
        '/gone': { status: 410, body: 'gone' },
      }),
    );
    fetcher = createFetcher({ allowPrivate: true });
  });
  after(async () => {
    await fetcher.close();
    await site.close();
  });

  test('fetches a page with the bot user agent and reports status, type, final URL and text', async () => {
    const res = await fetcher.fetch(site.origin + '/');
    assert.equal(res.status, 200);
    assert.equal(res.url, site.origin + '/');
    assert.equal(res.contentType, 'text/html; charset=utf-8');
    assert.equal(res.text(), html);
    assert.deepEqual(res.redirects, []);
    assert.equal(seenAgents.at(-1), USER_AGENT);
  });

  test('follows a 301/302/307 chain with relative and absolute Locations', async () => {
    const local = await startSite(
      routes({
        '/r1': { status: 301, headers: { location: '/r2' } },
        '/r2': { status: 302, headers: { location: 'r3?b=2&a=1' } },
        '/r3?a=1&b=2': (_req, res) => {
          res.writeHead(307, { location: `${local.origin}/final#frag` });
          res.end();
        },
        '/final': 'final page',
      }),
    );
    try {
      const res = await fetcher.fetch(local.origin + '/r1');
      assert.equal(res.url, local.origin + '/final');
      assert.equal(res.text(), 'final page');
      assert.deepEqual(res.redirects, [local.origin + '/r1', local.origin + '/r2', local.origin + '/r3?a=1&b=2']);
    } finally {
      await local.close();
    }
  });

  for (const path of ['/gzip', '/br', '/deflate', '/deflate-raw']) {
    test(`decodes Content-Encoding (${path.slice(1)})`, async () => {
      const res = await fetcher.fetch(site.origin + path);
      assert.equal(res.text(), html);
    });
  }

  test('decodes windows-1252 named in the Content-Type header (curly quotes and euro, not C1 controls)', async () => {
    const res = await fetcher.fetch(site.origin + '/cp1252-header');
    assert.equal(res.text(), 'café \u201cq\u201d \u20ac');
  });

  test('decodes a charset declared by <meta http-equiv> (iso-8859-1 read as windows-1252, as browsers do)', async () => {
    const res = await fetcher.fetch(site.origin + '/cp1252-meta');
    assert.ok(res.text().endsWith('<body>café \u201cq\u201d \u20ac'), res.text());
  });

  test('decodes a charset declared by <meta charset>', async () => {
    const res = await fetcher.fetch(site.origin + '/latin2-meta');
    assert.ok(res.text().endsWith('Łóß'), res.text());
  });

  test('a UTF-8 BOM wins over the header charset', async () => {
    assert.equal((await fetcher.fetch(site.origin + '/bom')).text(), 'café');
  });

  test('invalid UTF-8 becomes replacement characters instead of an error', async () => {
    assert.equal((await fetcher.fetch(site.origin + '/invalid-utf8')).text(), 'a\ufffd\ufffd\ufffdb');
  });

  test('does not download a body the caller does not want', async () => {
    const res = await fetcher.fetch(site.origin + '/pdf', { wantBody: (type) => type?.startsWith('text/html') ?? false });
    assert.equal(res.status, 200);
    assert.equal(res.bodySkipped, true);
    assert.equal(res.body.length, 0);
  });

  test('returns error statuses without their body', async () => {
    const res = await fetcher.fetch(site.origin + '/gone');
    assert.equal(res.status, 410);
    assert.equal(res.body.length, 0);
  });

  test('truncates instead of failing when asked to', async () => {
    const res = await fetcher.fetch(site.origin + '/pdf', { maxBytes: 1000, truncate: true });
    assert.equal(res.body.length, 1000);
  });
});
