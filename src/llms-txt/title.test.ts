import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findCommonTitleAffix, findSharedLeadWords, hostNames, stripSiteName, trimDocumentTitle } from './title.ts';

describe('stripSiteName', () => {
  test('removes a trailing part that names the site', () => {
    assert.equal(stripSiteName('Install | Acme Docs', ['Acme Docs']), 'Install');
    assert.equal(stripSiteName('Install — Acme', ['Acme']), 'Install');
    assert.equal(stripSiteName('Install - Guides | Acme', ['Acme']), 'Install - Guides');
  });

  test('recognizes the site by its host name', () => {
    assert.equal(stripSiteName('Pull requests · GitHub Docs', hostNames('https://docs.github.com/en')), 'Pull requests');
  });

  test('removes a leading part only when it is exactly the site name', () => {
    assert.equal(stripSiteName('Acme: Pricing', ['Acme']), 'Acme: Pricing'); // a colon needs spaces on both sides
    assert.equal(stripSiteName('Acme | Pricing', ['Acme']), 'Pricing');
    assert.equal(stripSiteName('React Hooks - Overview', hostNames('https://react.dev/')), 'React Hooks - Overview');
  });

  test('never empties a title and leaves unrelated separators alone', () => {
    assert.equal(stripSiteName('Acme', ['Acme']), 'Acme');
    assert.equal(stripSiteName('Tom - Jerry', ['Acme']), 'Tom - Jerry');
    assert.equal(stripSiteName('e-mail setup', ['mail']), 'e-mail setup');
  });
});

describe('trimDocumentTitle', () => {
  test('drops the last part of a <title> when enough words remain', () => {
    assert.equal(trimDocumentTitle('How to Build a Terrarium | Some Site', null), 'How to Build a Terrarium');
    assert.equal(trimDocumentTitle('Lorem ipsum dolor sit amet – My website', null), 'Lorem ipsum dolor sit amet');
  });

  test('keeps a short title whole', () => {
    assert.equal(trimDocumentTitle('Install | Acme', null), 'Install | Acme');
  });

  test('uses the only h1 when the title is too short to mean anything', () => {
    assert.equal(trimDocumentTitle('Home', 'Getting started with Acme widgets'), 'Getting started with Acme widgets');
  });
});

describe('findCommonTitleAffix', () => {
  test('finds the suffix most titles share', () => {
    const titles = ['Intro | Acme Docs', 'Install | Acme Docs', 'API — Acme Docs', 'Changelog'];
    assert.equal(findCommonTitleAffix(titles), 'Acme Docs');
  });

  test('finds nothing on too few or too different titles', () => {
    assert.equal(findCommonTitleAffix(['A | X', 'B | X']), null);
    assert.equal(findCommonTitleAffix(['A | X', 'B | Y', 'C | Z', 'D']), null);
  });
});

describe('findSharedLeadWords', () => {
  test('the longest run of opening words more than half of the titles share and go on from', () => {
    const titles = ['Acme Module mod_a', 'Acme Module mod_b', 'Acme Module mod_c', 'Acme Core Features', 'Glossary'];
    assert.equal(findSharedLeadWords(titles), 'Acme Module ');
    assert.equal(findSharedLeadWords(['Install', 'Configure', 'Acme Module mod_a', 'Deploy']), null);
    // A title that is the lead and a sign only is not gone on from.
    assert.equal(findSharedLeadWords(['Acme 🍍', 'Acme 🍍 ', 'Introduction', 'Getting Started']), null);
  });
});
