import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readPageFacts } from './page-facts.ts';
import { phrasesFor } from './phrases.ts';
import { pageText } from './page-text.ts';

test('the phrases of a language apply to its pages only: English to English pages and to pages that do not say', () => {
  for (const language of ['en', 'en-US', 'EN_gb', null, undefined, '']) assert.ok(phrasesFor(language).pointsElsewhere.test('See the reference.'), String(language));
  for (const phrases of Object.values(phrasesFor('de'))) assert.ok(!phrases.test('See also') && !phrases.test('next') && !phrases.test(''), 'a language without a list matches nothing');
});

test("a link named only by its place in the reading order is left out in its page's language", () => {
  const page = (lang: string) => `<html lang="${lang}"><body><ul><li><a href="/a">Alpha</a></li><li><a href="/b">next</a></li></ul></body></html>`;
  assert.deepEqual(readPageFacts(page('en'), 'https://docs.example/').links.map((link) => link.text), ['Alpha']);
  // "next" is no word of the reading order in a German page: it names the page it links to.
  assert.deepEqual(readPageFacts(page('de'), 'https://docs.example/').links.map((link) => link.text), ['Alpha', 'next']);
});

test("a placeholder title is one in its page's language: an English page's 'Untitled' gives way to its heading", () => {
  const page = (lang: string) => `<html lang="${lang}"><head><title>Untitled</title></head><body><h1>Widgets</h1><p>Widgets are small.</p></body></html>`;
  assert.equal(pageText(readPageFacts(page('en'), 'https://docs.example/widgets')).title, 'Widgets');
  assert.equal(pageText(readPageFacts(page('de'), 'https://docs.example/widgets')).title, 'Untitled');
});
