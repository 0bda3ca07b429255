import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { extractPage, readContentFacts } from './extract.ts';
import { readPageFacts } from './page-facts.ts';
import { DOMParser } from 'linkedom';

const ARTICLE = `
  <p>Acme widgets snap together without tools, so a whole shelf goes up in minutes and comes apart just as fast.</p>
  <h2>What you need</h2>
  <p>You need a flat wall, two screws per bracket and the widgets themselves. Everything else ships in the box.</p>
  <h2>Steps</h2>
  <p>Mount the brackets first. Then click each widget into place, starting from the left, until the row is full.</p>
  <pre><code class="language-bash">acme install --shelf 3</code></pre>
  <p>Read the <a href="../reference/">reference</a> for every option.</p>`;

function page(head: string, body = ARTICLE, lang = 'en'): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">${head}</head>
    <body><nav><a href="/">Home</a> <a href="/docs/">Docs</a></nav><main><article><h1>Installing widgets</h1>${body}</article></main>
    <footer>© Acme Inc. All rights reserved.</footer></body></html>`;
}

describe('extractPage', () => {
  test('converts the main content to markdown without navigation or footer', () => {
    const result = extractPage(page('<title>Installing widgets</title>'), 'https://docs.acme.dev/guides/install');
    assert.match(result.markdown, /## What you need/);
    assert.match(result.markdown, /```bash\nacme install --shelf 3\n```/);
    assert.match(result.markdown, /\[reference\]\(https:\/\/docs\.acme\.dev\/reference\/\)/);
    assert.doesNotMatch(result.markdown, /All rights reserved|\[Docs\]/);
  });

  test('resolves links against <base href>', () => {
    const result = extractPage(page('<base href="/v2/docs/"><title>Installing widgets</title>'), 'https://docs.acme.dev/guides/install');
    assert.match(result.markdown, /\[reference\]\(https:\/\/docs\.acme\.dev\/v2\/reference\/\)/);
  });

  test('uses the page region when Readability finds no article (a link index page)', () => {
    const links = Array.from({ length: 40 }, (_, i) => `<li><a href="/docs/topic-${i}">Topic number ${i} of the handbook</a></li>`).join('');
    const result = extractPage(
      `<html><head><title>Index</title></head><body><main><h1>All topics</h1><ul>${links}</ul></main></body></html>`,
      'https://docs.acme.dev/topics/',
    );
    assert.match(result.markdown, /\[Topic number 39 of the handbook\]\(https:\/\/docs\.acme\.dev\/docs\/topic-39\)/);
  });

  test('reads a page that leaves out its <html>, <head> and <body> tags, and one with no element at all', () => {
    const handMade = '<!DOCTYPE html>\n<meta charset="utf-8">\n<title>Widgets</title>\n<h1>Widgets</h1>\n<p>A widget holds a shelf of parts, one per slot, in the order they are fitted.</p>\n<h2>Fitting</h2>\n<p>Fit the slots from the left.</p>';
    const result = extractPage(handMade, 'https://docs.acme.dev/widgets.html', {}, { content: true });
    // The heading that repeats the title is the page's own heading in llms-full.txt, as on any page.
    assert.equal(result.markdown, 'A widget holds a shelf of parts, one per slot, in the order they are fitted.\n\n## Fitting\n\nFit the slots from the left.');
    assert.deepEqual(result.content, { firstParagraph: 'A widget holds a shelf of parts, one per slot, in the order they are fitted.', headings: ['Fitting'] });
    assert.equal(extractPage('Plain text, <b>no tags around it</b>.', 'https://docs.acme.dev/notes').markdown, 'Plain text, **no tags around it**.');
    assert.equal(extractPage('', 'https://docs.acme.dev/empty').markdown, '');
  });

  test('bounds a huge page and still extracts its beginning', () => {
    const filler = `<p>${'All work and no play makes Jack a dull boy. '.repeat(40)}</p>`.repeat(3000);
    const html = page('<title>A very long page about widgets</title>', filler);
    assert.ok(html.length > 5_000_000);
    const started = performance.now();
    const result = extractPage(html, 'https://acme.dev/long', { maxParsedHtmlChars: 1_000_000 });
    assert.equal(result.truncated, true);
    assert.ok(result.markdown.length > 1000 && result.markdown.length <= 100_010);
    assert.ok(performance.now() - started < 20_000);
  });
});

/** The first paragraph the content's rules find (see FactsOptions.content). */
const contentParagraph = (html: string) => readPageFacts(html, 'https://acme.dev/page', { content: true }).firstParagraph;

test('in content, the first paragraph skips bylines, link lists and placeholders, but not list items', () => {
  const html = `<div><p>By Jane Doe, posted on 2024-01-02 in the widgets category</p><p><a href="/a">One link</a> <a href="/b">Another link here</a> <a href="/c">And a third link</a></p>
     <p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.</p><ul><li><p>Widgets are small parts that snap together into shelves and racks.</p></li></ul></div>`;
  assert.equal(contentParagraph(html), 'Widgets are small parts that snap together into shelves and racks.');
  assert.equal(readPageFacts(html, 'https://acme.dev/page').firstParagraph, '', "a page's facts read no list item's paragraph");
});

test('in content, the first paragraph passes over paragraphs inside source code', () => {
  // Readability turns the blocks of a Sphinx source page (div.viewcode-block, inside <pre>) into <p>.
  assert.equal(contentParagraph(`<div><pre><p><a href="/doc">[docs]</a>class StandaloneHTMLBuilder(Builder): """ Builds standalone HTML docs. """ name = 'html' format = 'html'</p></pre></div>`), '');
});

test('in content, the first paragraph is no answer of a FAQ, but the text under a page title that asks a question', () => {
  const faq = `<div><h1>Python on Windows FAQ</h1><h2>How do I run a Python program under Windows?</h2><p>This is not necessarily a straightforward question, as it turns out for many users.</p>
     <h2>Installing</h2><p>Python installers for Windows come from python.org and from the Microsoft Store alike.</p></div>`;
  assert.equal(contentParagraph(faq), '');
  const titled = `<div><h2>1. What Is PostgreSQL?</h2><p>PostgreSQL is an object-relational database management system based on POSTGRES.</p></div>`;
  assert.equal(contentParagraph(titled), 'PostgreSQL is an object-relational database management system based on POSTGRES.');
});

test("in content, the first paragraph is no command's usage line under its Synopsis", () => {
  const html = `<div><h2>Synopsis</h2><p><strong>sphinx-build</strong> [<em>options</em>] &lt;<em>sourcedir</em>&gt; &lt;<em>outputdir</em>&gt; [<em>filenames</em> …]</p>
     <h2>Description</h2><p>sphinx-build generates documentation from the files in &lt;sourcedir&gt; and places it in the &lt;outputdir&gt;.</p></div>`;
  assert.equal(contentParagraph(html), 'sphinx-build generates documentation from the files in <sourcedir> and places it in the <outputdir>.');
});

test("in content, the first paragraph is no glossary's definition", () => {
  assert.equal(contentParagraph(`<div><h1>Glossary</h1><dl class="glossary"><dt>builder</dt><dd><p>A class that takes parsed documents and performs an action on them.</p></dd></dl></div>`), '');
});

test("readContentFacts reads a page's main content where its facts call the text navigation", () => {
  // A generator that wraps its text in a block named as a table of contents: the facts read it as one.
  const html = `<html><head><title>Context guide</title></head><body><div class="header"><a href="/">Home</a></div>
    <div class="contents toc"><h2>Context objects</h2><div class="textblock"><p>This guide introduces the context related functions of the library, one by one.</p>
    <h2>Sharing</h2><p>Contexts can share objects.</p></div></div></body></html>`;
  const url = 'https://acme.dev/context_guide.html';
  assert.equal(readPageFacts(html, url).firstParagraph, '');
  const content = readContentFacts(html, url);
  assert.equal(content.firstParagraph, 'This guide introduces the context related functions of the library, one by one.');
  assert.ok(content.headings.includes('Sharing'), content.headings.join(', '));
});

test('extractPage reads the same content facts as readContentFacts from its own parse, beyond their limit too', () => {
  const text = `<div class="contents"><h2>Context objects</h2><div class="textblock"><p>This guide introduces the context related functions of the library.</p>`;
  const url = 'https://acme.dev/context_guide.html';
  const short = `<html><body>${text}<h2>Sharing</h2></div></div></body></html>`;
  // Over the facts' 300 kB: they are read from its beginning, the markdown from the whole page.
  const long = `<html><body>${text}${'<p>More of the guide, one sentence at a time.</p>'.repeat(8000)}<h2>Late heading</h2></div></div></body></html>`;
  for (const html of [short, long]) {
    const extracted = extractPage(html, url, {}, { content: true });
    assert.deepEqual(extracted.content, readContentFacts(html, url));
    assert.equal(extracted.markdown, extractPage(html, url).markdown);
  }
  assert.ok(!readContentFacts(long, url).headings.includes('Late heading'));
  assert.equal(extractPage(short, url).content, undefined);
});

describe('extractPage on documentation sites', () => {
  // A documentation layout named by no generator: a sidebar of the site's pages beside the marked main region.
  const docsPage = (title: string, body: string) => `<html><head>
    <title>${title} &#8212; Acme 2.1 documentation</title></head><body>
    <div class="related" role="navigation"><a href="/">Acme</a> »</div>
    <div class="document"><div class="body" role="main">${body}</div></div>
    <div class="sidebar-box" role="navigation"><h3>Table of contents</h3><ul>${['Install', 'Usage', 'API', 'FAQ', 'Changes', 'License', 'Credits'].map((x) => `<li><a href="/${x}">${x}</a></li>`).join('')}</ul></div>
    <div class="footer">© Copyright Acme. Please donate.</div></body></html>`;

  test('takes the main region of a page with a documentation layout whole, without permalink anchors or footer', () => {
    const result = extractPage(
      docsPage(
        'acme.widgets — Widget helpers',
        `<h1>acme.widgets — Widget helpers<a class="headerlink" href="#w">¶</a></h1>
         <p>Helpers to build widgets.</p>
         <dl class="py function"><dt id="f"><code>make(size)</code></dt><dd><p>Make a widget.</p>
         <div class="versionchanged"><p>Changed in version 2.0: accepts sizes.</p></div></dd></dl>`,
      ),
      'https://docs.acme.dev/2.1/library/widgets.html',
    );
    assert.match(result.markdown, /^# acme\.widgets — Widget helpers\n/);
    assert.match(result.markdown, /Changed in version 2\.0: accepts sizes\./);
    assert.doesNotMatch(result.markdown, /¶|Table of contents|donate/);
  });

  test('takes a DocBook page’s body whole, synopsis included, without its navigation and table of contents', () => {
    const navigation = (where: string) => `<div class="nav${where}"><table summary="Navigation ${where}"><tr>
      <td><a accesskey="p" href="sql-reindex.html">Prev</a></td><td><a accesskey="u" href="sql-commands.html">Up</a></td>
      <th>SQL Commands</th><td><a accesskey="n" href="sql-select.html">Next</a></td></tr></table></div>`;
    const result = extractPage(
      `<html><head><title>SELECT</title><meta name="generator" content="DocBook XSL Stylesheets Vsnapshot" /></head>
       <body id="docContent">${navigation('header')}<div class="refentry"><div class="refnamediv"><h2>SELECT</h2>
       <p>SELECT, TABLE, WITH — retrieve rows from a table or view</p></div>
       <div class="toc"><dl><dt><a href="#SQL-FROM">FROM Clause</a></dt></dl></div>
       <div class="refsynopsisdiv"><h2>Synopsis</h2><pre class="synopsis">SELECT [ ALL | DISTINCT ] expression [, ...]</pre></div>
       <div class="refsect1"><h2>Description</h2><p>SELECT retrieves rows from zero or more tables. The general processing of SELECT is as follows.</p></div>
       </div>${navigation('footer')}</body></html>`,
      'https://www.postgresql.org/docs/15/sql-select.html',
    );
    assert.match(result.markdown, /retrieve rows from a table or view/);
    assert.match(result.markdown, /## Synopsis\n\n```\nSELECT \[ ALL \| DISTINCT \] expression/);
    assert.doesNotMatch(result.markdown, /Prev|Next|SQL Commands|FROM Clause/);
  });
});

