import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { classKind } from './class-kinds.ts';
import { readPageFacts } from './page-facts.ts';

describe('a class that says what an element has, not what it is', () => {
  test('a layout modifier (has-, no-, with-, is-) makes no navigation or chrome block', () => {
    for (const classes of ['content has-sidebar', 'doc has-sidebar has-aside', 'page no-footer', 'main with-toc', 'panel is-nav-open']) {
      const kind = classKind(classes);
      assert.equal(kind.nav || kind.chrome, false, classes);
    }
  });

  test("a BEM modifier's part after -- does not count; its block does", () => {
    assert.equal(classKind('layout layout--sidebar').nav, false);
    assert.equal(classKind('site-nav site-nav--primary').nav, true);
    assert.equal(classKind('sidebar is-open').nav, true);
  });

  test("a wrapper beside a sidebar keeps the page's text", () => {
    const page = readPageFacts(
      '<html><body><nav class="sidebar"><a href="a.html">A</a></nav><div class="content has-sidebar"><h1>Widgets</h1>' +
        '<p>A widget turns the crank of the machine every second.</p></div></body></html>',
      'https://docs.example/widgets.html',
    );
    assert.equal(page.firstParagraph, 'A widget turns the crank of the machine every second.');
    assert.equal(page.ownHeadings, 0);
    assert.ok(page.textChars > 40);
  });
});

describe('asides by their class', () => {
  test("DocBook's legal notice is not the page's text; an epigraph may be the site's own tagline", () => {
    const page = readPageFacts(
      '<html><body><div class="chapter"><h2 class="title">Chapter 12. Acme.CRC</h2><div class="legalnotice"><p>Free to use under the terms given in the file LICENSE that comes with it.</p></div>' +
        '<p>Acme.CRC computes cyclic redundancy codes over any buffer.</p></div></body></html>',
      'https://docs.example/crc.html',
    );
    assert.equal(page.firstParagraph, 'Acme.CRC computes cyclic redundancy codes over any buffer.');
    const home = readPageFacts(
      '<html><body><main><h1>Welcome</h1><blockquote class="epigraph"><div><p>Acme makes it easy to build shelves out of widgets.</p></div></blockquote><p>Here are its main features:</p></main></body></html>',
      'https://docs.example/',
    );
    assert.equal(home.firstParagraph, 'Acme makes it easy to build shelves out of widgets.');
  });
});
