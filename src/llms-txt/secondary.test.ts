import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readPageFacts } from './page-facts.ts';
import { findExcerptListings, findSecondaryPages, isSecondaryTitle } from './secondary.ts';
import { phrasesFor } from './phrases.ts';

const ENGLISH = phrasesFor('en');

const page = (path: string, title: string) => readPageFacts(`<html><head><title>${title}</title></head><body><h1>${title}</h1><p>Some text about ${title}.</p></body></html>`, `https://acme.dev${path}`);

describe('secondary pages', () => {
  test('a list of the people behind the project is secondary, whatever its URL', () => {
    for (const title of ['Contributors', 'Authors', 'Credits', 'Acknowledgements', '7. Acknowledgments']) assert.equal(isSecondaryTitle(title, ENGLISH), true, title);
    const pages = [page('/', 'Acme'), page('/guide/install.html', 'Installation'), page('/misc/contributors.html', 'Contributors')];
    assert.deepEqual([...findSecondaryPages(pages, pages[0])], ['https://acme.dev/misc/contributors.html']);
  });

  test("an index is secondary by the title it has past the site's name", () => {
    const pages = [page('/', 'Lib 1.0: Basic libraries'), page('/a.html', 'Lib.Data'), page('/doc-index-A.html', 'Lib 1.0: Basic libraries (Index - A)')];
    assert.deepEqual([...findSecondaryPages(pages, pages[0])], ['https://acme.dev/doc-index-A.html']);
    const titledOnly = (path: string, title: string) => readPageFacts(`<html><head><title>${title}</title></head><body><div class="title">${title}</div><p>Text.</p></body></html>`, `https://acme.dev${path}`);
    const doxygen = [titledOnly('/', 'Lib: Main Page'), titledOnly('/shelf_8h.html', 'Lib: shelf.h File Reference'), titledOnly('/guide.html', 'Lib: Shelf guide')];
    assert.deepEqual([...findSecondaryPages(doxygen, doxygen[0])], ['https://acme.dev/shelf_8h.html'], 'each side of the title\'s first ": "');
    const headed = (path: string, title: string, heading: string) => readPageFacts(`<html><head><title>${title}</title></head><body><h2>${heading}</h2><p>Text.</p></body></html>`, `https://acme.dev${path}`);
    const texinfo = [headed('/', 'Top (Acme Manual (version 7.3))', 'Acme'), headed('/Plotting.html', 'Plotting (Acme Manual (version 7.3))', 'Plotting'), headed('/Function-Index.html', 'Function Index (Acme Manual (version 7.3))', 'Function Index')];
    assert.deepEqual([...findSecondaryPages(texinfo, texinfo[0])], ['https://acme.dev/Function-Index.html'], "the title before the end it shares with the home page's");
  });

  test("a web server's listing of a folder is secondary, in any site's language", () => {
    for (const title of ['Index of /docs/images/', 'Directory listing for /tools/']) assert.equal(isSecondaryTitle(title, phrasesFor('de')), true, title);
    const pages = [page('/', 'Acme'), page('/guide.html', 'Guide'), page('/docs/images/', 'Index of /docs/images/')];
    assert.deepEqual([...findSecondaryPages(pages, pages[0])], ['https://acme.dev/docs/images/']);
  });

  test("an index's page of letters, and a page named after a source file, are secondary", () => {
    for (const title of ['General Index: F – L', 'General Index: Q', 'shelf.h File Reference', 'shelf.h Source File', 'Data/Shelf.hs']) assert.equal(isSecondaryTitle(title, ENGLISH), true, title);
    for (const title of ['Shelf reference', 'Node.js support', 'Index of shelves by load']) assert.equal(isSecondaryTitle(title, ENGLISH), false, title);
  });

  test('a page about authoring is no list of people', () => {
    for (const title of ['Authoring content', 'Author guide', 'Credits and billing']) assert.equal(isSecondaryTitle(title, ENGLISH), false, title);
  });

  test("a guide for the project's contributors, or for moving up from an older version, is secondary", () => {
    for (const title of ['Contributing', 'Contributing to Acme', 'How to contribute', 'Migrate to 14', 'Migrating from 0.x (v1) to v2', 'Migration guide from v3']) {
      assert.equal(isSecondaryTitle(title, ENGLISH), true, title);
    }
    // Moving from another tool is what a new user reads first.
    for (const title of ['Migrating from Gulp', 'Migrate to Acme from Jekyll', 'Migrations']) assert.equal(isSecondaryTitle(title, ENGLISH), false, title);
  });
});

