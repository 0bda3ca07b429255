import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { describe, it, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq } from '../db/orm.ts';
import { siteFiles, sites } from '../db/schema.ts';
import { describeOnEachDatabase, type TestService } from '../testing/service.ts';
import { matchesIfNoneMatch, negotiateEncoding } from './served-files.ts';
import { writeSiteFile } from './site-files.ts';

describe('Content negotiation of hosted files', () => {
  it('picks brotli, then gzip, by the q-values of Accept-Encoding; identity otherwise', () => {
    assert.equal(negotiateEncoding('gzip, deflate, br'), 'br');
    assert.equal(negotiateEncoding('gzip, br;q=0.5'), 'gzip');
    assert.equal(negotiateEncoding('br;q=0, gzip;q=0'), 'identity');
    assert.equal(negotiateEncoding('deflate'), 'identity');
    assert.equal(negotiateEncoding(undefined), 'identity');
  });

  it('matches If-None-Match by weak comparison, in a list or as *', () => {
    assert.ok(matchesIfNoneMatch('"a", W/"b-gzip"', '"b-gzip"'));
    assert.ok(matchesIfNoneMatch('*', '"b"'));
    assert.ok(!matchesIfNoneMatch('"b"', '"b-gzip"'));
  });
});

interface Download {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** the body as received (still compressed); empty with `digestOnly` */
  body: Buffer;
  sha256: string;
}

/** A raw HTTP download (no decompression); with `digestOnly` the body is hashed as it arrives and not kept. */
function download(url: string, headers: Record<string, string> = {}, { method = 'GET', digestOnly = false } = {}): Promise<Download> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent: false }, (res) => {
      const hash = createHash('sha256');
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        if (!digestOnly) chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks), sha256: hash.digest('hex') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A site whose llms-full.txt, stored directly, is `content`. */
async function storeFullText(service: TestService, content: string): Promise<string> {
  const { id: accountId } = await service.createAccount();
  const siteId = randomUUID();
  await service.db.insert(sites).values({ id: siteId, accountId, url: `https://${siteId}.example.com/`, status: 'completed' });
  await service.db.transaction((tx) => writeSiteFile(tx, siteId, 'full', content, { bytes: Buffer.byteLength(content), tokens: 1 }));
  return `${service.baseUrl}/api/v1/file/${siteId}?full=true`;
}

/** Several megabytes of text, multi-byte characters included, different on every call. */
function largeText(megabytes: number): string {
  const line = (n: number) => `Line ${n}: ${randomUUID()} — the configuration reference, with 🎉 and ünïcödé in it.\n`;
  const lines: string[] = [];
  for (let n = 0, size = 0; size < megabytes * 1024 * 1024; n++) {
    lines.push(line(n));
    size += Buffer.byteLength(lines[n]);
  }
  return lines.join('');
}

const decoders: Record<string, (bytes: Buffer) => Buffer> = { br: brotliDecompressSync, gzip: gunzipSync };

