import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Worker } from 'node:worker_threads';
import { generateLlmsTxt, type PageInput } from '../llms-txt/index.ts';
import { readHtml } from '../llms-txt/reading.ts';
import { generateInThread, type GenerationSettings } from './generation-thread.ts';
import { createGenerationThreads } from './generation-threads.ts';
import type { CollectedPage, CollectedPages } from './page-collection.ts';
import { GENERATION_THREAD_NICENESS, PAGE_THREAD_NICENESS } from './thread-priority.ts';
import { niceOf, workerThreads } from './testing/threads.ts';

const SITE = 'https://docs.example.com/';
// Beyond ASCII, so that a text cut at a wrong byte would show: accents, CJK, an emoji.
const page = (path: string, title: string, text: string) =>
  `<html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${text}</p><p>Second paragraph of ${title}, naïve café 文档 🚀.</p></main></body></html>`;
const PAGES: Array<[string, string]> = [
  ['', page('', 'Docs', 'The documentation of the example product, for its users. <a href="/guide">Guide</a> <a href="/api">API</a>')],
  ['guide', page('guide', 'Guide', 'How to install and configure the product — step by step, déjà vu.')],
  ['api', page('api', 'API reference', 'Every call the product answers, with its parameters: 参数 and results.')],
];

/** The pages as the crawler hands them over; `read`: with their readings, as the page pool makes them. */
function collected(pageList = PAGES, { read = false } = {}): CollectedPages {
  const pages: CollectedPage[] = pageList.map(([path, html]) => ({
    url: SITE + path,
    html,
    lastModified: null,
    ownMarkdown: null,
    reading: read ? Promise.resolve(readHtml(html, SITE + path)) : undefined,
    response: { body: Buffer.from(html), contentType: 'text/html; charset=utf-8' },
  }));
  return {
    pages: (async function* () {
      yield* pages;
    })(),
    discovered: Promise.resolve(pages.map((p) => ({ url: p.url, source: 'crawl' as const, lastModified: '2025-01-02' }))),
    failures: new Map(),
    rendering: { rendered: 0, looksScriptRendered: false },
    markdownCopies: null,
  };
}

const settings: GenerationSettings = {
  siteUrl: SITE,
  method: 'simple',
  maxPages: 10,
  includeModificationDate: false,
  fullText: true,
  maxFullTextTokens: null,
  describerKind: null,
  extractorConcurrency: null,
  hostedMarkdownBase: null,
};

const MEMORY_MB = 1024;
const threads = createGenerationThreads(MEMORY_MB);
after(() => threads.close());

/** The threads jobs take, in order. */
const taken: Worker[] = [];
const take = threads.take.bind(threads);
threads.take = (limit) => {
  const worker = take(limit);
  taken.push(worker);
  return worker;
};

/** A job's use of its thread: the files, then their sizes (see store in generation-job.ts). */
async function run(signal = new AbortController().signal, { pages = collected(), jobSettings = settings, on = threads } = {}) {
  const files = await generateInThread(pages, jobSettings, { threads: on, describer: null, memoryMb: MEMORY_MB, signal, onProgress: () => {} });
  return { result: files.result, sizes: await files.sizes };
}

