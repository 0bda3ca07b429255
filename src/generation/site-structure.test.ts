// The llms.txt as a map of the site, through the real API, on small sites served here: sections
// from a flat site's navigation, one language behind a meta refresh, `/` and `/index.html` as one
// page, a footer every page repeats, a reference page's purpose line, a contents page, and the
// same file for the same site twice.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { routes, startSite, type Route, type TestSite } from '../testing/test-site.ts';
import { parseLlmsTxt } from '../llms-txt/testing/llms-txt-parser.ts';
import { waitForGeneration } from '../testing/jobs.ts';
import { describeOnEachDatabase, type TestService } from '../testing/service.ts';

const FOOTER = 'The Quill Project is a non-profit. Please donate to keep the docs online.';

function doc(title: string, body: string, { lang = 'en', nav = NAV } = {}): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${title} — Quill Manual</title></head>
<body><div class="navheader"><a href="index.html">Home</a> <a href="index.html">Up</a></div>
<div class="sidebar">${nav}</div><main><h1>${title}</h1>${body}<p>${FOOTER}</p></main>
<div class="navfooter"><a href="#top">Top</a></div></body></html>`;
}

// The flat site: every page in one folder; its structure lives only in the home page's contents.
const NAV = '';
const HOME = doc(
  'Quill 3 Documentation',
  `<p>Quill is a small document database that stores JSON files in a single folder.</p>
