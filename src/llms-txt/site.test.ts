import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ExtractedPage } from './extract.ts';
import { outlinePage } from './outline.ts';
import { inferSite, refineSimplePages } from './site.ts';

function extracted(url: string, fields: Partial<ExtractedPage> = {}): ExtractedPage {
  return {
    url,
    title: 'Untitled',
    fullTitle: null,
    description: '',
    descriptionSource: 'none',
    metaDescription: null,
    siteName: null,
    lang: 'en',
    markdown: '',
    firstParagraph: '',
    h1: null,
    headings: [],
    truncated: false,
    ...fields,
  };
}

const SHARED = 'Acme Docs: everything about Acme widgets.';

describe('refineSimplePages', () => {
  test('drops the title suffix most pages share', () => {
    const pages = ['Install', 'Configure', 'Deploy'].map((title) => extracted(`https://acme.dev/${title}`, { title: `${title} | Acme Docs` }));
    assert.deepEqual(refineSimplePages(pages).map((page) => page.title), ['Install', 'Configure', 'Deploy']);
  });

  test('replaces a site-wide meta description with the page’s first paragraph', () => {
    const pages = [
      extracted('https://acme.dev/a', { title: 'A', metaDescription: SHARED, description: SHARED, firstParagraph: 'Page A explains how widgets snap together.' }),
      extracted('https://acme.dev/b', { title: 'B', metaDescription: SHARED, description: SHARED, firstParagraph: '' }),
      extracted('https://acme.dev/c', { title: 'C', metaDescription: 'Page C has its own description.', description: 'Page C has its own description.' }),
    ];
    assert.deepEqual(refineSimplePages(pages).map((page) => page.description), ['Page A explains how widgets snap together.', '', 'Page C has its own description.']);
  });

  test('replaces a title most pages share with their h1 or URL', () => {
    const pages = [
      extracted('https://acme.dev/install', { title: 'Acme', h1: 'Install Acme' }),
      extracted('https://acme.dev/deploy-guide', { title: 'Acme' }),
      extracted('https://acme.dev/c', { title: 'Configuring' }),
    ];
    assert.deepEqual(refineSimplePages(pages).map((page) => page.title), ['Install Acme', 'Deploy guide', 'Configuring']);
  });

  test('clears a paragraph every page starts with', () => {
    const banner = 'We use cookies to improve your experience on this website and our services.';
    const pages = ['a', 'b', 'c'].map((name) => extracted(`https://acme.dev/${name}`, { title: name, description: banner }));
    assert.deepEqual(refineSimplePages(pages).map((page) => page.description), ['', '', '']);
  });
});

describe('inferSite', () => {
  test('names the site from og:site_name and summarizes it with the home page description', () => {
    const site = inferSite('https://acme.dev/', [
      extracted('https://acme.dev/docs/a', { siteName: 'Acme' }),
      extracted('https://acme.dev/', { siteName: 'Acme', metaDescription: 'Acme builds widgets that snap together.' }),
    ]);
    assert.deepEqual(site, { name: 'Acme', summary: 'Acme builds widgets that snap together.' });
  });

  test('falls back to the shared title suffix, then the home title, then the host', () => {
    const titled = ['Install | Acme Docs', 'Deploy | Acme Docs', 'API | Acme Docs'].map((title, i) => extracted(`https://acme.dev/${i}`, { title }));
    assert.equal(inferSite('https://acme.dev/', titled).name, 'Acme Docs');
    assert.equal(inferSite('https://acme.dev/', [extracted('https://acme.dev/', { title: 'Acme — Widgets for all' })]).name, 'Acme');
    assert.equal(inferSite('https://www.acme.dev/', []).name, 'acme.dev');
  });

  test('summarizes in one sentence with the home page’s first paragraph, else the description pages share', () => {
    assert.equal(
      inferSite('https://acme.dev/', [extracted('https://acme.dev/', { firstParagraph: 'Acme makes shelves out of widgets. They snap together. Buy some today.' })]).summary,
      'Acme makes shelves out of widgets.',
    );
    assert.equal(
      inferSite('https://acme.dev/', [extracted('https://acme.dev/', { firstParagraph: 'Welcome! Acme makes shelves out of widgets. They snap together.' })]).summary,
      'Acme makes shelves out of widgets.',
      'a greeting is not the summary',
    );
    const pages = [extracted('https://acme.dev/a', { metaDescription: SHARED }), extracted('https://acme.dev/b', { metaDescription: SHARED })];
    assert.equal(inferSite('https://acme.dev/', pages).summary, SHARED);
  });

  test("a lead page's opening of a list is about that page, not the site's summary", () => {
    const lead = (url: string, title: string, paragraph: string) =>
      outlinePage(`<html><head><title>${title}</title></head><body><h1>${title}</h1><p>${paragraph}</p></body></html>`, `https://acme.dev/${url}`);
    const leadPages = [
      lead('mod/index.html', 'Module Index', 'Below is a list of all of the modules that come as part of the Acme Server distribution.'),
      lead('intro.html', 'Introduction', 'Acme Server answers HTTP requests for static files and for programs that write pages.'),
    ];
    const site = inferSite('https://acme.dev/', [extracted('https://acme.dev/', { title: 'Acme Server' })], { leadPages });
    assert.equal(site.summary, 'Acme Server answers HTTP requests for static files and for programs that write pages.');
  });

  test("a definition of the site on its home page is the summary, before a tagline beside it", () => {
    const home = outlinePage(
      `<html><head><title>Acme</title><meta name="description" content="Consistent widget shelves in large warehouses"></head>
      <body><h1>Acme</h1><p>Acme is a command-line tool for consistent widget shelves in large warehouses.</p></body></html>`,
      'https://acme.dev/',
    );
    const site = inferSite('https://acme.dev/', [extracted('https://acme.dev/', { title: 'Acme', metaDescription: home.metaDescription })], { home });
    assert.equal(site.summary, 'Acme is a command-line tool for consistent widget shelves in large warehouses.');
  });

  test('a tagline that does not name the site is headed by its name; the name carries no emoji', () => {
    const home = outlinePage('<html><head><title>Acme 🧱</title></head><body><h1>Acme</h1><p>The intuitive shelf for widgets</p></body></html>', 'https://acme.dev/');
    const site = inferSite('https://acme.dev/', [extracted('https://acme.dev/', { title: 'Acme 🧱' })], { home });
    assert.deepEqual(site, { name: 'Acme', summary: 'Acme: The intuitive shelf for widgets' });
  });
});
