import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import { rewritableSite } from '../testing/test-site.ts';
import { eq } from '../db/orm.ts';
import { siteFileParts } from '../db/schema.ts';
import { waitForGeneration } from '../testing/jobs.ts';
import { describeOnEachDatabase, type TestService } from '../testing/service.ts';
import { FILE_PART_CHARS, fileParts } from './site-files.ts';

describe('fileParts', () => {
  it('cuts a text every so many characters, keeps surrogate pairs whole, and gives one part for an empty text', () => {
    assert.deepEqual([...fileParts('abcdefg', 3)], ['abc', 'def', 'g']);
    assert.deepEqual([...fileParts('abcdef', 3)], ['abc', 'def']);
    assert.deepEqual([...fileParts('ab🎉cd', 3)], ['ab', '🎉c', 'd']);
    assert.deepEqual([...fileParts('', 3)], ['']);
  });
});

/** A site of four long pages, the guide's words chosen by the test. */
const site = rewritableSite();
const { pages } = site;

function publish(guideWord: string) {
  const longPage = (title: string, word: string) =>
    `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${Array.from(
      { length: 700 },
      (_, n) => `<p>Paragraph ${n} of the ${title.toLowerCase()}: ${word} 🎉 explains one more step of the setup, with its options and what each one changes.</p>`,
    ).join('\n')}</main></body></html>`;
  pages['/'] = `<!doctype html><html><head><title>Acme</title></head><body><h1>Acme</h1><p>Acme makes the Acme command line tool for teams.</p><a href="/guide.html">Guide</a> <a href="/reference.html">Reference</a> <a href="/faq.html">FAQ</a> <a href="/tutorial.html">Tutorial</a></body></html>`;
  pages['/guide.html'] = longPage('Guide', guideWord);
  pages['/reference.html'] = longPage('Reference', 'reference');
  pages['/faq.html'] = longPage('FAQ', 'answer');
  pages['/tutorial.html'] = longPage('Tutorial', 'lesson');
}

async function generateFullText(service: TestService, apiKey: string) {
  const start = await service.request('POST', '/api/v1/generate', {
    token: apiKey,
    body: { url: `${site.origin}/`, options: { generationMethod: 'simple', maxUrls: 10, showFullText: true, cacheAge: 0 } },
  });
  assert.equal(start.status, 200, start.text);
  const job = await waitForGeneration(service, apiKey, start.body.jobId);
  assert.equal(job.status, 'completed', job.error);
  return job;
}

describeOnEachDatabase('Hosted files', (service) => {
  test('an llms-full.txt of several parts is served whole, and kept whole as the previous file', async () => {
    const { apiKey } = await service().createAccount();
    publish('first');
    const first = await generateFullText(service(), apiKey);
    const response = await fetch(first.fullTextUrl);
    assert.equal(response.status, 200);
    const firstText = await response.text();
    assert.ok(firstText.length > 2 * FILE_PART_CHARS, `${firstText.length} characters make three parts or more`);
    assert.match(firstText, /Paragraph 699 of the guide: first 🎉/);
    assert.match(firstText, /Paragraph 699 of the faq: answer 🎉/);
    assert.equal(first.files.llmsFullTxt.bytes, Buffer.byteLength(firstText));
    const parts = await service().db.select().from(siteFileParts).where(eq(siteFileParts.siteId, first.siteId));
    const fullParts = parts.filter((part) => part.kind === 'full').sort((a, b) => a.part - b.part);
    assert.equal(fullParts.length, Math.ceil(firstText.length / FILE_PART_CHARS));
    assert.equal(fullParts.map((part) => part.content).join(''), firstText);
    // Their markdown went in several statements (at most a part's worth each): every page is mapped.
    const mapped = await service().request('GET', `/api/v1/sites/${first.siteId}/urls?limit=100`, { token: apiKey });
    assert.deepEqual(mapped.body.urls.map((url: { url: string }) => new URL(url.url).pathname).sort(), ['/', '/faq.html', '/guide.html', '/reference.html', '/tutorial.html']);

    const etag = response.headers.get('etag')!;
    assert.equal((await fetch(first.fullTextUrl, { headers: { 'if-none-match': etag } })).status, 304);
    const stale = await fetch(first.fullTextUrl, { headers: { 'if-none-match': '"an older version"' } });
    assert.deepEqual([stale.status, stale.headers.get('etag'), await stale.text()], [200, etag, firstText]);
    const head = await fetch(first.fullTextUrl, { method: 'HEAD' });
    assert.deepEqual([head.status, head.headers.get('etag'), await head.text()], [200, etag, '']);

    publish('second');
    const second = await generateFullText(service(), apiKey);
    assert.equal(second.siteId, first.siteId);
    const secondText = await (await fetch(second.fullTextUrl)).text();
    assert.match(secondText, /Paragraph 699 of the guide: second 🎉/);
    assert.equal(await (await fetch(`${second.fullTextUrl}&previous=true`)).text(), firstText);
    const kinds = (await service().db.select().from(siteFileParts).where(eq(siteFileParts.siteId, first.siteId))).map((part) => part.kind);
    assert.deepEqual([...new Set(kinds)].sort(), ['full', 'llms', 'previous-full', 'previous-llms']);
  });
}, { env: { CRAWL_ALLOW_PRIVATE: 'true' } });
