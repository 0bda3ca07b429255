import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findOptionalPages, planSections, sectionNameForSegment } from './sections.ts';

const page = (url: string, extra: { section?: string; optional?: boolean } = {}) => ({ url, optional: false, ...extra });
const names = (sections: { name: string; pages: { url: string }[] }[]) =>
  sections.map((section) => `${section.name}: ${section.pages.map((p) => new URL(p.url).pathname).join(' ')}`);

describe('planSections', () => {
  test('groups by first path segment, home first, then larger sections', () => {
    const sections = planSections([
      page('https://acme.dev/blog/one'),
      page('https://acme.dev/'),
      page('https://acme.dev/docs/install'),
      page('https://acme.dev/docs/'),
      page('https://acme.dev/docs/configure'),
      page('https://acme.dev/blog/two'),
      page('https://acme.dev/api/users'),
      page('https://acme.dev/api/teams'),
      page('https://acme.dev/docs/deploy'),
    ]);
    assert.deepEqual(names(sections), [
      'Overview: /',
      'Docs: /docs/ /docs/install /docs/configure /docs/deploy',
      'Blog: /blog/one /blog/two',
      'API Reference: /api/users /api/teams',
    ]);
  });

  test('folds single-page groups into the first section and puts low-value pages under Optional', () => {
    const sections = planSections([
      page('https://acme.dev/'),
      page('https://acme.dev/pricing'),
      page('https://acme.dev/about/team'),
      page('https://acme.dev/guides/a'),
      page('https://acme.dev/guides/b'),
      page('https://acme.dev/privacy', { optional: true }),
    ]);
    assert.deepEqual(names(sections), ['Overview: / /pricing /about/team', 'Guides: /guides/a /guides/b', 'Optional: /privacy']);
  });

  test('looks one level deeper when the whole site lives under one folder', () => {
    const sections = planSections([
      page('https://acme.dev/docs/'),
      page('https://acme.dev/docs/tutorial/one'),
      page('https://acme.dev/docs/tutorial/two'),
      page('https://acme.dev/docs/library/os'),
      page('https://acme.dev/docs/library/sys'),
      page('https://acme.dev/docs/library/re'),
    ]);
    assert.deepEqual(names(sections), ['Overview: /docs/', 'Library: /docs/library/os /docs/library/sys /docs/library/re', 'Tutorials: /docs/tutorial/one /docs/tutorial/two']);
  });

  test('keeps the sections a model chose, merging names that differ only in case', () => {
    const sections = planSections([
      page('https://acme.dev/', { section: 'Overview' }),
      page('https://acme.dev/a', { section: 'Guides' }),
      page('https://acme.dev/b', { section: 'guides' }),
      page('https://acme.dev/c', { section: 'Optional' }),
      page('https://acme.dev/d'),
    ]);
    assert.deepEqual(names(sections), ['Overview: / /d', 'Guides: /a /b', 'Optional: /c']);
  });

  test('a flat site is one section and nothing is ever empty', () => {
    assert.deepEqual(names(planSections([page('https://acme.dev/a.html'), page('https://acme.dev/b.html')])), ['Pages: /a.html /b.html']);
    assert.deepEqual(planSections([]), []);
  });
});

test('sectionNameForSegment names common folders and prettifies the rest', () => {
  assert.equal(sectionNameForSegment('api'), 'API Reference');
  assert.equal(sectionNameForSegment('docs'), 'Docs');
  assert.equal(sectionNameForSegment('getting_started'), 'Getting Started');
  assert.equal(sectionNameForSegment('rest-api-v2'), 'REST API V2');
  assert.equal(sectionNameForSegment('caf%C3%A9'), 'Café');
});

describe('findOptionalPages', () => {
  test('flags archives, pagination, legal pages, changelogs and utility pages', () => {
    const urls = [
      'https://acme.dev/blog/tag/widgets',
      'https://acme.dev/blog/category/news/',
      'https://acme.dev/blog/page/2',
      'https://acme.dev/blog?page=3',
      'https://acme.dev/blog/2023/05/',
      'https://acme.dev/privacy-policy',
      'https://acme.dev/legal/terms',
      'https://acme.dev/changelog',
      'https://acme.dev/docs/release-notes',
      // Release notes by their file's name, whatever language the page is in (Apache's, Python's).
      'https://acme.dev/manual/en/new_features_2_4.html',
      'https://acme.dev/docs/whatsnew/3.11.html',
      'https://acme.dev/docs/whatsnew311.html',
      'https://acme.dev/login',
      'https://acme.dev/manual/en/license.html',
      'https://acme.dev/COPYING',
      // Sphinx's highlighted source code (viewcode), beside the pages that document it.
      'https://acme.dev/_modules/acme/widgets.html',
    ];
    assert.deepEqual([...findOptionalPages(urls)].sort(), [...urls].sort());
  });

  test('keeps ordinary pages, blog posts and the first page of a listing', () => {
    const urls = ['https://acme.dev/', 'https://acme.dev/blog/', 'https://acme.dev/blog?page=1', 'https://acme.dev/blog/2023/05/launch', 'https://acme.dev/docs/tags-and-labels-guide', 'https://acme.dev/docs/features.html'];
    assert.deepEqual([...findOptionalPages(urls)], []);
  });

  test('flags old versions when a newer one or a latest alias exists', () => {
    const optional = findOptionalPages([
      'https://acme.dev/docs/v1/intro',
      'https://acme.dev/docs/v2/intro',
      'https://acme.dev/docs/v10/intro',
      'https://py.dev/3.11/library/os',
      'https://py.dev/3.12/library/os',
      'https://rtd.io/en/latest/',
      'https://rtd.io/en/1.0/',
      'https://solo.dev/v3/only',
    ]);
    assert.deepEqual([...optional].sort(), ['https://acme.dev/docs/v1/intro', 'https://acme.dev/docs/v2/intro', 'https://py.dev/3.11/library/os', 'https://rtd.io/en/1.0/']);
  });
});
