import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { getHeapStatistics } from 'node:v8';
import { createPagePool, defaultPageThreads, pageReader, type PagePool } from './page-pool.ts';
import { read, releaseMemory } from './page-worker.ts';
import { manualPage } from './made-up-manual.ts';
import { pageContentHash } from '../llms-txt/index.ts';
import { decodeBody } from '../crawl/charset.ts';
import { readCrawledPage } from './crawled-page-reading.ts';
import { PAGE_THREAD_NICENESS } from './thread-priority.ts';
import { niceOf, workerThreads } from './testing/threads.ts';

const threadCount = () => workerThreads().length;

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 10_000) assert.fail(`${what} within 10 s`);
    await sleep(20);
  }
}

/** Runs `use` with the pool, then closes it. */
async function closing(pool: PagePool, use: (pool: PagePool) => Promise<void>): Promise<void> {
  try {
    await use(pool);
  } finally {
    await pool.close();
  }
}

const ONE_EACH = { reading: 1, extracting: 1 };

const guide = (n: number) =>
  `<html><head><title>Guide ${n}</title></head><body><main><h1>Guide ${n}</h1><p>Guide ${n} explains how to configure the thing, step by step, with examples.</p></main></body></html>`;
const guideUrl = (n: number) => `https://example.com/guide/${n}`;

/** A page's body as the fetcher hands it over: UTF-8 bytes, unless a Content-Type says otherwise. */
const fetched = (html: string | Buffer, contentType = 'text/html; charset=utf-8') => ({ body: Buffer.from(html), contentType });

describe('the page pool', () => {
  it("reads a page's links, outline and hash in its thread as the event loop reads them", async () => {
    await closing(createPagePool(ONE_EACH), async (pool) => {
      const html = manualPage(3);
      const url = 'https://docs.example/manual/page-3.html';
      const page = fetched(html);
      const inThread = await pool.read(page, url, { maxLinks: 100 });
      assert.deepEqual(inThread, readCrawledPage(html, url, { maxLinks: 100 }));
      assert.ok(inThread.links.links.includes('https://docs.example/manual/section-3-0.html'));
      assert.equal(inThread.outline.links.filter((link) => link.block !== 'content').length, 30);
      assert.equal(inThread.contentHash, pageContentHash(html));
      // Hashed from its bytes where they are its text's UTF-8, from its text where they are not: the same hash either way.
      for (const [body, contentType] of [[Buffer.from(`<p>Übersicht — café ${html}</p>`), 'text/html'], [Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'text/html; charset=iso-8859-1']] as const) {
        assert.equal((await pool.read({ body, contentType }, url, {})).contentHash, pageContentHash(decodeBody(body, contentType)));
      }
      assert.equal(page.body.toString(), html, 'the page keeps its bytes');
    });
  });

  it("decodes a page's bytes in its thread by the charset its Content-Type or <meta> names", async () => {
    await closing(createPagePool(ONE_EACH), async (pool) => {
      const title = (text: string) => Buffer.concat([Buffer.from('<html><head><title>Caf'), Buffer.from(text, 'latin1'), Buffer.from('</title></head><body><p>Menu.</p></body></html>')]);
      const byHeader = await pool.read(fetched(title('\xe9 \x93q\x94'), 'text/html; charset=windows-1252'), 'https://example.com/a', {});
      const byMeta = await pool.read(fetched(Buffer.concat([Buffer.from('<meta charset="iso-8859-1">'), title('\xe9')]), 'text/html'), 'https://example.com/b', {});
      assert.equal(byHeader.outline.documentTitle, 'Caf\u00e9 \u201cq\u201d');
      assert.equal(byMeta.outline.documentTitle, 'Caf\u00e9');
    });
  });

  it('ends its threads once asked and idle after extracting pages, and starts them again for the next page', async () => {
    const before = threadCount();
    await closing(createPagePool({ reading: 1, extracting: 2 }), async (pool) => {
      const pages = await Promise.all([1, 2, 3, 4].map((n) => pool.extract(guide(n), guideUrl(n))));
      assert.deepEqual(pages.map((extracted) => extracted.markdown.split(' ')[1]), ['1', '2', '3', '4']);
      assert.ok(threadCount() > before, 'extraction threads run');
      pool.retireWhenIdle();
      await until(() => threadCount() === before, 'the threads end');
      assert.match((await pool.extract(guide(5), guideUrl(5))).markdown, /^Guide 5 explains/);
    });
  });

  it('keeps its thread, warm for the next job, when it only read links and outlines', async () => {
    const before = threadCount();
    await closing(createPagePool(ONE_EACH), async (pool) => {
      await Promise.all([1, 2, 3].map((n) => pool.read(fetched(manualPage(n)), `https://docs.example/page-${n}.html`, {})));
      pool.retireWhenIdle();
      await sleep(500);
      assert.equal(threadCount(), before + 1);
    });
  });

  it('lets a page being extracted finish before its thread ends', async () => {
    const before = threadCount();
    await closing(createPagePool(ONE_EACH), async (pool) => {
      const extracting = pool.extract(guide(1), guideUrl(1));
      pool.retireWhenIdle();
      assert.match((await extracting).markdown, /^Guide 1 explains/);
      await until(() => threadCount() === before, 'the thread ends');
    });
  });

  it('starts a warm thread at once, before any page', async () => {
    const before = threadCount();
    await closing(createPagePool(ONE_EACH, { warm: true }), async () => {
      await until(() => threadCount() === before + 1, 'the thread starts');
    });
  });

  it("leaves reading to the event loop for a job whose pages' content the threads extract", () => {
    const pool = createPagePool(ONE_EACH);
    assert.equal(pageReader(pool, { extractsContent: false }), pool.read);
    assert.equal(pageReader(pool, { extractsContent: true }), undefined);
    assert.equal(pageReader(undefined, { extractsContent: false }), undefined);
  });

  it('reads on a thread per core but one, and extracts on a thread per core below the priority of the event loop', async () => {
    assert.deepEqual([1, 2, 4, 8].map(defaultPageThreads), [1, 2, 4, 8].map((cores) => ({ reading: Math.max(1, cores - 1), extracting: cores })));
    const eventLoop = niceOf(String(process.pid));
    const started = new Set(workerThreads());
    const niceOfNewThread = () => {
      const threads = workerThreads().filter((task) => !started.has(task));
      threads.forEach((task) => started.add(task));
      return threads.map(niceOf);
    };
    await closing(createPagePool(ONE_EACH), async (pool) => {
      await pool.read(fetched(manualPage(1)), 'https://docs.example/page-1.html', {});
      assert.deepEqual(niceOfNewThread(), [eventLoop], 'the reading thread');
      await pool.extract(guide(1), guideUrl(1));
      assert.deepEqual(niceOfNewThread(), [Math.min(19, eventLoop + PAGE_THREAD_NICENESS)], 'the extracting thread');
      assert.equal(niceOf(String(process.pid)), eventLoop, 'the event loop keeps its priority');
    });
  });
});


