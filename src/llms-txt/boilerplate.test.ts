import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findRepeatedDescriptions, isBoilerplateDescription, isPlaceholderPage } from './boilerplate.ts';
import { readPageFacts } from './page-facts.ts';
import { phrasesFor } from './phrases.ts';

const ENGLISH = phrasesFor('en');

describe('isBoilerplateDescription', () => {
  test("a placeholder's words are those of the page's language; a missing value is one in any", () => {
    assert.equal(isBoilerplateDescription('Welcome to our website, friends!', ENGLISH), true);
    assert.equal(isBoilerplateDescription('Welcome to our website, friends!', phrasesFor('de')), false);
    assert.equal(isBoilerplateDescription('{{ page.description }} for all', phrasesFor('de')), true);
  });

  test('rejects empty, too short and placeholder descriptions', () => {
    for (const text of [
      '',
      '   ',
      'Home',
      'Welcome to our website',
      'Welcome to my blog!',
      'Default description',
      'Page description goes here',
      'Enter your meta description',
      'Lorem ipsum dolor sit amet, consectetur adipiscing elit.',
      'Tempor incididunt ut labore et dolore magna aliqua, ut enim ad minim veniam.',
      'Just another WordPress site',
      '{{ page.description }} for the page',
      'https://example.com/some/page',
    ]) {
      assert.equal(isBoilerplateDescription(text, ENGLISH), true, text);
    }
  });

  test('rejects a description that only repeats the title', () => {
    assert.equal(isBoilerplateDescription('Installing Acme on Linux', ENGLISH, 'Installing Acme on Linux'), true);
    assert.equal(isBoilerplateDescription('Installing Acme on Linux. Acme docs.', ENGLISH, 'Installing Acme on Linux'), true);
  });

  test('accepts a real description', () => {
    assert.equal(isBoilerplateDescription('Install the Acme CLI on Linux, macOS or Windows and log in.', ENGLISH, 'Install'), false);
    assert.equal(isBoilerplateDescription('Welcome to the Acme developer hub: guides, API reference and SDKs for building on Acme.', ENGLISH), false);
    assert.equal(isBoilerplateDescription('Learn how to write a good site description for search engines and social previews.', ENGLISH), false);
  });
});

describe('findRepeatedDescriptions', () => {
  test('flags the description most pages share', () => {
    const shared = 'Acme makes widgets for everyone.';
    const isRepeated = findRepeatedDescriptions([shared, shared, shared, 'Install Acme on Linux.', 'The Acme API.', null]);
    assert.equal(isRepeated(shared), true);
    assert.equal(isRepeated('  acme makes widgets  for everyone '), true);
    assert.equal(isRepeated('Install Acme on Linux.'), false);
    assert.equal(isRepeated(null), false);
  });

  test('needs at most 5 pages on a large site, and at least 2', () => {
    const texts = Array.from({ length: 1000 }, (_, i) => `Page ${i} describes topic ${i}.`);
    texts.push(...Array(5).fill('Shared default.'), ...Array(4).fill('Four times.'));
    const isRepeated = findRepeatedDescriptions(texts);
    assert.equal(isRepeated('Shared default.'), true);
    assert.equal(isRepeated('Four times.'), false);
    assert.equal(findRepeatedDescriptions(['Only once.'])('Only once.'), false);
  });

  test('compares texts by their letters and digits alone, lowercased, in any script', () => {
    // The first two are ASCII, the others not (a no-break space, an accented letter, Cyrillic).
    const isRepeated = findRepeatedDescriptions(['Read the Docs!', 'read-the-docs', 'Read\u00a0the docs', 'Café Docs', 'CAFÉ docs', 'Документация', 'документация.']);
    assert.equal(isRepeated('READ THE DOCS'), true);
    assert.equal(isRepeated('café-docs'), true);
    assert.equal(isRepeated('Cafe docs'), false);
    assert.equal(isRepeated('ДОКУМЕНТАЦИЯ'), true);
    assert.equal(isRepeated('- – -'), false);
  });
});

test('a frameset is a shell around other documents, nothing to list', () => {
  const page = 'https://docs.example/index.html';
  const frameset = '<html><head><title>Docs</title></head><frameset cols="20%,80%"><frame src="nav.html"><frame src="main.html"><noframes><p>This document is designed to be viewed using the frames feature.</p></noframes></frameset></html>';
  assert.equal(isPlaceholderPage(readPageFacts(frameset, page)), true);
  assert.equal(isPlaceholderPage(readPageFacts('<html><body><p>A real page that says something of its own.</p></body></html>', page)), false);
});