describe('generateInThread', () => {
  it('hands back the files the generator writes on the event loop, texts intact, and sizes them', async () => {
    const inline = await generateLlmsTxt(
      PAGES.map(([path, html]): PageInput => ({ url: SITE + path, html, lastModified: null })),
      { siteUrl: SITE, method: 'simple', maxPages: 10, fullText: true },
    );
    const files = await run();
    assert.equal(files.result.llmsTxt, inline.llmsTxt);
    assert.equal(files.result.llmsFullTxt, inline.llmsFullTxt);
    assert.deepEqual(files.result.pages.map((p) => p.markdown), inline.pages.map((p) => p.markdown));
    assert.match(files.result.llmsFullTxt!, /naïve café 文档 🚀/);
    const { sizes } = files;
    assert.equal(sizes.llmsTxt.bytes, Buffer.byteLength(inline.llmsTxt));
    assert.equal(sizes.llmsFullTxt!.bytes, Buffer.byteLength(inline.llmsFullTxt!));
    assert.ok(sizes.llmsFullTxt!.tokens > 0);
  });

  it("runs 5 nicer than the event loop, which keeps its priority (the crawl's reading thread is served first)", async () => {
    const before = new Set(workerThreads());
    const fresh = createGenerationThreads(MEMORY_MB);
    try {
      await fresh.loaded;
      const eventLoop = niceOf(String(process.pid));
      const started = workerThreads().filter((task) => !before.has(task));
      assert.deepEqual(started.map(niceOf), [Math.min(19, eventLoop + GENERATION_THREAD_NICENESS)]);
      assert.ok(GENERATION_THREAD_NICENESS < PAGE_THREAD_NICENESS, 'served before the extracting threads');
    } finally {
      await fresh.close();
    }
  });

  it('tells once its waiting thread has loaded its code and tokenizer, the thread still waiting', async () => {
    const fresh = createGenerationThreads(MEMORY_MB);
    try {
      await fresh.loaded;
      const thread = fresh.take(MEMORY_MB);
      assert.notEqual(thread.threadId, -1, 'the thread has not ended');
      fresh.give(thread, MEMORY_MB);
    } finally {
      await fresh.close();
    }
  });

  it('warms the first thread up when asked, and its first job gets the files and sizes a cold thread gives', async () => {
    const warm = createGenerationThreads(MEMORY_MB, { warm: true });
    try {
      await warm.loaded;
      const [cold, warmed] = [await run(), await run(undefined, { on: warm })];
      assert.equal(warmed.result.llmsTxt, cold.result.llmsTxt);
      assert.equal(warmed.result.llmsFullTxt, cold.result.llmsFullTxt);
      assert.deepEqual(warmed.sizes, cold.sizes);
    } finally {
      await warm.close();
    }
  });

  it('describes a simple job\'s pages from their readings, reading the main content of those whose facts say nothing', async () => {
    // A contents page: its links sit in a list, no paragraph of its own; its main content's headings say what it covers.
    const contents = `<html lang="en"><head><title>Tutorials</title></head><body><nav><ul><li><a href="/">Docs</a></li></ul></nav><main><h1>Tutorials</h1><h2>First steps</h2><ul><li><a href="/guide">Guide</a></li></ul><h2>Going further</h2><ul><li><a href="/api">API</a></li></ul></main></body></html>`;
    const pages: Array<[string, string]> = [...PAGES, ['tutorials', contents]];
    const simple = { ...settings, fullText: false };
    const inline = await generateLlmsTxt(
      pages.map(([path, html]): PageInput => ({ url: SITE + path, html, lastModified: null })),
      { siteUrl: SITE, method: 'simple', maxPages: 10 },
    );
    const files = await run(undefined, { pages: collected(pages, { read: true }), jobSettings: simple });
    assert.equal(files.result.llmsTxt, inline.llmsTxt);
    assert.match(files.result.llmsTxt, /\[Tutorials\]\(https:\/\/docs\.example\.com\/tutorials\): .*First steps/);
    assert.match(files.result.llmsTxt, /\[Guide\]\(https:\/\/docs\.example\.com\/guide\): How to install/);
  });

  it('runs the next job on the same thread once a job completed', async () => {
    const before = taken.length;
    await run();
    await run();
    assert.equal(taken.length, before + 2);
    assert.equal(taken[before].threadId, taken[before + 1].threadId);
  });

  it('adds no listener to the thread for each job it runs', async () => {
    await run();
    const thread = taken.at(-1)!;
    const listeners = () => ['exit', 'error', 'message'].map((event) => thread.listenerCount(event));
    const afterOne = listeners();
    for (let n = 0; n < 12; n++) await run();
    assert.equal(taken.at(-1), thread);
    assert.deepEqual(listeners(), afterOne);
  });

  it('ends the thread of a job that was stopped, and the next job completes on another', async () => {
    const stop = new AbortController();
    const stopped = run(stop.signal);
    stop.abort(new Error('stopped'));
    await assert.rejects(stopped, /stopped/);
    const ended = taken.at(-1)!;
    await new Promise((resolve) => (ended.threadId === -1 ? resolve(null) : ended.once('exit', resolve)));
    const next = await run();
    assert.match(next.result.llmsTxt, /# Docs/);
    assert.notEqual(taken.at(-1), ended);
  });
});
