import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readPageFacts } from './page-facts.ts';
import { pageText, titleFromUrl } from './page-text.ts';

const ARTICLE = `
  <p>Acme widgets snap together without tools, so a whole shelf goes up in minutes and comes apart just as fast.</p>
  <h2>What you need</h2>
  <p>You need a flat wall, two screws per bracket and the widgets themselves. Everything else ships in the box.</p>
  <h2>Steps</h2>
  <p>Mount the brackets first. Then click each widget into place, starting from the left, until the row is full.</p>`;

function page(head: string, body = ARTICLE): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">${head}</head>
    <body><nav><a href="/">Home</a> <a href="/docs/">Docs</a></nav><main><article><h1>Installing widgets</h1>${body}</article></main>
    <footer>© Acme Inc. All rights reserved.</footer></body></html>`;
}

const textOf = (html: string, url = 'https://docs.acme.dev/guides/install') => pageText(readPageFacts(html, url));

describe('pageText', () => {
  test('reads og:title, drops the site-name suffix, and keeps the meta description', () => {
    const text = textOf(
      page(`<title>Installing widgets | Acme Docs</title>
        <meta property="og:title og:alt" content="Installing widgets | Acme Docs">
        <meta property="og:site_name" content="Acme Docs">
        <meta name="description" content="Put up a shelf of Acme widgets in minutes, without tools.">`),
    );
    assert.equal(text.title, 'Installing widgets');
    assert.equal(text.fullTitle, 'Installing widgets | Acme Docs');
    assert.equal(text.siteName, 'Acme Docs');
    assert.equal(text.metaDescription, 'Put up a shelf of Acme widgets in minutes, without tools.');
    assert.equal(text.h1, 'Installing widgets');
    assert.deepEqual(text.headings, ['What you need', 'Steps']);
  });

  test('passes over a boilerplate meta description; the first paragraph stands', () => {
    const text = textOf(page('<title>Installing widgets</title><meta name="description" content="Welcome to our website">'));
    assert.equal(text.metaDescription, null);
    assert.equal(text.firstParagraph, 'Acme widgets snap together without tools, so a whole shelf goes up in minutes and comes apart just as fast.');
  });

  test("takes the main content's paragraph and headings when the DOM pass read them", () => {
    const text = pageText(readPageFacts(page('<title>Installing widgets</title>'), 'https://acme.dev/a'), { firstParagraph: 'From the content.', headings: ['One'] });
    assert.equal(text.firstParagraph, 'From the content.');
    assert.deepEqual(text.headings, ['One']);
  });

  test('titles a page without any title from its URL, and replaces a placeholder title', () => {
    assert.equal(textOf('<html><body><p>Just text, nothing else, in a bare page without a title.</p></body></html>', 'https://acme.dev/getting-started.html').title, 'Getting started');
    assert.equal(textOf('<html><head><title>&lt;no title&gt; &#8212; Acme 2.1 documentation</title></head><body><p>Included.</p></body></html>', 'https://docs.acme.dev/includes/note.html').title, 'Note');
  });

  test('prefers a JSON-LD article headline the page title agrees with', () => {
    const text = textOf(
      page(`<title>Widgets arrive in Europe - Acme News</title>
        <script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","name":"Acme News","headline":"Widgets arrive in Europe","publisher":{"name":"Acme News"}}</script>`),
      'https://news.acme.dev/2024/widgets',
    );
    assert.equal(text.title, 'Widgets arrive in Europe');
    assert.equal(text.siteName, 'Acme News');
  });
});

test('titleFromUrl turns the last path segment into words', () => {
  assert.equal(titleFromUrl('https://acme.dev/docs/api_keys-and-tokens/'), 'Api keys and tokens');
  assert.equal(titleFromUrl('https://www.acme.dev/'), 'acme.dev');
});
