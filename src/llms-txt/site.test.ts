import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readPageFacts } from './page-facts.ts';
import type { PageText } from './page-text.ts';
import { inferSite, refineTitles, sectionsSummary } from './site.ts';

function text(url: string, fields: Partial<PageText> = {}): PageText {
  return { url, title: 'Untitled', titleRule: 'title.document-title', fullTitle: null, metaDescription: null, siteName: null, firstParagraph: '', h1: null, headings: [], ...fields };
}

const SHARED = 'Acme Docs: everything about Acme widgets.';

describe('refineTitles', () => {
  test('drops the title suffix most pages share', () => {
    const pages = ['Install', 'Configure', 'Deploy'].map((title) => text(`https://acme.dev/${title}`, { title: `${title} | Acme Docs` }));
    assert.deepEqual(refineTitles(pages), ['Install', 'Configure', 'Deploy'].map((title) => ({ title, rule: 'title.document-title' })));
  });

  test('replaces a title most pages share with their h1 or URL', () => {
    const pages = [
      text('https://acme.dev/install', { title: 'Acme', h1: 'Install Acme' }),
      text('https://acme.dev/deploy-guide', { title: 'Acme' }),
      text('https://acme.dev/c', { title: 'Configuring' }),
    ];
    assert.deepEqual(refineTitles(pages), [
      { title: 'Install Acme', rule: 'title.heading-for-shared-title' },
      { title: 'Deploy guide', rule: 'title.url-for-shared-title' },
      { title: 'Configuring', rule: 'title.document-title' },
    ]);
  });
});