<div class="toc"><dl>
<dt><a href="tutorial.html">I. Tutorial</a></dt><dd><dl><dt><a href="start.html">1. Getting Started</a></dt><dt><a href="queries.html">2. First Queries</a></dt></dl></dd>
<dt><a href="language.html">II. The Query Language</a></dt><dd><dl><dt><a href="types.html">3. Data Types</a></dt><dt><a href="functions.html">4. Functions</a></dt></dl></dd>
<dt><a href="reference.html">III. Reference</a></dt><dd><dl><dt><a href="cmd-find.html">FIND</a></dt><dt><a href="cmd-insert.html">INSERT</a></dt></dl></dd>
<dt><a href="legal.html">Legal Notice</a></dt><dt><a href="bookindex.html">Index</a></dt>
</dl></div>`,
);

function flatSite(extra: Record<string, Route> = {}): Record<string, Route> {
  return {
    '/': HOME,
    '/index.html': HOME,
    '/tutorial.html': doc('Part I. Tutorial', '<p>This part walks a new user through installing Quill and running a first query.</p><ul><li><a href="start.html">1. Getting Started</a></li><li><a href="queries.html">2. First Queries</a></li></ul>'),
    '/start.html': doc('Chapter 1. Getting Started', '<p>Install Quill with one command and open a database folder.</p>'),
    '/queries.html': doc('Chapter 2. First Queries', '<p>Find documents by field values and sort the results.</p>'),
    '/language.html': doc('Part II. The Query Language', '<p>This part describes the query language in full.</p><ul><li><a href="types.html">3. Data Types</a></li><li><a href="functions.html">4. Functions</a></li></ul>'),
    // A contents page: no prose of its own, only its children.
    '/types.html': doc('Chapter 3. Data Types', '<ul><li><a href="types-numeric.html">3.1. Numeric Types</a></li><li><a href="types-text.html">3.2. Text Types</a></li><li><a href="types-date.html">3.3. Date Types</a></li></ul>'),
    '/types-numeric.html': doc('3.1. Numeric Types', '<p>Integers and decimals, with their ranges.</p>'),
    '/types-text.html': doc('3.2. Text Types', '<p>Strings of any length, compared by code point.</p>'),
    '/types-date.html': doc('3.3. Date Types', '<p>Dates and times, always stored in UTC.</p>'),
    '/functions.html': doc('Chapter 4. Functions', '<p>Every built-in function, grouped by the type it works on.</p>'),
    '/reference.html': doc('Part III. Reference', '<p>The reference lists every command with its full syntax.</p><ul><li><a href="cmd-find.html">FIND</a></li><li><a href="cmd-insert.html">INSERT</a></li></ul>'),
    // Reference pages: their purpose line says what they do.
    '/cmd-find.html': doc('FIND', '<div class="refnamediv"><h2>Name</h2><p>FIND — retrieve documents matching a filter</p></div><h2>Synopsis</h2><pre>FIND filter</pre>'),
    '/cmd-insert.html': doc('INSERT', '<div class="refnamediv"><h2>Name</h2><p>INSERT — add documents to a collection</p></div><h2>Synopsis</h2><pre>INSERT doc</pre>'),
    '/legal.html': doc('Legal Notice', '<p>Quill is released under the MIT license by its authors.</p>'),
    '/bookindex.html': doc('Index', '<p><a href="cmd-find.html">FIND</a>, <a href="types.html">types</a></p>'),
    ...extra,
  };
}

// Language folders behind a meta refresh: `/` forwards to `/en/`, whose pages link to their translations.
function languageSite(): Record<string, Route> {
  const switcher = (path: string) => `<p class="languages"><a href="/en/${path}">en</a> | <a href="/de/${path}">de</a> | <a href="/fr/${path}">fr</a></p>`;
  const localized = (lang: string, path: string, title: string, body: string) =>
    doc(title, `${switcher(path)}${body}`, { lang, nav: '' }).replace('href="index.html">Home', `href="/${lang}/index.html">Home`);
  const site: Record<string, Route> = {
    '/': '<!doctype html><html><head><meta http-equiv="refresh" content="0; url=/en/index.html"></head><body></body></html>',
  };
  for (const lang of ['en', 'de', 'fr']) {
    site[`/${lang}/index.html`] = localized(lang, 'index.html', `Lark ${lang}`, `<p>Lark is a static site generator for technical writers (${lang}).</p><ul><li><a href="guide.html">Guide</a></li><li><a href="api.html">API</a></li><li><a href="faq.html">FAQ</a></li></ul>`);
    site[`/${lang}/guide.html`] = localized(lang, 'guide.html', `Guide ${lang}`, `<p>How to write and build a site with Lark, step by step (${lang}).</p>`);
    site[`/${lang}/api.html`] = localized(lang, 'api.html', `API ${lang}`, `<p>Every function Lark exposes to plugins and themes (${lang}).</p>`);
    site[`/${lang}/faq.html`] = localized(lang, 'faq.html', `FAQ ${lang}`, `<p>Answers to the questions Lark users ask most often (${lang}).</p>`);
  }
  return site;
}

let flat: TestSite;
let languages: TestSite;
before(async () => {
  flat = await startSite(routes(flatSite()));
  languages = await startSite(routes(languageSite()));
});
after(async () => {
  await flat.close();
  await languages.close();
});

async function generate(service: TestService, url: string, maxUrls = 50): Promise<string> {
  const { apiKey } = await service.createAccount();
  const start = await service.request('POST', '/api/v1/generate', { token: apiKey, body: { url, options: { generationMethod: 'simple', maxUrls } } });
  assert.equal(start.status, 200, start.text);
  const job = await waitForGeneration(service, apiKey, start.body.jobId);
  assert.equal(job.status, 'completed', JSON.stringify(job));
  return (await fetch(job.fileUrl)).text();
}

describeOnEachDatabase(
  'The llms.txt as a map of the site',
  (service) => {
  test('a flat site gets the sections its contents page names, its one-liners, and secondary pages in Optional', async () => {
    const text = await generate(service(), `${flat.origin}/`);
    if (process.env.SHOW_LLMS_TXT) console.log(text);
    const doc = parseLlmsTxt(text);
    assert.equal(doc.title, 'Quill Manual');
    assert.equal(doc.summary, 'Quill is a small document database that stores JSON files in a single folder.');
    assert.deepEqual(
      doc.sections.map((section) => section.name),
      // The Query Language would hold 6 of 13 links (over 40%): its largest part gets a section of its own.
      ['Overview', 'Tutorial', 'The Query Language', 'Data Types', 'Reference', 'Optional'],
    );
    const links = doc.sections.flatMap((section) => section.links);
    const urls = links.map((link) => link.url);
    assert.equal(new Set(urls).size, urls.length, 'no page twice');
    assert.ok(!urls.includes(`${flat.origin}/index.html`), '/ and /index.html are one page');
    assert.deepEqual(doc.sections.at(-1)!.links.map((link) => link.title).sort(), ['Index', 'Legal Notice']);
    const notes = (path: string) => links.find((link) => link.url === `${flat.origin}${path}`)?.notes;
    assert.equal(notes('/cmd-find.html'), 'Retrieve documents matching a filter', 'the purpose line, not the synopsis');
    assert.equal(notes('/types.html'), 'Numeric, Text and Date types.', 'a contents page is summarised by its children');
    assert.ok(links.every((link) => link.notes && !link.notes.endsWith(':')), 'every link described');
    assert.doesNotMatch(text, /non-profit|Please donate/, 'the footer every page repeats describes nothing');
  });

  test('at a small maxUrls the pages nearest the contents come first', async () => {
    const doc = parseLlmsTxt(await generate(service(), `${flat.origin}/`, 7));
    const titles = doc.sections.flatMap((section) => section.links.map((link) => link.title));
    assert.equal(titles.length, 7);
    for (const title of ['Part I. Tutorial', 'Part II. The Query Language', 'Part III. Reference']) assert.ok(titles.includes(title), title);
    assert.ok(!titles.includes('Legal Notice') && !titles.includes('Index'), 'secondary pages only when room is left');
  });

  test('the same site gives the same file twice', async () => {
    assert.equal(await generate(service(), `${flat.origin}/`), await generate(service(), `${flat.origin}/`));
  });

  test('a home page that forwards to a language folder by meta refresh: that language only', async () => {
    const text = await generate(service(), `${languages.origin}/`);
    const links = parseLlmsTxt(text).sections.flatMap((section) => section.links);
    assert.deepEqual(links.map((link) => new URL(link.url).pathname).sort(), ['/en/api.html', '/en/faq.html', '/en/guide.html', '/en/index.html']);
    assert.doesNotMatch(text, /\/(?:de|fr)\//);
  });
},
  { env: { CRAWL_ALLOW_PRIVATE: 'true' } },
);