describe('contents pages', () => {
  const sidebar = (count: number) => `<nav class="sidebar"><ul>${Array.from({ length: count }, (_, i) => `<li><a href="/p${i}.html">Page ${i}</a></li>`).join('')}</ul></nav>`;
  const at = (path: string, title: string, body: string) => readPageFacts(`<html><head><title>${title}</title></head><body>${body}<main><h1>${title}</h1><p>Text.</p></main></body></html>`, `https://acme.dev${path}`);

  test('a page titled as contents that lists the whole site is secondary', () => {
    const pages = [at('/', 'Acme', sidebar(3)), ...Array.from({ length: 5 }, (_, i) => at(`/p${i}.html`, `Page ${i}`, sidebar(3))), at('/toc.html', 'Table of Contents', sidebar(20))];
    assert.deepEqual([...findSecondaryPages(pages, pages[0])], ['https://acme.dev/toc.html']);
  });

  test('a page titled "Table of Contents" that lists no more than every page does documents a feature', () => {
    const pages = [at('/', 'Acme', sidebar(12)), ...Array.from({ length: 5 }, (_, i) => at(`/p${i}.html`, `Page ${i}`, sidebar(12))), at('/toc/', 'Table of Contents', sidebar(12))];
    assert.deepEqual([...findSecondaryPages(pages, pages[0])], []);
  });
});

describe('listings of excerpts', () => {
  const post = (slug: string, opening: string) =>
    readPageFacts(`<html><head><title>${slug}</title></head><body><main><h1>${slug}</h1><p>${opening}</p><p>More about ${slug} follows here in this post.</p></main></body></html>`, `https://acme.dev/blog/${slug}`);
  const posts = [
    post('launch', 'We launched the widget shelf today, after two years of work on its joints.'),
    post('pricing', 'Shelves now cost less: every widget is ten percent cheaper from this month on.'),
  ];
  const listing = (body: string) => readPageFacts(`<html><head><title>Blog</title></head><body><main><h1>Blog</h1>${body}</main></body></html>`, 'https://acme.dev/blog/');
  const home = readPageFacts('<html><body><h1>Acme</h1><p>Acme makes shelves.</p></body></html>', 'https://acme.dev/');

  test('a page whose paragraphs open as the pages it links to is a listing', () => {
    const blog = listing(
      `<article><h2><a href="/blog/launch">Launch</a></h2><p>We launched the widget shelf today, after two years of work on its joints.</p></article>
      <article><h2><a href="/blog/pricing">Pricing</a></h2><p>Shelves now cost less: every widget is ten percent cheaper from this month on.</p></article>`,
    );
    assert.deepEqual(findExcerptListings([home, blog, ...posts]), ['https://acme.dev/blog/']);
  });

  test('a page that quotes one of them among its own paragraphs is not', () => {
    const guide = listing(
      `<p>Our blog tells what changed in Acme, month by month, for everyone who builds shelves.</p>
      <p>We launched the widget shelf today, after two years of work on its joints.</p><a href="/blog/launch">Launch</a><a href="/blog/pricing">Pricing</a>
      <p>Read the posts in order to follow the story of the shelf from the start.</p>`,
    );
    assert.deepEqual(findExcerptListings([home, guide, ...posts]), []);
  });
});

