import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { extractLinks, scanLinks } from '../crawl/index.ts';
import { outlinePage } from './outline.ts';

const PAGE = 'https://docs.example/guide/intro.html';
// What the crawler and the outline both read, with what tends to set two parsers apart: a <base>,
// entities in attributes and text, robots and refresh meta tags, a canonical link, chrome and
// navigation, an inline SVG with CDATA, a comment, a script holding markup, and an unclosed list.
const HTML = `<!doctype html><html lang="en"><head><title>Intro &amp; setup ¶</title>
  <base href="/guide/v2/"><link rel="canonical" href="intro.html?b=2&amp;a=1">
  <meta name="description" content="Set up the widget &mdash; in minutes.">
  <meta name="robots" content="noarchive, nofollow"><meta http-equiv="refresh" content="30; url=later.html">
  <script>document.write('<a href="/from-script">x</a>')</script></head>
<body><header><a href="/">Home</a></header>
  <nav class="sidebar"><ul><li><a href="install.html">Install</a><ul><li><a href="install.html#linux">Linux</a></ul>
  <li><a href="../v1/configure.html?x=1&amp;y=2">Configure</a></ul></nav>
  <main><h1>Intro</h1><p>The widget is a small device. See <a href="faq.html" rel="nofollow">the FAQ</a>.</p>
  <svg><![CDATA[<a href="/in-cdata">no</a>]]><a href="svg-link.html"><text>SVG</text></a></svg>
  <!-- <a href="/in-comment">no</a> --><p>Second paragraph with <a href="mailto:x@docs.example">mail</a>.</p></main>
  <footer class="footer"><a href="/legal">Legal</a></footer></body></html>`;

describe('outlinePage beside the crawler\'s link scan', () => {
  test('one pass gives the outline a pass of its own gives, and the links extractLinks reads', () => {
    const scan = scanLinks(HTML, { maxLinks: 100 });
    const outline = outlinePage(HTML, PAGE, scan.tokens);
    assert.deepEqual(outline, outlinePage(HTML, PAGE));
    assert.deepEqual(scan.links(PAGE), extractLinks(HTML, PAGE, { maxLinks: 100 }));
    // Both halves really read the page: the crawler's directives and the outline's table of contents.
    const links = scan.links(PAGE);
    assert.equal(links.canonical, 'https://docs.example/guide/v2/intro.html?a=1&b=2');
    assert.equal(links.nofollow, true);
    assert.equal(links.title, 'Intro & setup ¶');
    assert.ok(links.links.includes('https://docs.example/guide/v1/configure.html?x=1&y=2'));
    assert.deepEqual(
      outline.links.filter((link) => link.kind === 'toc').map((link) => [link.text, link.depth]),
      [['Install', 0], ['Linux', 1], ['Configure', 0]],
    );
    assert.equal(outline.documentTitle, 'Intro & setup');
  });
});

test('a class list classifies its element the same way on every page and on every element', () => {
  // The second and third pages meet the class lists the first one taught the outline.
  const page = (n: number) => `<html><body>
    <div class="navfooter wide-footer-bar"><a href="/prev-${n}">Previous</a></div>
    <div class="${'x'.repeat(300)} footer"><a href="/next-${n}">Next</a></div>
    <div class="toc wide-contents-list"><ul><li><a href="/chapter-${n}">Chapter ${n}</a></li></ul></div>
    <p>See <a href="/prose-${n}">the notes</a> for more about chapter ${n}.</p></body></html>`;
  for (const n of [1, 2, 3]) {
    const outline = outlinePage(page(n), `https://docs.example/p${n}.html`);
    assert.deepEqual(
      outline.links.map((link) => [link.url, link.kind]),
      [
        [`https://docs.example/chapter-${n}`, 'toc'],
        [`https://docs.example/prose-${n}`, 'prose'],
      ],
    );
  }
});

test("a 'see also' box points elsewhere: its links are not the page's entries, its text not the page's", () => {
  const html = `<html><body><div role="main"><h1>An Informal Introduction</h1>
    <p>Many of the examples in this manual include comments.</p>
    <div class="admonition seealso"><p class="admonition-title">See also</p>
      <dl><dt><a href="/library/string.html#formatstrings">Format String Syntax</a></dt><dd><p>Information about string formatting.</p></dd></dl>
      <p><a href="/library/stdtypes.html">Text Sequence Type — str</a></p></div>
    <ul><li><a href="/tutorial/numbers.html">Numbers</a></li></ul></div></body></html>`;
  const outline = outlinePage(html, 'https://docs.example/tutorial/introduction.html');
  assert.deepEqual(
    outline.links.map((link) => [link.url, link.kind]),
    [
      ['https://docs.example/library/string.html', 'prose'],
      ['https://docs.example/library/stdtypes.html', 'prose'],
      ['https://docs.example/tutorial/numbers.html', 'toc'],
    ],
  );
  assert.deepEqual(outline.paragraphs, ['Many of the examples in this manual include comments.']);
});

test('a paragraph that is mostly links lists other pages: it is not one of the page\'s paragraphs', () => {
  const html = `<html><body><div class="sect1"><h2>SEE ALSO</h2><div class="paragraph"><p><a href="gittutorial.html">gittutorial(7)</a>,
    <a href="gittutorial-2.html">gittutorial-2(7)</a>, <a href="giteveryday.html">giteveryday(7)</a>, <a href="user-manual.html">The Git User’s Manual</a></p></div>
    <p>Read <a href="gittutorial.html">the tutorial</a> first: it walks through a first repository step by step.</p></div></body></html>`;
  const outline = outlinePage(html, 'https://docs.example/gitglossary.html');
  assert.deepEqual(outline.paragraphs, ['Read the tutorial first: it walks through a first repository step by step.']);
});