describe('inferSite', () => {
  test('never sums a site up with text not in its home page’s language (a theme’s filler)', () => {
    const home = readPageFacts(
      '<html lang="en"><head><title>Introduction | Acme Theme</title></head><body><h1>Introduction</h1><p>Est in vagis et Pittheus tu arge accipiter regia iram vocatur nurus. Omnes ut olivae sensit arma sorori deducit.</p></body></html>',
      'https://acme.dev/',
    );
    const site = inferSite('https://acme.dev/', [text('https://acme.dev/', { title: 'Introduction | Acme Theme', firstParagraph: home.firstParagraph })], { home });
    assert.equal(site.summary, '');
  });

  test("a question or a quotation does not sum a site up: the home page's next text does", () => {
    const home = readPageFacts(
      '<html lang="en"><head><title>Acme</title></head><body><h1>Acme</h1><p>Q2. Where can I discuss Acme with other users?</p>' +
        '<p>“Widgets should snap, not screw.” — Ann Smith</p><p>The toolkit draws graphs from plain-text descriptions of their nodes.</p></body></html>',
      'https://acme.dev/',
    );
    const site = inferSite('https://acme.dev/', [text('https://acme.dev/', { title: 'Acme', firstParagraph: home.firstParagraph })], { home });
    assert.equal(site.summary, 'The toolkit draws graphs from plain-text descriptions of their nodes.');
  });

  test('names the site from og:site_name and summarizes it with the home page description', () => {
    const site = inferSite('https://acme.dev/', [
      text('https://acme.dev/docs/a', { siteName: 'Acme' }),
      text('https://acme.dev/', { siteName: 'Acme', metaDescription: 'Acme builds widgets that snap together.' }),
    ]);
    assert.deepEqual(site, { name: 'Acme', summary: 'Acme builds widgets that snap together.' });
  });

  test('falls back to the shared title suffix, then the home title, then the host', () => {
    const titled = ['Install | Acme Docs', 'Deploy | Acme Docs', 'API | Acme Docs'].map((title, i) => text(`https://acme.dev/${i}`, { title }));
    assert.equal(inferSite('https://acme.dev/', titled).name, 'Acme Docs');
    assert.equal(inferSite('https://acme.dev/', [text('https://acme.dev/', { title: 'Acme — Widgets for all' })]).name, 'Acme');
    assert.equal(inferSite('https://www.acme.dev/', []).name, 'acme.dev');
  });

  test('summarizes in one sentence with the home page’s first paragraph, else the description pages share', () => {
    assert.equal(
      inferSite('https://acme.dev/', [text('https://acme.dev/', { firstParagraph: 'Acme makes shelves out of widgets. They snap together. Buy some today.' })]).summary,
      'Acme makes shelves out of widgets.',
    );
    assert.equal(
      inferSite('https://acme.dev/', [text('https://acme.dev/', { firstParagraph: 'Welcome! Acme makes shelves out of widgets. They snap together.' })]).summary,
      'Acme makes shelves out of widgets.',
      'a greeting is not the summary',
    );
    const pages = [text('https://acme.dev/a', { metaDescription: SHARED }), text('https://acme.dev/b', { metaDescription: SHARED })];
    assert.equal(inferSite('https://acme.dev/', pages).summary, SHARED);
  });

  test("a home page's language is read from its URL too: its own words sum the site up, not taken for another language's", () => {
    const home = readPageFacts(
      '<html><head><title>Das Acme Handbuch</title><meta name="description" content="Dieses Nachschlagewerk präsentiert das Acme-System, von der Installation bis zur Konfiguration und der Wartung."></head><body><h1>Das Acme Handbuch</h1></body></html>',
      'https://acme.dev/handbuch/de-DE/index.html',
    );
    const site = inferSite('https://acme.dev/handbuch/de-DE/index.html', [text('https://acme.dev/handbuch/de-DE/index.html', { title: 'Das Acme Handbuch' })], { home });
    assert.equal(site.summary, 'Dieses Nachschlagewerk präsentiert das Acme-System, von der Installation bis zur Konfiguration und der Wartung.');
  });

  test('a text names the site by a word of its name, not by an article: "The" in "The Acme Book" names nothing', () => {
    const home = readPageFacts('<html lang="en"><head><title>The Acme Book</title></head><body><h1>The Acme Book</h1><p>Shelves for the rest of us</p></body></html>', 'https://acme.dev/');
    const site = inferSite('https://acme.dev/', [text('https://acme.dev/', { title: 'The Acme Book' })], { home });
    assert.equal(site.summary, 'The Acme Book: Shelves for the rest of us', 'a tagline, headed by the name');
  });

  test('never sums a site up with a copyright line or a licence grant', () => {
    const home = readPageFacts(
      '<html><head><title>Top (Acme Manual)</title></head><body><h1>Acme Manual</h1><p>Copyright © 1996-2022 The Acme Developers</p>' +
        '<p>Permission is hereby granted, free of charge, to any person obtaining a copy of this manual.</p><p>This manual documents how to install and run Acme.</p></body></html>',
      'https://acme.dev/',
    );
    const site = inferSite('https://acme.dev/', [text('https://acme.dev/', { title: 'Acme Manual' })], { home });
    assert.equal(site.summary, 'This manual documents how to install and run Acme.');
  });

  test("a lead page's opening of a list is about that page, not the site's summary", () => {
    const lead = (url: string, title: string, paragraph: string) =>
      readPageFacts(`<html><head><title>${title}</title></head><body><h1>${title}</h1><p>${paragraph}</p></body></html>`, `https://acme.dev/${url}`);
    const leadPages = [
      lead('mod/index.html', 'Module Index', 'Below is a list of all of the modules that come as part of the Acme Server distribution.'),
      lead('intro.html', 'Introduction', 'Acme Server answers HTTP requests for static files and for programs that write pages.'),
    ];
    const site = inferSite('https://acme.dev/', [text('https://acme.dev/', { title: 'Acme Server' })], { leadPages });
    assert.equal(site.summary, 'Acme Server answers HTTP requests for static files and for programs that write pages.');
  });

  test('a home page that says nothing is summed up by the sentence defining the site on a page it lists named after the site, spelled out or not', () => {
    const lead = (url: string, title: string, paragraph: string) =>
      readPageFacts(`<html><head><title>${title}</title></head><body><p>${paragraph}</p></body></html>`, `https://acme.dev/${url}`);
    const ports = ['Android', 'Linux', 'Windows', 'PSP'].map((port) => lead(`${port}.html`, `ASL: ${port}`, `ASL is part of the ${port} toolkit, and builds with its compiler.`));
    const readme = lead('readme.html', 'ASL: Acme Shelf Library', 'Acme Shelf Library is a cross-platform library for shelves of widgets. It is written in C.');
    const pages = [text('https://acme.dev/', { title: 'ASL' }), ...[...ports, readme].map((page) => text(page.url, { title: page.documentTitle! }))];
    assert.equal(inferSite('https://acme.dev/', pages, { leadPages: [...ports, readme] }).summary, 'Acme Shelf Library is a cross-platform library for shelves of widgets.');
    // Without it, what the first pages listed say naming the site.
    assert.equal(inferSite('https://acme.dev/', pages, { leadPages: ports }).summary, 'ASL is part of the Android toolkit, and builds with its compiler.');
  });

  test("a definition of the site on its home page is the summary, before a tagline beside it", () => {
    const home = readPageFacts(
      `<html><head><title>Acme</title><meta name="description" content="Consistent widget shelves in large warehouses"></head>
      <body><h1>Acme</h1><p>Acme is a command-line tool for consistent widget shelves in large warehouses.</p></body></html>`,
      'https://acme.dev/',
    );
    const site = inferSite('https://acme.dev/', [text('https://acme.dev/', { title: 'Acme', metaDescription: home.metaDescription })], { home });
    assert.equal(site.summary, 'Acme is a command-line tool for consistent widget shelves in large warehouses.');
  });

  test('a tagline that does not name the site is headed by its name; the name carries no emoji', () => {
    const home = readPageFacts('<html><head><title>Acme 🧱</title></head><body><h1>Acme</h1><p>The intuitive shelf for widgets</p></body></html>', 'https://acme.dev/');
    const site = inferSite('https://acme.dev/', [text('https://acme.dev/', { title: 'Acme 🧱' })], { home });
    assert.deepEqual(site, { name: 'Acme', summary: 'Acme: The intuitive shelf for widgets' });
  });
});

describe('sectionsSummary', () => {
  test("names the parts the pages were sectioned into, the home page's own section aside", () => {
    const page = (url: string, section: string | null, optional = false) => ({ url, title: url, description: '', section, optional });
    const pages = [page('https://acme.dev/', 'Overview'), page('https://acme.dev/a', 'Guides'), page('https://acme.dev/b', 'Reference'), page('https://acme.dev/c', 'Guides'), page('https://acme.dev/t', null, true)];
    assert.equal(sectionsSummary('Acme', pages, 'https://acme.dev/', true), 'Acme: Guides and Reference.');
    assert.equal(sectionsSummary('Acme', [pages[0]], 'https://acme.dev/', true), '');
  });
});