describe('source listings', () => {
  const listing = (path: string, body: string) => readPageFacts(`<html><head><title>${path}</title></head><body>${body}</body></html>`, `https://acme.dev${path}`);
  const code = Array.from({ length: 40 }, (_, i) => `<a name="line-${i}"></a>let value${i} = compute(${i});`).join('\n');

  test("a page of code without a heading of its own is secondary; code under headings (a worked example) is content", () => {
    const pages = [
      page('/', 'Acme'),
      listing('/src/Acme-Shelf.html', `<pre>${code}</pre>`),
      listing('/example.html', `<h1>Worked example</h1><h2>The plan</h2><p>Read the plan below.</p><pre>${code}</pre>`),
    ];
    assert.deepEqual([...findSecondaryPages(pages, pages[0])], ['https://acme.dev/src/Acme-Shelf.html']);
  });

  test('where nearly every page is preformatted text (a plain-text manual as HTML), those pages are the manual, not listings', () => {
    const text = (name: string) => `<h1>Manual: ${name}</h1><pre>*${name}.txt*\tFor version 9.0\n\nThese commands move the cursor position. ${'They work in every mode. '.repeat(30)}</pre>`;
    const manual = ['help', 'motion', 'windows', 'options'].map((name) => listing(`/${name}.html`, text(name)));
    assert.deepEqual([...findSecondaryPages(manual, manual[0])], []);
    // One listing among three pages of documentation stays a listing.
    const api = [page('/', 'Acme'), page('/shelf.html', 'Shelf'), page('/joint.html', 'Joint'), listing('/src/Acme-Shelf.html', `<pre>${code}</pre>`)];
    assert.deepEqual([...findSecondaryPages(api, api[0])], ['https://acme.dev/src/Acme-Shelf.html']);
  });
});

describe('glossaries', () => {
  const at = (path: string, body: string) => readPageFacts(`<html><head><title>${path}</title></head><body><main>${body}</main></body></html>`, `https://acme.dev${path}`);
  const sections = (names: string[], definition: (name: string) => string) => names.map((name) => `<section><h2>${name}</h2><p>${definition(name)}</p></section>`).join('');
  const TERMS = ['Bracket', 'Joint', 'Load Rating', 'Load', 'Plank', 'Rack', 'Shelf', 'Shelf Group', 'Wall Anchor'];

  test('terms in alphabetical order, each with a few lines of definition, make a glossary: secondary', () => {
    const glossary = at('/glossary/', sections(TERMS, (name) => `A ${name.toLowerCase()} is a part of a shelf.`));
    const list = at('/terms.html', `<dl class="glossary">${['anchor', 'bracket', 'joint', 'load', 'plank', 'rack', 'shelf', 'wall'].map((term) => `<dt>${term}</dt><dd>A part.</dd>`).join('')}</dl>`);
    const pages = [at('/', '<p>Acme shelves.</p>'), glossary, list];
    assert.deepEqual([...findSecondaryPages(pages, pages[0])].sort(), ['https://acme.dev/glossary/', 'https://acme.dev/terms.html']);
  });

  test('a reference in alphabetical order is no glossary: its sections are long, or its headings name code, or they are parts named alike', () => {
    const long = at('/guide/', sections(TERMS, () => 'Shelves hold things. '.repeat(40)));
    const code = at('/api/', sections(['ArrayAgg', 'BitAnd', 'BitOr', 'BoolAnd', 'BoolOr', 'JsonAgg', 'StringAgg', 'XorAgg'], () => 'An aggregate.'));
    const alike = at('/options/', sections(['Options for A', 'Options for B', 'Options for C', 'Options for D', 'Options for E', 'Options for F', 'Options for G', 'Options for H'], () => 'Some options.'));
    const pages = [at('/', '<p>Acme shelves.</p>'), long, code, alike];
    assert.deepEqual([...findSecondaryPages(pages, pages[0])], []);
  });
});