describeOnEachDatabase('Hosted files at scale', (service) => {
  test('a file is written while its size is still being counted; a size that never comes leaves the stored file as it was', async () => {
    const first = largeText(1);
    const url = await storeFullText(service(), first);
    const siteId = new URL(url).pathname.split('/').at(-1)!;
    const stored = () => service().db.select({ bytes: siteFiles.bytes, tokens: siteFiles.tokens }).from(siteFiles).where(eq(siteFiles.siteId, siteId));

    const second = largeText(1);
    const size = new Promise<{ bytes: number; tokens: number }>((resolve) => setTimeout(() => resolve({ bytes: Buffer.byteLength(second), tokens: 7 }), 50));
    await service().db.transaction((tx) => writeSiteFile(tx, siteId, 'full', second, size));
    assert.ok((await download(url)).body.equals(Buffer.from(second)));
    assert.deepEqual(await stored(), [{ bytes: Buffer.byteLength(second), tokens: 7 }]);

    const failed = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the thread ended')), 50));
    await assert.rejects(service().db.transaction((tx) => writeSiteFile(tx, siteId, 'full', largeText(1), failed)), /the thread ended/);
    assert.ok((await download(url)).body.equals(Buffer.from(second)));
    assert.deepEqual(await stored(), [{ bytes: Buffer.byteLength(second), tokens: 7 }]);
  });

  test('brotli and gzip are negotiated, each with an ETag of its own; 304 and HEAD answer each representation', async () => {
    const content = largeText(2);
    const expected = Buffer.from(content);
    const url = await storeFullText(service(), content);
    const etags = new Set<string>();
    for (const [acceptEncoding, encoding] of [['', undefined], ['gzip', 'gzip'], ['br, gzip', 'br'], ['gzip;q=1, br;q=0.1', 'gzip'], ['deflate', undefined]] as const) {
      const headers: Record<string, string> = acceptEncoding ? { 'accept-encoding': acceptEncoding } : {};
      const got = await download(url, headers);
      assert.equal(got.status, 200, acceptEncoding);
      assert.equal(got.headers['content-encoding'], encoding, acceptEncoding);
      assert.equal(got.headers.vary, 'Accept-Encoding', acceptEncoding);
      assert.equal(got.headers['content-type'], 'text/plain; charset=utf-8');
      assert.ok(encoding === undefined ? got.body.equals(expected) : decoders[encoding](got.body).equals(expected), acceptEncoding);
      if (encoding) assert.ok(got.body.length < expected.length / 2, `${encoding} compresses`);
      const etag = got.headers.etag as string;
      etags.add(etag);

      const unchanged = await download(url, { ...headers, 'if-none-match': etag });
      assert.deepEqual([unchanged.status, unchanged.body.length, unchanged.headers.etag, unchanged.headers.vary], [304, 0, etag, 'Accept-Encoding'], acceptEncoding);
      const head = await download(url, headers, { method: 'HEAD' });
      assert.deepEqual([head.status, head.body.length, head.headers.etag, head.headers['content-encoding'], Number(head.headers['content-length'])], [200, 0, etag, encoding, got.body.length], acceptEncoding);
    }
    assert.equal(etags.size, 3, 'identity, gzip and br: three ETags');
    // An ETag of another encoding is another representation: the whole file is sent.
    const [identityEtag] = etags;
    const other = await download(url, { 'accept-encoding': 'gzip', 'if-none-match': identityEtag });
    assert.equal(other.status, 200);
    assert.ok(gunzipSync(other.body).equals(expected));
  });

  test('concurrent downloads of a large file share its bytes: memory grows far less than a copy per download', async () => {
    const downloads = 50;
    const content = largeText(6);
    const fileBytes = Buffer.byteLength(content);
    const sha256 = createHash('sha256').update(content).digest('hex');
    const url = await storeFullText(service(), content);
    assert.equal((await download(url, {}, { digestOnly: true })).sha256, sha256);

    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const identity = await Promise.all(Array.from({ length: downloads }, () => download(url, {}, { digestOnly: true })));
    clearInterval(sampler);
    assert.deepEqual(new Set(identity.map((got) => `${got.status} ${got.sha256}`)), new Set([`200 ${sha256}`]));
    const growth = peak - baseline;
    // A copy per download would grow it by their sum; sockets' buffers on a loaded machine reach a tenth of it.
    assert.ok(growth < (fileBytes * downloads) / 5, `RSS grew ${(growth / 2 ** 20).toFixed(0)} MB for ${downloads} downloads of ${(fileBytes / 2 ** 20).toFixed(0)} MB`);

    // The first downloads of each compressed form, all at once, get it whole.
    const compressed = await Promise.all(Array.from({ length: 20 }, (_, n) => download(url, { 'accept-encoding': n % 2 ? 'gzip' : 'br' })));
    for (const got of compressed) {
      assert.equal(got.status, 200);
      assert.equal(createHash('sha256').update(decoders[got.headers['content-encoding'] as string](got.body)).digest('hex'), sha256);
    }
  });
});