describe('the warm-up', () => {
  it("reads a made-up manual's page as the outline reads a real one: contents, prose and chrome apart", () => {
    const { links, outline } = read({ bytes: Buffer.from(manualPage(7)), contentType: 'text/html', url: 'https://docs.example/page-7.html', linkOptions: {} });
    assert.equal(outline.documentTitle, '7. Chapter 7');
    assert.equal(outline.metaDescription, 'What chapter 7 is about.');
    assert.deepEqual(outline.links.filter((link) => link.block !== 'content').slice(0, 2).map((link) => link.text), ['7.0. Section 0', '7.1. Section 1']);
    assert.ok(outline.links.some((link) => link.block === 'content' && link.text === 'another page'));
    // The navigation bars are chrome: the crawler follows their links, the outline does not list them.
    assert.ok(links.links.includes('https://docs.example/page-8.html'));
    assert.ok(!outline.links.some((link) => link.text === 'Next'));
    assert.match(outline.firstParagraph, /^Paragraph 0 explains the setting_0/);
  });
});

describe("an extraction thread's last task (releaseMemory)", () => {
  it('gives the heap its garbage back', () => {
    // Objects that outlive a few young-generation collections, as a page's DOM does, then become garbage.
    let rows: Array<{ n: number; text: string }> | null = Array.from({ length: 400_000 }, (_, n) => ({ n, text: `row ${n}` }));
    const grown = getHeapStatistics().total_heap_size;
    assert.equal(rows.length, 400_000);
    rows = null;
    releaseMemory();
    const released = getHeapStatistics().total_heap_size;
    assert.ok(grown - released > 10 * 2 ** 20, `the heap went from ${mb(grown)} to ${mb(released)}`);
  });
});

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
