import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { extractLinks, scanLinks } from '../crawl/index.ts';
import { readPageFacts } from './page-facts.ts';

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

describe('readPageFacts beside the crawler\'s link scan', () => {
  test('one pass gives the outline a pass of its own gives, and the links extractLinks reads', () => {
    const scan = scanLinks(HTML, { maxLinks: 100 });
    const outline = readPageFacts(HTML, PAGE, { alsoTokens: scan.tokens });
    assert.deepEqual(outline, readPageFacts(HTML, PAGE));
    assert.deepEqual(scan.links(PAGE), extractLinks(HTML, PAGE, { maxLinks: 100 }));
    // Both halves really read the page: the crawler's directives and the outline's table of contents.
    const links = scan.links(PAGE);
    assert.equal(links.canonical, 'https://docs.example/guide/v2/intro.html?a=1&b=2');
    assert.equal(links.nofollow, true);
    assert.equal(links.title, 'Intro & setup ¶');
    assert.ok(links.links.includes('https://docs.example/guide/v1/configure.html?x=1&y=2'));
    assert.deepEqual(
      outline.links.filter((link) => link.block !== 'content').map((link) => [link.text, link.depth]),
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
    const outline = readPageFacts(page(n), `https://docs.example/p${n}.html`);
    assert.deepEqual(
      outline.links.map((link) => [link.url, link.block]),
      [
        [`https://docs.example/chapter-${n}`, 'navigation'],
        [`https://docs.example/prose-${n}`, 'content'],
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
  const outline = readPageFacts(html, 'https://docs.example/tutorial/introduction.html');
  assert.deepEqual(
    outline.links.map((link) => [link.url, link.block]),
    [
      ['https://docs.example/library/string.html', 'content'],
      ['https://docs.example/library/stdtypes.html', 'content'],
      ['https://docs.example/tutorial/numbers.html', 'toc'],
    ],
  );
  assert.deepEqual(outline.paragraphs, ['Many of the examples in this manual include comments.']);
});

test('a paragraph that is mostly links lists other pages: it is not one of the page\'s paragraphs', () => {
  const html = `<html><body><div class="sect1"><h2>SEE ALSO</h2><div class="paragraph"><p><a href="gittutorial.html">gittutorial(7)</a>,
    <a href="gittutorial-2.html">gittutorial-2(7)</a>, <a href="giteveryday.html">giteveryday(7)</a>, <a href="user-manual.html">The Git User’s Manual</a></p></div>
    <p>Read <a href="gittutorial.html">the tutorial</a> first: it walks through a first repository step by step.</p></div></body></html>`;
  const outline = readPageFacts(html, 'https://docs.example/gitglossary.html');
  assert.deepEqual(outline.paragraphs, ['Read the tutorial first: it walks through a first repository step by step.']);
});

test('a "previous"/"next" link is the reading order, not a contents entry, even inside a navigation menu', () => {
  // Python's theme repeats Sphinx's sidebar, "Previous topic" included, in a <nav class="menu">.
  const html = `<html><body><nav class="menu"><h4>Previous topic</h4>
    <p class="topless"><a href="../reference/grammar.html" title="previous chapter">10. Full Grammar specification</a></p>
    <ul><li><a href="intro.html">Introduction</a></li></ul></nav>
    <div class="body"><h1>The Python Standard Library</h1><ul><li><a href="functions.html">Built-in Functions</a></li></ul>
    <div class="buttons"><a href="constants.html" rel="next">Built-in Constants</a></div></div></body></html>`;
  const outline = readPageFacts(html, 'https://docs.example/library/index.html');
  assert.deepEqual(
    outline.links.map((link) => [link.url, link.block]),
    [
      ['https://docs.example/library/intro.html', 'navigation'],
      ['https://docs.example/library/functions.html', 'toc'],
    ],
  );
});

test('a link opening a list item or a table cell that points into another page is a reference, not a contents entry', () => {
  const html = `<html><body><div class="body"><h1>Built-in Types</h1>
    <table><tr><td><p><a href="math.html#math.trunc"><code>math.trunc(x)</code></a></p></td><td><p>x truncated to Integral</p></td></tr></table>
    <ul class="simple"><li><p><a href="../library/math.html#module-math">math</a> functions comb() and perm() are now faster.</p></li>
      <li><a href="numeric.html">Numeric and Mathematical Modules</a></li></ul>
    <div class="toctree-wrapper"><ul><li><a href="stdtypes.html#truth-value-testing">Truth Value Testing</a></li></ul></div></div></body></html>`;
  const outline = readPageFacts(html, 'https://docs.example/library/stdtypes.html');
  assert.deepEqual(
    outline.links.map((link) => [link.url, link.block]),
    [
      ['https://docs.example/library/math.html', 'content'],
      ['https://docs.example/library/math.html', 'content'],
      ['https://docs.example/library/numeric.html', 'toc'],
      // A contents block's entries stay entries, sections of a page included.
      ['https://docs.example/library/stdtypes.html', 'navigation'],
    ],
  );
});

test("a FAQ's answers are not its paragraphs; a page whose own title is a question keeps its text", () => {
  const faq = `<html><body><h1>Design and History FAQ</h1><p>Answers to questions about the design of the language.</p>
    <h2>Why does Python use indentation for grouping of statements?</h2><p>Guido van Rossum believes that using indentation for grouping is extremely elegant.</p>
    <h2>Design notes</h2><p>Later text, past the first question, is more answers.</p></body></html>`;
  const outline = readPageFacts(faq, 'https://docs.example/faq/design.html');
  assert.deepEqual(outline.paragraphs, ['Answers to questions about the design of the language.']);
  assert.equal(outline.firstParagraph, 'Answers to questions about the design of the language.');
  const titled = readPageFacts(
    `<html><body><h2>1. What Is PostgreSQL?</h2><p>PostgreSQL is an object-relational database management system based on POSTGRES.</p></body></html>`,
    'https://docs.example/intro-whatis.html',
  );
  assert.equal(titled.firstParagraph, 'PostgreSQL is an object-relational database management system based on POSTGRES.');
});

test("a manual page's Synopsis is not its text", () => {
  const html = `<html><body><h2>NAME</h2><p>githooks - Hooks used by Git</p><h2>SYNOPSIS</h2><p>$GIT_DIR/hooks/* (or \`git config core.hooksPath\`/*)</p>
    <h2>DESCRIPTION</h2><p>Hooks are programs you can place in a hooks directory to trigger actions at certain points in git's execution.</p></body></html>`;
  const outline = readPageFacts(html, 'https://docs.example/githooks.html');
  assert.equal(outline.purposeLine, 'githooks - Hooks used by Git');
  assert.deepEqual(outline.paragraphs, ["Hooks are programs you can place in a hooks directory to trigger actions at certain points in git's execution."]);
  assert.equal(outline.firstParagraph, outline.paragraphs[0]);
});

test("a glossary's terms are read in order; another definition list's are not", () => {
  const html = `<html><body><h1>Glossary</h1><dl class="simple glossary">
    <dt id="term-0">&gt;&gt;&gt;<a class="headerlink" href="#term-0">¶</a></dt><dd><p>The default Python prompt of the interactive shell.</p></dd>
    <dt id="term-abstract-base-class">abstract base class</dt><dd><p>Abstract base classes complement duck-typing.</p></dd></dl>
    <dl class="py function"><dt>open(file)</dt><dd><p>Open file and return a stream.</p></dd></dl></body></html>`;
  const outline = readPageFacts(html, 'https://docs.example/glossary.html');
  assert.deepEqual(outline.terms, ['>>>', 'abstract base class']);
  assert.deepEqual(outline.paragraphs, []);
});

test('a labelled row of links is a list of entries; a link after words of the item is prose', () => {
  // Django's home page: "Models: Introduction to models | Field types | …" under "The model layer".
  const html = `<html><body><div class="nav">&laquo; <a href="faq.html" title="FAQ">previous</a> | <a href="index.html">up</a> | <a href="intro.html">next</a> &raquo;</div>
    <h2>The model layer</h2><ul><li><strong>Models:</strong> <a href="topics/db/models.html">Introduction to models</a> |
      <a href="ref/models/fields.html">Field types</a></li>
    <li>See <a href="topics/db/queries.html">Making queries</a> for the query API.</li></ul></body></html>`;
  const outline = readPageFacts(html, 'https://docs.example/index.html');
  assert.deepEqual(
    outline.links.map((link) => [link.url, link.block, link.group]),
    [
      ['https://docs.example/topics/db/models.html', 'toc', 'The model layer'],
      ['https://docs.example/ref/models/fields.html', 'toc', 'The model layer'],
      ['https://docs.example/topics/db/queries.html', 'content', 'The model layer'],
    ],
  );
});

test("a class on <body> names the page's layout: a page without a sidebar is not all navigation", () => {
  const html = `<html><body class="no-sidebar"><div class="section"><h2>Definitions</h2><dl><dt>MIME-type</dt>
    <dd>A way to describe the kind of document being transmitted. See: <a href="mod/mod_mime.html">mod_mime</a></dd></dl>
    <div class="toplang"><p>Available Languages: <a href="../de/glossary.html" hreflang="de">de</a> | <a href="glossary.html">en</a></p></div>
    <p>This glossary defines some of the common terminology related to web serving.</p></div></body></html>`;
  const outline = readPageFacts(html, 'https://docs.example/en/glossary.html');
  assert.deepEqual(
    outline.links.map((link) => [link.url, link.block]),
    [
      ['https://docs.example/en/mod/mod_mime.html', 'content'],
      ['https://docs.example/de/glossary.html', 'content'],
      ['https://docs.example/en/glossary.html', 'content'],
    ],
  );
  // A language switcher is not one of the page's paragraphs.
  assert.deepEqual(outline.paragraphs, ['This glossary defines some of the common terminology related to web serving.']);
});

test("a note or a warning box is not the page's text; a box of a title of its own is", () => {
  const html = `<html><body><h1>Working with forms</h1>
    <div class="admonition important"><p class="admonition-title">Important</p><p>Please report security issues only to security@example.com.</p></div>
    <div class="admonition-about-this-document admonition"><p class="first admonition-title">About this document</p>
      <p>This document provides an introduction to the basics of web forms and how they are handled.</p></div>
    <div class="note"><h3 class="title">Note</h3><p>DocBook's notes are asides too, whatever they say about the page.</p></div>
    <h2>Bound fields</h2></body></html>`;
  const outline = readPageFacts(html, 'https://docs.example/topics/forms/');
  assert.deepEqual(outline.paragraphs, ['About this document', 'This document provides an introduction to the basics of web forms and how they are handled.']);
  assert.equal(outline.firstParagraph, 'This document provides an introduction to the basics of web forms and how they are handled.');
  // Nor is a note's heading one of the page's parts.
  assert.deepEqual(outline.headings, ['Bound fields']);
});

test("a heading's permalink sign, after it or before it, is no part of its text; a name ending in one is, and a section sign before a number", () => {
  const html = `<html><body><h1>Getting started <a class="anchor" href="#getting-started">#</a></h1>
    <h2>Install ¶</h2><h2>Using C#</h2><h2>Links <a href="#links">🔗</a></h2>
    <h2 class="memtitle"><span class="permalink"><a href="#a1">◆&nbsp;</a></span>Aloss</h2><h2>§ 242 Good faith</h2></body></html>`;
  const outline = readPageFacts(html, 'https://docs.example/start/');
  assert.equal(outline.h1, 'Getting started');
  assert.deepEqual(outline.headings, ['Install', 'Using C#', 'Links', 'Aloss', '§ 242 Good faith']);
});

test("an item's text over a nested list captions it; a toggle's <summary> in the item is no part of that caption", () => {
  const html = `<html><body><h1>Modules</h1><ul><li><span class="module">Control</span><details open><summary>Submodules</summary>
    <ul><li><a href="Control-Monad.html">Control.Monad</a></li></ul></details></li></ul></body></html>`;
  const outline = readPageFacts(html, 'https://docs.example/index.html');
  assert.deepEqual(outline.links.map((link) => [link.text, link.group]), [['Control.Monad', 'Control']]);
});

describe('text outside any <p>', () => {
  const facts = (body: string) => readPageFacts(`<html><body><main><h1>Widget</h1>${body}</main></body></html>`, PAGE);

  test("a <div>'s own sentence is a paragraph, up to the first block inside it", () => {
    const page = facts('<div class="block">A set of characters used by the <code>Widget</code>.<p>Since 2.0.</p></div>');
    assert.deepEqual(page.paragraphs, ['A set of characters used by the Widget.', 'Since 2.0.']);
  });

  test("a <div>'s label, name or signature is no paragraph", () => {
    const page = facts('<div>Deprecated.</div><div>org.acme.util.Widget</div><div>public final class Widget extends Object</div>');
    assert.deepEqual(page.paragraphs, []);
  });
});

describe('a <summary> toggle in a contents entry', () => {
  test('the entry, named or linked, is the parent of what the toggle folds away; the toggle captions nothing', () => {
    const html = `<html><body><ul>
      <li><span>Control</span><details open><summary>Submodules</summary><ul>
        <li><a href="/control-a.html">Control.A</a><details open><summary>Submodules</summary><ul><li><a href="/control-a-b.html">Control.A.B</a></li></ul></details></li>
      </ul></details></li></ul></body></html>`;
    const links = readPageFacts(html, PAGE).links.map((link) => [link.text, link.group, link.parent]);
    assert.deepEqual(links, [['Control.A', 'Control', -1], ['Control.A.B', 'Control', 0]]);
  });
});

test('the generator a page names in <meta name="generator"> is one of its facts, the first one when it names two', () => {
  const html = `<html><head><meta name="generator" content="Docs Builder 2.1"><meta name="generator" content="Theme 4"></head>
    <body><p>A page written by a tool that says so.</p></body></html>`;
  assert.equal(readPageFacts(html, 'https://docs.example/').generator, 'Docs Builder 2.1');
  assert.equal(readPageFacts('<html><body><p>Hand-written.</p></body></html>', 'https://docs.example/').generator, null);
});

describe('headings that name one item, not a group', () => {
  test("a card's title (a heading inside its link) and a list item's heading over one link caption nothing: the heading above the list does", () => {
    const html = `<html><body><main><h2>Which fits you?</h2><ul>
      <li><a href="/community/"><h3>I work in a community.</h3></a><p>Use <a href="/community/">its licence</a>.</p></li>
      <li><a href="/mit/"><h3>I want it simple.</h3></a></li></ul>
      <h2>None of these?</h2><ul><li><h3>Not software.</h3><p><a href="/other/">There are licences for that</a>.</p></li></ul>
      <p><a href="/after/">After</a></p></main></body></html>`;
    const links = readPageFacts(html, PAGE).links.map((link) => [link.text, link.group]);
    assert.deepEqual(links, [
      ['I work in a community.', 'Which fits you?'],
      ['its licence', 'Which fits you?'],
      ['I want it simple.', 'Which fits you?'],
      ['There are licences for that', 'None of these?'],
      ['After', 'None of these?'],
    ]);
  });

  test("a list item's heading over several links captions them", () => {
    const html = `<html><body><main><h2>Classes</h2><ul><li><h3>Method Summary</h3><table><tr><td><a href="/a.html">a</a></td></tr><tr><td><a href="/b.html">b</a></td></tr></table></li></ul></main></body></html>`;
    assert.deepEqual(readPageFacts(html, PAGE).links.map((link) => link.group), ['Method Summary', 'Method Summary']);
  });
});

test("a sidebar is known by its role, whatever its class: the site's pages are navigation, its local contents no entry", () => {
  const html = `<html><body><div class="body" role="main"><h1>Models</h1><p>Models hold the data.</p></div>
    <div class="acmesidebar" role="navigation"><h3>On this page</h3><ul><li><a href="#">Models</a><ul>
    <li><a href="#fields">Fields</a></li></ul></li></ul>
    <h3>Site navigation</h3><p class="caption"><span class="caption-text">Guides</span></p>
    <ul><li><a href="install.html">Install</a></li><li><a href="models.html">Models</a></li></ul></div></body></html>`;
  const links = readPageFacts(html, 'https://docs.example/models.html').links;
  assert.deepEqual(
    links.map((link) => [link.url, link.block, link.group]),
    [
      ['https://docs.example/install.html', 'navigation', 'Guides'],
      ['https://docs.example/models.html', 'navigation', 'Guides'],
    ],
  );
});

test('a lead-in that ends where a list begins takes in the list\'s items; a list of long items, or a block between, leaves it alone', () => {
  const facts = (body: string) => readPageFacts(`<html><body><main><h1>Format</h1>${body}</main></body></html>`, 'https://docs.example/format/');
  const lead = facts('<p>In this section you will learn how to:</p><ul><li>Structure your book correctly</li><li>Customize your theme.</li></ul>');
  assert.deepEqual(lead.paragraphs, ['In this section you will learn how to: Structure your book correctly, Customize your theme.']);
  assert.equal(lead.firstParagraph, 'In this section you will learn how to: Structure your book correctly, Customize your theme.');
  const long = 'Every option is read from the configuration file first and from the command line after that, which wins.';
  assert.deepEqual(facts(`<p>The options:</p><ul><li>${long}</li><li>Short one</li></ul>`).paragraphs, ['The options:']);
  assert.deepEqual(facts('<p>Run this:</p><pre>make</pre><ul><li>Alpha</li><li>Beta</li></ul>').paragraphs, ['Run this:']);
  // The items that fit, then "…" for the rest.
  const many = Array.from({ length: 12 }, (_, i) => `<li>Algorithm number ${i} (fast and safe)</li>`).join('');
  assert.match(facts(`<p>It includes:</p><ul>${many}</ul>`).paragraphs[0], /^It includes: Algorithm number 0 \(fast and safe\), .*, Algorithm number 4 \(fast and safe\), …$/);
});

describe('a block named "contents"', () => {
  const page = (body: string) => readPageFacts(`<html><head><title>Getting started</title></head><body>${body}</body></html>`, 'https://docs.example/quick_guide.html');
  const blocks = (facts: ReturnType<typeof page>) => facts.links.map((link) => `${link.text}: ${link.block}`);

  test('holding prose, it is the page\'s content (Doxygen\'s div.contents): its mentions are mentions, its list items entries, its paragraph the page\'s', () => {
    const facts = page(
      '<div class="contents"><div class="toc"><h3>Table of Contents</h3><ul><li><a href="#step1">Step 1</a></li></ul></div>' +
        '<div class="textblock"><p>This guide takes you through writing a small program; call <a class="el" href="group__init.html#ga1">glfwInit</a> first.</p>' +
        '<ul><li><a class="el" href="window_guide.html">Window guide</a> – creating windows</li></ul></div></div>',
    );
    assert.deepEqual(blocks(facts), ['glfwInit: content', 'Window guide: toc']);
    assert.equal(facts.firstParagraph, 'This guide takes you through writing a small program; call glfwInit first.');
  });

  test('holding lists and headings only, it is a table of contents (Texinfo\'s), and a sidebar stays navigation whatever prose it holds', () => {
    const contents = page('<div class="contents"><h2 class="contents-heading">Table of Contents</h2><ul><li><a href="Introduction.html">1 Introduction</a></li></ul></div><p>The manual.</p>');
    assert.deepEqual(blocks(contents), ['1 Introduction: navigation']);
    const sidebar = page('<div class="sidebar"><p>A library for windows, contexts and input, in a sentence.</p><ul><li><a href="a.html">Window guide</a></li></ul></div>');
    assert.deepEqual(blocks(sidebar), ['Window guide: navigation']);
  });
});

describe('a block whose id names page chrome', () => {
  const page = (body: string) => readPageFacts(`<html><head><title>Manual</title></head><body>${body}</body></html>`, 'https://docs.example/manual/index.html');

  test("Texinfo's Top node (div#Top) is the home page's content, its table of contents included; Doxygen's div#top is chrome", () => {
    const top = page(
      '<p>Copyright © 2022 The Developers</p><div class="top" id="Top"><p>This manual documents how to run and install the program.</p>' +
        '<div class="contents"><h2 class="contents-heading">Table of Contents</h2><ul><li><a href="Preface.html">Preface</a></li><li><a href="Introduction.html">1 Introduction</a></li></ul></div></div>',
    );
    assert.deepEqual(top.links.map((link) => `${link.text}: ${link.block}`), ['Preface: navigation', '1 Introduction: navigation']);
    assert.deepEqual(top.paragraphs, ['Copyright © 2022 The Developers', 'This manual documents how to run and install the program.']);
    const doxygen = page('<div id="top"><div id="titlearea">Widgets 1.0</div><ul><li><a href="modules.html">Modules</a></li></ul></div><p>The widget library draws windows on any screen.</p>');
    assert.deepEqual(doxygen.links, []);
    assert.equal(doxygen.firstParagraph, 'The widget library draws windows on any screen.');
  });
});

describe('HTML\'s sectioning elements', () => {
  const page = (body: string) => readPageFacts(`<html><head><title>Shelf</title></head><body>${body}</body></html>`, 'https://docs.example/class.Shelf.html');

  test("a <header> or <footer> in the main section is that section's, not page chrome; at the page's top level it is chrome", () => {
    const facts = page(
      '<header><a href="/">Acme</a><p>Acme: the shelving toolkit for every rack.</p></header><section id="main"><header><h1>Shelf</h1><p>A shelf holds widgets on a rack, in rows.</p></header>' +
        '<p>Shelves are made of planks.</p><footer><p>Shelves are added with shelf_new().</p></footer></section><footer><p>Copyright Acme</p></footer>',
    );
    assert.equal(facts.h1, 'Shelf');
    assert.deepEqual(facts.paragraphs, ['A shelf holds widgets on a rack, in rows.', 'Shelves are made of planks.', 'Shelves are added with shelf_new().']);
    assert.deepEqual(facts.links, []);
  });

  test("a <summary> outside <details> is a block like any (gi-docgen's class description); inside <details> it captions what it folds away", () => {
    const described = page('<section><summary><div class="docblock"><p>A shelf holds widgets on a rack, in rows.</p></div></summary></section>');
    assert.deepEqual(described.paragraphs, ['A shelf holds widgets on a rack, in rows.']);
    const folded = page('<nav><ul><li><details><summary>Guides</summary><ul><li><a href="a.html">Install</a></li></ul></details></li></ul></nav>');
    assert.deepEqual(folded.links.map((link) => [link.text, link.group]), [['Install', 'Guides']]);
  });
});

describe('listings and their headings', () => {
  const url = 'https://docs.example/index.html';

  test("a heading is a heading whatever its class says (gi-docgen's h4.section-header): it captions the listing below it", () => {
    const facts = readPageFacts(
      '<html><body><h4 id="classes" class="section-header">Classes</h4><table><tr><td><a href="class.Shelf.html">Shelf</a></td><td><p>A shelf.</p></td></tr></table></body></html>',
      url,
    );
    assert.deepEqual(facts.links.map((link) => [link.text, link.group]), [['Shelf', 'Classes']]);
  });

  test("in a page's content, a table row's text after a link describes that link's page, not this one; a layout table's paragraph is the page's", () => {
    const listing = readPageFacts(
      '<div><p>Acme</p><table><tr><td><a href="class.Shelf.html">Shelf</a></td><td><p>A shelf holds widgets on a rack, in rows, and carries their weight.</p></td></tr></table><p>Every class of the toolkit, listed by kind, with what each of them draws.</p></div>',
      url,
      { content: true },
    );
    assert.equal(listing.firstParagraph, 'Every class of the toolkit, listed by kind, with what each of them draws.');
    const layout = readPageFacts('<table><tr><td><p>The toolkit draws shelves of widgets on any rack.</p></td><td><a href="a.html">Install</a></td></tr></table>', url, { content: true });
    assert.equal(layout.firstParagraph, 'The toolkit draws shelves of widgets on any rack.');
  });
});

describe('a link that names nothing', () => {
  test('"More..." ending a brief description is no part of the paragraph (Doxygen)', () => {
    const facts = readPageFacts('<html><body><h1>GLFWimage Struct Reference</h1><p>This describes a single 2D image and its pixels. <a href="#details">More...</a></p><p>Where the pixel format is unclear, <a href="x.html">read more</a> about how rows are stored.</p></body></html>', 'https://docs.example/structGLFWimage.html');
    assert.equal(facts.firstParagraph, 'This describes a single 2D image and its pixels.');
    // Within a sentence, its words stay; it is still a link.
    assert.deepEqual(facts.paragraphs, ['This describes a single 2D image and its pixels.', 'Where the pixel format is unclear, read more about how rows are stored.']);
    assert.deepEqual(facts.links.map((link) => link.text), ['read more']);
  });
});