// patches/linkedom+0.18.12.patch makes linkedom create a node's listener map on its first listener
// (a map per parsed node doubled extraction time); events must still reach their listeners.
describe('linkedom with its listener maps created on demand', () => {
  test('dispatches to added listeners, bubbles, and stops after removal', () => {
    const doc = new DOMParser().parseFromString('<html><body><main><p id="p">x</p></main></body></html>', 'text/html') as unknown as Document;
    const paragraph = doc.getElementById('p')!;
    const seen: string[] = [];
    const onParagraph = () => seen.push('p');
    paragraph.addEventListener('ping', onParagraph);
    doc.querySelector('main')!.addEventListener('ping', () => seen.push('main'));
    paragraph.removeEventListener('other', onParagraph);
    doc.body.removeEventListener('ping', onParagraph);
    paragraph.dispatchEvent(new doc.defaultView!.Event('ping', { bubbles: true }));
    paragraph.removeEventListener('ping', onParagraph);
    paragraph.dispatchEvent(new doc.defaultView!.Event('ping', { bubbles: true }));
    assert.deepEqual(seen, ['p', 'main', 'main']);
  });
});

// The same patch keeps compiled CSS selectors and matches classes on the class attribute's own
// value; selectors must still see every class change, and `:scope` its own element.
describe('linkedom with compiled selectors kept', () => {
  const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html') as unknown as Document;

  test('class selectors follow classList and className changes', () => {
    const doc = parse('<html><body><p id="a" class="x  y">1</p><p id="b">2</p></body></html>');
    const ids = (selector: string) => [...doc.querySelectorAll(selector)].map((element) => element.id);
    assert.deepEqual(ids('.y'), ['a']);
    assert.deepEqual(ids('[class="x y"]'), ['a']);
    doc.getElementById('b')!.classList.add('y');
    doc.getElementById('a')!.classList.remove('y');
    assert.deepEqual(ids('.y'), ['b']);
    doc.getElementById('a')!.className = 'z';
    assert.deepEqual(ids('p.z, p.y'), ['a', 'b']);
    doc.getElementById('b')!.removeAttribute('class');
    assert.deepEqual(ids('.y'), []);
  });

  // The patch also sets a parsed class attribute without building its class list.
  test('a parsed class attribute reads as its tokens, each once, as its class list does', () => {
    const doc = parse('<html><body><p id="a" class=" x\ty  x\n">1</p><p id="b" class="">2</p></body></html>');
    const [a, b] = [doc.getElementById('a')!, doc.getElementById('b')!];
    assert.equal(a.getAttribute('class'), 'x y');
    assert.deepEqual([...a.classList], ['x', 'y']);
    assert.equal(a.className, 'x y');
    assert.deepEqual([b.getAttribute('class'), b.classList.length], ['', 0]);
  });

  test('the same selector matches in each document, and :scope in each element', () => {
    const first = parse('<html><body><div id="one"><p>a</p><div><p>b</p></div></div></body></html>');
    const second = parse('<html><body><section><p>c</p></section><p>d</p></body></html>');
    assert.deepEqual([...first.querySelectorAll('div > p')].map((p) => p.textContent), ['a', 'b']);
    assert.deepEqual([...second.querySelectorAll('div > p')].map((p) => p.textContent), []);
    const outer = first.getElementById('one')!;
    assert.deepEqual([...outer.querySelectorAll(':scope > p')].map((p) => p.textContent), ['a']);
    assert.deepEqual([...outer.querySelector('div')!.querySelectorAll(':scope > p')].map((p) => p.textContent), ['b']);
  });
});
