import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { extractPage, type Extractor } from './extract.ts';
import { generateLlmsTxt, type GenerationProgress } from './generate.ts';
import { pageKey } from './site-map.ts';
import { createLlmDescriber } from './llm-describer.ts';
import { parseLlmsTxt } from './testing/llms-txt-parser.ts';
import { startFakeLlmServer, type FakeLlmServer } from './testing/fake-llm-server.ts';
import type { PageInput } from './types.ts';

const SHARED_DESCRIPTION = 'Acme Docs: guides and reference for Acme widgets.';

/** A page of acme.dev's manual: its title as <title> and <h1>, then `body`. */
function manualPage(url: string, title: string, body: string): PageInput {
  return { url: `https://acme.dev/${url}`, html: `<html><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>` };
}

function docPage(title: string, paragraph: string, extraHead = ''): string {
  return `<!doctype html><html lang="en"><head><title>${title} | Acme Docs</title>
    <meta name="description" content="${SHARED_DESCRIPTION}">${extraHead}</head>
    <body><nav><a href="/">Home</a><a href="/docs/">Docs</a></nav>
    <main><h1>${title}</h1><p>${paragraph}</p><h2>Details</h2><p>More words about ${title.toLowerCase()} follow here, enough to be an article body.</p></main>
    <footer>© Acme</footer></body></html>`;
}

const SITE: PageInput[] = [
  {
    url: 'https://acme.dev/',
    html: `<html><head><title>Acme Docs</title><meta name="description" content="Guides, API reference and examples for building with Acme widgets."></head>
      <body><main><h1>Welcome</h1><p>Acme widgets snap together into shelves, racks and whole rooms without any tools.</p>
      <ul><li><a href="/docs/install">Install</a></li><li><a href="/docs/configure">Configure</a></li><li><a href="/docs/deploy">Deploy</a></li>
      <li><a href="/api/widgets">Widgets API</a></li><li><a href="/api/shelves">Shelves API</a></li></ul></main></body></html>`,
  },
  { url: 'https://acme.dev/docs/install', html: docPage('Install', 'Install the Acme CLI with one command on Linux, macOS or Windows.'), lastModified: '2024-03-02' },
  { url: 'https://acme.dev/docs/configure', html: docPage('Configure', 'Configure widgets with a YAML file checked into your repository.') },
  { url: 'https://acme.dev/docs/deploy', html: docPage('Deploy', 'Deploy a shelf of widgets to production with zero downtime.') },
  { url: 'https://acme.dev/api/widgets', html: docPage('Widgets API', 'The Widgets API creates, lists and deletes widgets over HTTPS.') },
  { url: 'https://acme.dev/api/shelves', html: docPage('Shelves API', 'The Shelves API groups widgets into shelves and reports their load.') },
  { url: 'https://acme.dev/privacy', html: docPage('Privacy policy', 'We keep as little data about you as we possibly can.') },
  { url: 'https://acme.dev/docs/install#linux', html: docPage('Install', 'Duplicate of the install page, reached with a fragment.') },
];

// A home page whose contents list groups its pages under three headings: the site's own sections.
const STRUCTURED_SITE: PageInput[] = [
  {
    url: 'https://acme.dev/',
    html: `<html><head><title>Acme Docs</title></head><body><main><p>Acme widgets snap together into shelves without any tools.</p>
      <h2>Guides</h2><ul><li><a href="/docs/install">Install</a></li><li><a href="/docs/configure">Configure</a></li></ul>
      <h2>API</h2><ul><li><a href="/api/widgets">Widgets API</a></li><li><a href="/api/shelves">Shelves API</a></li></ul>
      <h2>Operations</h2><ul><li><a href="/docs/deploy">Deploy</a></li><li><a href="/docs/monitor">Monitor</a></li></ul></main></body></html>`,
  },
  ...['install', 'configure', 'deploy', 'monitor'].map((name) => ({ url: `https://acme.dev/docs/${name}`, html: docPage(name.charAt(0).toUpperCase() + name.slice(1), `How to ${name} Acme widgets, step by step, for every team.`) })),
  ...['widgets', 'shelves'].map((name) => ({ url: `https://acme.dev/api/${name}`, html: docPage(`${name.charAt(0).toUpperCase() + name.slice(1)} API`, `The ${name} endpoints of the Acme REST API, with examples.`) })),
];

// A manual whose home page is only its contents: the summary comes from its preface's first paragraph.
const MANUAL: PageInput[] = [
  {
    url: 'https://acme.dev/manual/index.html',
    html: `<html><head><title>Acme Manual</title></head><body><h1>Acme Manual</h1><div class="toc"><ul>
      <li><a href="preface.html">Preface</a><ul><li><a href="intro.html">What Is Acme?</a></li><li><a href="history.html">A Brief History of Acme</a></li></ul></li>
      <li><a href="tutorial.html">Tutorial</a></li><li><a href="reference.html">Reference</a></li></ul></div></body></html>`,
  },
  {
    url: 'https://acme.dev/manual/preface.html',
    html: `<html><head><title>Preface</title></head><body><h1>Preface</h1><p>This book is the official documentation of Acme.</p>
      <p>To make the large amount of information about Acme manageable, this book has been organized in several parts.</p>
      <ul><li><a href="intro.html">What Is Acme?</a></li><li><a href="history.html">A Brief History of Acme</a></li></ul></body></html>`,
  },
  ...[
    ['intro', 'What Is Acme?', 'Acme is a shelving system for widgets, designed at a small workshop in Leeds.'],
    ['history', 'A Brief History of Acme', 'The first Acme shelf was built in 1996 from leftover pine boards.'],
    ['tutorial', 'Tutorial', 'This tutorial walks through building a first shelf, from unpacking to loading.'],
    ['reference', 'Reference', 'The reference lists every Acme part with its size, load and finish.'],
  ].map(([name, title, paragraph]) => ({ url: `https://acme.dev/manual/${name}.html`, html: `<html><head><title>${title}</title></head><body><h1>${title}</h1><p>${paragraph}</p></body></html>` })),
];

// A manual in several languages, like Apache httpd's: a language switcher on every page, a home page that is
// only grouped contents, a translated page among the English ones, and a page two contents pages list.
const page = (title: string, body: string, lang = 'en') =>
  `<html lang="${lang}"><head><title>${title}</title></head><body class="no-sidebar"><div class="toplang"><p><span>Available Languages: </span>
  <a href="/de/x.html" hreflang="de" rel="alternate">de</a> | <a href="/en/x.html">en</a> | <a href="/fr/x.html" hreflang="fr" rel="alternate">fr</a></p></div>
  <h1>${title}</h1>${body}</body></html>`;
const MULTILINGUAL_MANUAL: PageInput[] = [
  {
    url: 'https://acme.dev/en/index.html',
    html: page('Acme Server', `<h2>Release Notes</h2><ul><li><a href="new_features_2_4.html">New features</a></li><li><a href="upgrading.html">Upgrading</a></li>
      <li><a href="compat.html">Compatibility</a></li></ul>
      <h2>Reference Manual</h2><ul><li><a href="quickreference.html">Directive Quick Reference</a></li><li><a href="mod/index.html">Modules</a></li></ul>
      <h2>Users' Guide</h2><ul><li><a href="caching.html">Caching</a></li><li><a href="logs.html">Log files</a></li></ul>`),
  },
  // In Portuguese under /en/, as Debian's apache2-doc serves it: release notes by its URL.
  {
    url: 'https://acme.dev/en/new_features_2_4.html',
    html: page('Visão geral das novas funcionalidades do Acme 2.4', '<p>Este documento descreve algumas das principais mudanças entre as versões do Acme.</p><ul><li><a href="mod/mod_cache.html">mod_cache</a></li></ul>', 'pt-br'),
  },
  { url: 'https://acme.dev/en/upgrading.html', html: page('Atualizando para o Acme 2.4', '<p>Este documento descreve as mudanças do servidor Acme que afetam a configuração.</p><ul><li><a href="mod/mod_cache.html">mod_cache</a></li></ul>', 'pt-br') },
  { url: 'https://acme.dev/en/compat.html', html: page('Compatibility', '<p>Compatibility notes list what changed for existing configurations.</p>') },
  { url: 'https://acme.dev/en/quickreference.html', html: page('Directive Quick Reference', '<p>The directive quick reference shows the usage of each Acme configuration directive.</p>') },
  // An index by its title, the part of the manual the modules are in by its home page's name for it.
  {
    url: 'https://acme.dev/en/mod/index.html',
    html: page('Module Index', '<p>Below is a list of all of the modules that come as part of the Acme Server distribution.</p><ul><li><a href="mod_cache.html">mod_cache</a></li></ul>'),
  },
  { url: 'https://acme.dev/en/mod/mod_cache.html', html: page('mod_cache', '<p>An HTTP caching filter for responses from the origin.</p>') },
  { url: 'https://acme.dev/en/caching.html', html: page('Caching', '<p>Caching makes an Acme server answer repeated requests without the origin.</p>') },
  { url: 'https://acme.dev/en/logs.html', html: page('Log files', '<p>Log files record every request the server answers and every error it meets.</p>') },
];

async function* arriving(pages: PageInput[]): AsyncGenerator<PageInput> {
  for (const page of pages) yield page;
}

describe('generateLlmsTxt', () => {
  test('a preface that opens with the site summary is described by what else it says', async () => {
    const result = await generateLlmsTxt(arriving(MANUAL), { siteUrl: 'https://acme.dev/manual/index.html', method: 'simple' });
    const document = parseLlmsTxt(result.llmsTxt);
    assert.equal(document.summary, 'This book is the official documentation of Acme.');
    const preface = document.sections.flatMap((section) => section.links).find((link) => link.title === 'Preface');
    assert.equal(preface?.notes, 'To make the large amount of information about Acme manageable, this book has been organized in several parts.');
  });

  test("a site that says nothing about itself is summed up by its home page's parts, not by a language switcher, a translation or a page about itself", async () => {
    const result = await generateLlmsTxt(arriving(MULTILINGUAL_MANUAL), { siteUrl: 'https://acme.dev/en/index.html', method: 'simple' });
    const document = parseLlmsTxt(result.llmsTxt);
    assert.equal(document.summary, "Acme Server: Release Notes, Reference Manual and Users' Guide.");
    const sectionOf = (title: string) => document.sections.find((section) => section.links.some((link) => link.title === title))?.name;
    // Listed by the modules' index and by release notes: the index, which the home page lists as "Modules", is its parent.
    assert.equal(sectionOf('mod_cache'), 'Reference Manual');
    assert.equal(sectionOf('Module Index'), 'Reference Manual');
    assert.equal(sectionOf('Visão geral das novas funcionalidades do Acme 2.4'), 'Optional');
  });

  test('without sections of the site\'s own, pages are listed in its reading order, not by how often they are linked', async () => {
    const chapter = (n: number) => ({
      url: `https://acme.dev/ch0${n}.html`,
      html: `<html><head><title>Chapter ${n}</title></head><body><h1>Chapter ${n}</h1><p>Chapter ${n} explains one part of the Acme shelving system in detail.</p>
        <p>See <a href="ch03.html">chapter 3</a> for the parts list.</p></body></html>`,
    });
    const home = {
      url: 'https://acme.dev/index.html',
      html: `<html><head><title>Acme Guide</title></head><body><h1>Acme Guide</h1><div class="toc"><ul><li><a href="ch01.html">Chapter 1</a></li>
        <li><a href="ch02.html">Chapter 2</a></li><li><a href="ch03.html">Chapter 3</a></li></ul></div></body></html>`,
    };
    const result = await generateLlmsTxt(arriving([home, chapter(1), chapter(2), chapter(3)]), { siteUrl: 'https://acme.dev/index.html', method: 'simple' });
    const titles = parseLlmsTxt(result.llmsTxt).sections.flatMap((section) => section.links.map((link) => link.title));
    assert.deepEqual(titles, ['Acme Guide', 'Chapter 1', 'Chapter 2', 'Chapter 3']);
  });

  test('a manual written as preformatted text lists its pages as its own, each described by its first paragraph of prose', async () => {
    const helpPage = (name: string, prose: string, links: string) => ({
      url: `https://acme.dev/${name}.html`,
      html: `<html><head><title>Acme help: ${name}</title></head><body><h1>Acme help: ${name}</h1><pre>
*${name}.txt*\tFor Acme version 9.0.  Last change: 2024 May 01

\t\t    ACME REFERENCE MANUAL

${prose}

${links}
${'    shelf.add(plank)  \t\tadds a plank\n'.repeat(20)}</pre></body></html>`,
    });
    const pages = [
      helpPage('help', 'Acme is a shelving system.  This manual tells how to plan, build and load its shelves.', 'Read <a href="motion.html">motion</a> and <a href="racks.html">racks</a>.'),
      helpPage('motion', 'These commands move a shelf along its rail.  Each takes a count.', '<a href="help.html">help</a>'),
      helpPage('racks', 'A rack holds shelves of one depth side by side.', '<a href="help.html">help</a>'),
    ];
    const result = await generateLlmsTxt(arriving(pages), { siteUrl: 'https://acme.dev/help.html', method: 'simple' });
    const links = parseLlmsTxt(result.llmsTxt).sections.flatMap((section) => section.links.map((link) => [section.name, link.title, link.notes]));
    assert.deepEqual(links.slice(1), [
      ['Pages', 'motion', 'These commands move a shelf along its rail. Each takes a count.'],
      ['Pages', 'racks', 'A rack holds shelves of one depth side by side.'],
    ]);
  });

  test("a page only mentioned in another folder's running text is listed with its own folder's pages", async () => {
    const home = manualPage(
      'index.html',
      'Acme',
      `<h2>Main commands</h2><ul><li><a href="acme-add.html">acme-add(1)</a></li><li><a href="acme-config.html">acme-config(1)</a></li>
      <li><a href="acme-mv.html">acme-mv(1)</a></li><li><a href="acme-rm.html">acme-rm(1)</a></li></ul>
      <h2>Guides</h2><ul><li><a href="acme-tutorial.html">acme-tutorial(7)</a></li><li><a href="acme-faq.html">acme-faq(7)</a></li><li><a href="acme-glossary.html">acme-glossary(7)</a></li></ul>
      <h2>Further documentation</h2><ul><li><a href="technical/api-index.html">Acme API Documents</a></li><li><a href="howto-index.html">Acme Howto Index</a></li></ul>`,
    );
    const pages = [
      home,
      manualPage('acme-add.html', 'acme-add(1)', '<p>Adds a shelf to the rack, with its widgets.</p>'),
      manualPage('acme-config.html', 'acme-config(1)', '<p>Gets and sets options. Bundle locations are read as <a href="technical/bundle-uri.html">bundle URIs</a> describe.</p>'),
      manualPage('acme-mv.html', 'acme-mv(1)', '<p>Moves a shelf to another place in the rack.</p>'),
      manualPage('acme-rm.html', 'acme-rm(1)', '<p>Removes a shelf from the rack and frees its widgets.</p>'),
      manualPage('acme-glossary.html', 'acme-glossary(7)', '<p>The terms Acme uses for its shelves, racks and widgets.</p>'),
      manualPage('acme-tutorial.html', 'acme-tutorial(7)', '<p>A tutorial introduction to Acme, from unpacking to a loaded shelf.</p>'),
      manualPage('acme-faq.html', 'acme-faq(7)', '<p>Frequently asked questions about shelves, racks and widgets.</p>'),
      manualPage('technical/api-index.html', 'Acme API Documents', '<p>Acme has grown a set of internal APIs.</p><ul><li><a href="api-trace.html">Trace API</a></li></ul>'),
      manualPage('technical/api-trace.html', 'Trace API', '<p>The Trace API prints debug and performance information.</p>'),
      manualPage('technical/bundle-uri.html', 'Bundle URIs', '<p>Bundles are files that store a pack of widgets with their metadata.</p>'),
      manualPage('howto-index.html', 'Acme Howto Index', '<p>A collection of postings describing how people use Acme.</p>'),
    ];
    const result = await generateLlmsTxt(arriving(pages), { siteUrl: 'https://acme.dev/index.html', method: 'simple' });
    const sections = parseLlmsTxt(result.llmsTxt).sections.map((section) => [section.name, section.links.map((link) => link.title)]);
    assert.deepEqual(sections, [
      ['Overview', ['Acme']],
      ['Main commands', ['acme-add(1)', 'acme-config(1)', 'acme-mv(1)', 'acme-rm(1)']],
      ['Guides', ['acme-tutorial(7)', 'acme-faq(7)', 'acme-glossary(7)']],
      ['Further documentation', ['Acme API Documents', 'Bundle URIs', 'Trace API', 'Acme Howto Index']],
    ]);
  });

  test("a page the home page's contents nest under an entry is placed there, though an earlier entry's page lists it as well", async () => {
    const entry = (href: string, text: string, nested = '') => `<li class="toctree-l1"><a class="reference internal" href="${href}">${text}</a>${nested}</li>`;
    const home = manualPage(
      'index.html',
      'Acme',
      `<h2>Get started</h2><div class="toctree-wrapper"><ul>${entry('usage/quickstart.html', 'Getting Started')}${entry('install.html', 'Installing Acme')}</ul></div>
      <h2>User Guides</h2><div class="toctree-wrapper"><ul>${entry('usage/index.html', 'Using Acme', '<ul><li class="toctree-l2"><a class="reference internal" href="usage/plugins/index.html">Plugins</a></li></ul>')}</ul></div>
      <h2>Reference</h2><div class="toctree-wrapper"><ul>${entry('cli.html', 'Command line')}${entry('api.html', 'API')}</ul></div>`,
    );
    const pages = [
      home,
      // The quick start, in the same folder, closes with a list of further topics that names the plugins too.
      manualPage('usage/quickstart.html', 'Getting Started', '<p>Acme builds shelves from a plan in a few commands.</p><h2>More topics</h2><ul><li><a href="plugins/index.html">Other plugins</a></li></ul>'),
      manualPage('install.html', 'Installing Acme', '<p>Acme is installed from the package index with one command.</p>'),
      manualPage('usage/index.html', 'Using Acme', '<p>This guide covers everything from planning to loading a shelf.</p><ul><li><a href="plugins/index.html">Plugins</a></li></ul>'),
      manualPage('usage/plugins/index.html', 'Plugins', '<p>Plugins add new kinds of shelves to Acme.</p><ul><li><a href="corner.html">Corner shelves</a></li></ul>'),
      manualPage('usage/plugins/corner.html', 'Corner shelves', '<p>The corner plugin fits a shelf into the angle of two walls.</p>'),
      manualPage('cli.html', 'Command line', '<p>The acme command plans, builds and checks shelves.</p>'),
      manualPage('api.html', 'API', '<p>The Python API builds shelves from a program.</p>'),
    ];
    const result = await generateLlmsTxt(arriving(pages), { siteUrl: 'https://acme.dev/index.html', method: 'simple' });
    const sectionOf = (title: string) => parseLlmsTxt(result.llmsTxt).sections.find((section) => section.links.some((link) => link.title === title))?.name;
    assert.equal(sectionOf('Getting Started'), 'Get started');
    assert.equal(sectionOf('Plugins'), 'User Guides');
    assert.equal(sectionOf('Corner shelves'), 'User Guides');
  });

  test("a page named default.html beside its folder's index.html is a page of its own, whichever arrives first", async () => {
    const home: PageInput = {
      url: 'https://acme.dev/',
      html: `<html><head><title>Acme Docs</title></head><body><main><p>Acme widgets snap together into shelves without any tools.</p>
        <ul><li><a href="/auth/index.html">Authentication</a></li><li><a href="/auth/default.html">Using authentication</a></li></ul></main></body></html>`,
    };
    const folderPage: PageInput = { url: 'https://acme.dev/auth/index.html', html: docPage('Authentication', 'Acme comes with a system that checks who is using a widget.') };
    const defaultPage: PageInput = { url: 'https://acme.dev/auth/default.html', html: docPage('Using authentication', 'This page explains how to use authentication in its default configuration.') };
    for (const pages of [[home, folderPage, defaultPage], [home, defaultPage, folderPage]]) {
      const result = await generateLlmsTxt(arriving(pages), { siteUrl: 'https://acme.dev/', method: 'simple' });
      assert.deepEqual(result.pages.map((page) => page.url).sort(), ['https://acme.dev/', 'https://acme.dev/auth/default.html', 'https://acme.dev/auth/index.html']);
    }
    // A server's default document (IIS) is its folder's page, as index.html is.
    assert.equal(pageKey('https://acme.dev/app/Default.aspx'), pageKey('https://acme.dev/app/'));
    assert.equal(pageKey('https://acme.dev/app/index.html'), pageKey('https://acme.dev/app/'));
  });

  test('simple: a valid llms.txt from page metadata, with site-wide boilerplate removed', async () => {
    const progress: GenerationProgress[] = [];
    const result = await generateLlmsTxt(arriving(SITE), {
      siteUrl: 'https://acme.dev/',
      method: 'simple',
      includeModificationDate: true,
      fullText: true,
      onProgress: (p) => progress.push(p),
    });
    const document = parseLlmsTxt(result.llmsTxt);
    assert.equal(document.title, 'Acme Docs');
    assert.equal(document.summary, 'Guides, API reference and examples for building with Acme widgets.');
    assert.deepEqual(
      document.sections.map((section) => [section.name, section.links.map((link) => link.title)]),
      [
        ['Overview', ['Acme Docs']],
        ['Docs', ['Install', 'Configure', 'Deploy']],
        ['API Reference', ['Widgets API', 'Shelves API']],
        ['Optional', ['Privacy policy']],
      ],
    );
    const install = document.sections[1].links[0];
    assert.equal(install.notes, 'Install the Acme CLI with one command on Linux, macOS or Windows. (last modified 2024-03-02)');
    assert.doesNotMatch(result.llmsTxt, /guides and reference for Acme widgets/, 'the shared meta description is gone');
    assert.equal(result.stats.pages, 7, 'the URL with a fragment is the same page');
    assert.equal(result.stats.aiWritten, 0);
    assert.ok(result.pages.every((page) => page.source === 'metadata'));
    assert.match(result.llmsFullTxt ?? '', /## Install\n\nSource: https:\/\/acme\.dev\/docs\/install\n\n/);
    assert.doesNotMatch(result.llmsFullTxt ?? '', /© Acme/);
    assert.deepEqual(progress.at(-1), { phase: 'render', done: 1, total: 1 });
    assert.equal(progress.filter((p) => p.phase === 'extract').length, 7);
  });

  test('simple without llms-full.txt reads pages from their outlines, the rest in the process without markdown: the same llms.txt', async () => {
    const glossary = {
      url: 'https://acme.dev/glossary',
      html: `<html><head><title>Glossary</title></head><body><main><h1>Glossary</h1><dl><dt>Shelf</dt>
        <dd><p>A row of widgets mounted on one wall, held by two brackets per metre.</p></dd></dl></main></body></html>`,
    };
    const site = [...SITE, glossary];
    const withFullText = await generateLlmsTxt(site, { siteUrl: 'https://acme.dev/', method: 'simple', fullText: true });
    const handedToThreads: string[] = [];
    const fromOutlines = await generateLlmsTxt(site, {
      siteUrl: 'https://acme.dev/',
      method: 'simple',
      extractor: async (_html, url) => {
        handedToThreads.push(url);
        throw new Error('no thread is needed without llms-full.txt');
      },
    });
    assert.equal(fromOutlines.llmsTxt, withFullText.llmsTxt);
    assert.equal(fromOutlines.llmsFullTxt, null);
    // The glossary's only text sits in a definition list, outside what an outline reads: its content is read.
    assert.match(fromOutlines.llmsTxt, /\[Glossary\]\(https:\/\/acme\.dev\/glossary\): A row of widgets mounted on one wall/);
    assert.deepEqual(handedToThreads, []);
    assert.equal(fromOutlines.stats.extractionFailures, 0);
    assert.deepEqual(fromOutlines.pages.filter((page) => page.markdown !== null), []);
  });

  test('with llms-full.txt, a page whose facts say nothing has its content facts from its one extraction', async () => {
    const glossary = {
      url: 'https://acme.dev/glossary',
      html: `<html><head><title>Glossary</title></head><body><main><h1>Glossary</h1><dl><dt>Shelf</dt>
        <dd><p>A row of widgets mounted on one wall, held by two brackets per metre.</p></dd></dl></main></body></html>`,
    };
    const site = [...SITE, glossary];
    const asked: Array<[string, boolean]> = [];
    const extractor: Extractor = async (html, url, wants) => (asked.push([url, wants?.content ?? false]), extractPage(html, url, {}, wants));
    const inPool = await generateLlmsTxt(site, { siteUrl: 'https://acme.dev/', method: 'simple', fullText: true, extractor });
    const inline = await generateLlmsTxt(site, { siteUrl: 'https://acme.dev/', method: 'simple', fullText: true });
    assert.equal(inPool.llmsTxt, inline.llmsTxt);
    assert.equal(inPool.llmsFullTxt, inline.llmsFullTxt);
    assert.deepEqual(asked.filter(([, content]) => content).map(([url]) => url), [glossary.url]);
    assert.match(inPool.llmsTxt, /\[Glossary\]\(https:\/\/acme\.dev\/glossary\): A row of widgets mounted on one wall/);
  });

  test('a secondary page (an index) is read only once chosen, not while pages arrive', async () => {
    const index = {
      url: 'https://acme.dev/genindex',
      html: `<html><head><title>Index</title></head><body><main><h1>Index</h1><ul><li><a href="/docs/install">install</a></li></ul></main></body></html>`,
    };
    // The index arrives second, among the pages a job of six could list (the home page and the five guides: the index and the privacy policy rank last).
    const site = [SITE[0], index, ...SITE.slice(1)];
    const read: string[] = [];
    const extractor = async (html: string, url: string) => (read.push(url), extractPage(html, url));
    const six = await generateLlmsTxt(site, { siteUrl: 'https://acme.dev/', method: 'simple', fullText: true, maxPages: 6, extractor });
    assert.equal(six.pages.length, 6);
    assert.ok(!read.includes(index.url), 'the index was left unread');
    assert.deepEqual(read.sort(), six.pages.map((page) => page.url).sort());

    read.length = 0;
    const all = await generateLlmsTxt(site, { siteUrl: 'https://acme.dev/', method: 'simple', fullText: true, maxPages: 20, extractor });
    assert.ok(read.includes(index.url));
    assert.match(all.llmsTxt, /## Optional\n\n- \[Index\]\(https:\/\/acme\.dev\/genindex\)/);
    assert.match(all.llmsFullTxt ?? '', /## Index\n\nSource: https:\/\/acme\.dev\/genindex\n\n/);
  });

  test('a page with no text of its own is named by the links of its content, not by the site’s menu', async () => {
    // SQLite's release notes: each page a list of changes linking what they are about, under the menu every page has.
    const menu = '<div class="menu"><a href="/about.html">About</a> <a href="/docs.html">Documentation</a> <a href="/download.html">Download</a> <a href="/support.html">Support</a></div>';
    const page = (path: string, title: string, content: string) => ({
      url: `https://db.example${path}`,
      html: `<html><head><title>${title}</title></head><body>${menu}<h2>${title}</h2>${content}</body></html>`,
    });
    const releases = [3, 2, 1].map((n) =>
      page(`/releaselog/3_${n}.html`, `Release 3.${n}`, `<ol><li><a href="/lang_${n}.html">Feature ${n}</a> added.</li><li>Faster <a href="/optimizer.html#v${n}">joins of ${n} tables</a>.</li></ol>`),
    );
    const home = page('/index.html', 'DB Home', `<p>DB is a small, fast, reliable database engine for embedded use.</p><ul>${releases.map((r, i) => `<li><a href="${r.url}">Release 3.${3 - i}</a></li>`).join('')}</ul>`);
    const others = ['about', 'docs', 'download', 'support'].map((name) => page(`/${name}.html`, name, `<p>The ${name} page of DB, with what a reader needs to know about it.</p>`));
    const result = await generateLlmsTxt([home, ...releases, ...others], { siteUrl: 'https://db.example/index.html', method: 'simple' });
    const line = (path: string) => result.llmsTxt.split('\n').find((text) => text.includes(`(https://db.example${path})`));
    assert.equal(line('/releaselog/3_2.html'), '- [Release 3.2](https://db.example/releaselog/3_2.html): Covers Feature 2 and joins of 2 tables.');
    assert.doesNotMatch(result.llmsTxt, /Covers About/);
  });

  test('a page only the footer leads to is listed under Optional, where the content reaches most pages', async () => {
    const page = (path: string, title: string, links: string) => ({
      url: `https://acme.dev${path}`,
      html: `<html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1><p>What ${title.toLowerCase()} tells a reader about widget shelves.</p>${links}</main><footer><a href="/about/">About</a></footer></body></html>`,
    });
    const guides = ['install', 'configure', 'deploy', 'upgrade'];
    const pages = [
      page('/', 'Acme', guides.map((name) => `<a href="/${name}/">${name}</a>`).join(' ')),
      ...guides.map((name) => page(`/${name}/`, name, '')),
      page('/about/', 'Who we are', ''),
    ];
    const document = parseLlmsTxt((await generateLlmsTxt(pages, { siteUrl: 'https://acme.dev/', method: 'simple' })).llmsTxt);
    const sectionOf = (url: string) => document.sections.find((section) => section.links.some((link) => link.url === url))?.name;
    assert.equal(sectionOf('https://acme.dev/about/'), 'Optional');
    assert.notEqual(sectionOf('https://acme.dev/install/'), 'Optional');
  });

  test('headings a template gives many pages describe none of them', async () => {
    // An API generator's pages: each a signature and the same two headings, linking the types it uses.
    const page = (name: string, type: string) => ({
      url: `https://acme.dev/api/${name}.html`,
      html: `<html lang="en"><head><title>${name}</title></head><body><main><h1>${name}</h1><h2>Type Parameters</h2><h2>Returns</h2><p><a href="/api/${type}.html">${type}</a></p></main></body></html>`,
    });
    const api = [page('defineShelf', 'ShelfOptions'), page('useShelf', 'Shelf'), page('mapShelves', 'ShelfMap'), page('ShelfOptions', 'Shelf'), page('Shelf', 'ShelfMap'), page('ShelfMap', 'Shelf')];
    const home = { url: 'https://acme.dev/', html: `<html lang="en"><head><title>Acme</title></head><body><p>Acme is a library of widget shelves for every warehouse.</p>${api.map((p) => `<a href="${p.url}">${p.url}</a>`).join(' ')}</body></html>` };
    const result = await generateLlmsTxt([home, ...api], { siteUrl: 'https://acme.dev/', method: 'simple' });
    assert.doesNotMatch(result.llmsTxt, /Type Parameters/);
    assert.match(result.llmsTxt, /\[defineShelf\]\(https:\/\/acme\.dev\/api\/defineShelf\.html\): Covers ShelfOptions\./);
  });

  test('a contents page is described by the pages it lists, not by the menu every page repeats', async () => {
    const menu = '<nav><a href="/guide/">Guide</a> <a href="/blog/">Blog</a> <a href="/faq/">FAQ</a></nav>';
    const page = (path: string, title: string, content: string) => ({
      url: `https://acme.dev${path}`,
      html: `<html lang="en"><head><title>${title}</title></head><body>${path === '/' ? '' : menu}<main><h1>${title}</h1>${content}</main></body></html>`,
    });
    const said = (title: string) => `<p>${title} tells a reader how widget shelves are put together.</p>`;
    const pages = [
      page('/', 'Acme', '<p>Acme is a library of widget shelves for every warehouse.</p><a href="/reference/">Reference</a>'),
      page('/reference/', 'Reference', '<ul><li><a href="/reference/shelves/">Shelves</a></li><li><a href="/reference/brackets/">Brackets</a></li></ul>'),
      ...['/reference/shelves/', '/reference/brackets/', '/guide/', '/blog/', '/faq/'].map((path) => page(path, path.split('/').at(-2)!, said(path))),
    ];
    const result = await generateLlmsTxt(pages, { siteUrl: 'https://acme.dev/', method: 'simple' });
    const reference = result.pages.find((listed) => listed.url === 'https://acme.dev/reference/');
    assert.equal(reference?.description, 'Covers Shelves and Brackets.');
  });

  test("a home page of filler text in another language than its own is summed up by the site's parts", async () => {
    const filler = 'Est in vagis et Pittheus tu arge accipiter regia iram vocatur nurus. Omnes ut olivae sensit arma sorori deducit.';
    const sidebar = '<nav><ul><li><span>Guides</span><ul><li><a href="/guides/one/">One</a></li><li><a href="/guides/two/">Two</a></li></ul></li><li><span>Reference</span><ul><li><a href="/ref/a/">A</a></li><li><a href="/ref/b/">B</a></li></ul></li></ul></nav>';
    const page = (path: string, title: string, text: string) => ({
      url: `https://acme.dev${path}`,
      html: `<html lang="en"><head><title>${title} | Acme Theme</title></head><body>${sidebar}<main><h1>${title}</h1><p>${text}</p></main></body></html>`,
    });
    const pages = [
      page('/', 'Introduction', filler),
      ...['one', 'two'].map((name) => page(`/guides/${name}/`, name, `How to set up shelf ${name} of the theme, with the steps it takes.`)),
      ...['a', 'b'].map((name) => page(`/ref/${name}/`, name, `The reference of option ${name}: what it does and the values it takes.`)),
    ];
    const result = await generateLlmsTxt(pages, { siteUrl: 'https://acme.dev/', method: 'simple' });
    assert.equal(parseLlmsTxt(result.llmsTxt).summary, 'Acme Theme: Guides and Reference.');
  });

  test('archives (by tag, author, date, page two on) and pages of placeholder text are not listed', async () => {
    const post = (path: string, title: string, text: string) => manualPage(path, title, `<p>${text}</p>`);
    const archive = (path: string, title: string) => manualPage(path, title, '<ul><li><a href="/blog/launch">Launch</a><p>We launched the widget shelf today.</p></li></ul>');
    const pages = [
      manualPage('', 'Acme', '<p>Acme widgets snap together into shelves.</p><ul><li><a href="/blog/">Blog</a></li><li><a href="/docs/install">Install</a></li><li><a href="/docs/demo">Demo</a></li></ul>'),
      post('blog/', 'Blog', 'News about Acme widgets, every month.'),
      post('blog/launch', 'Launch', 'We launched the widget shelf today.'),
      post('docs/install', 'Install', 'Install the Acme CLI with one command.'),
      post('docs/demo', 'Demo', 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.'),
      archive('blog/tags/news/', 'Posts tagged news'),
      archive('blog/authors/jane/', 'Jane Doe'),
      archive('blog/2024/05/', 'May 2024'),
      archive('blog/page/2/', 'Blog, page 2'),
    ];
    const result = await generateLlmsTxt(pages, { siteUrl: 'https://acme.dev/', method: 'simple' });
    assert.deepEqual(result.pages.map((page) => page.url).sort(), ['https://acme.dev/', 'https://acme.dev/blog/', 'https://acme.dev/blog/launch', 'https://acme.dev/docs/install']);
  });

  test('enhanced without a provider: key sentences from the built-in describer', async () => {
    const result = await generateLlmsTxt(SITE, { siteUrl: 'https://acme.dev/', method: 'enhanced' });
    assert.equal(result.llmsFullTxt, null);
    const configure = result.pages.find((page) => page.url.endsWith('/configure'));
    assert.equal(configure?.source, 'extractive');
    assert.match(configure?.description ?? '', /^Configure widgets with a YAML file checked into your repository\./);
    parseLlmsTxt(result.llmsTxt);
  });

  describe('enhanced with a model', () => {
    let server: FakeLlmServer;
    before(async () => {
      server = await startFakeLlmServer();
    });
    after(() => server.close());

    test('uses the model’s titles, descriptions, sections and site summary', async () => {
      const describer = createLlmDescriber({ provider: 'openai-compatible', baseURL: server.baseURL, model: 'fake', batchSize: 4 });
      const result = await generateLlmsTxt(SITE, { siteUrl: 'https://acme.dev/', method: 'enhanced', describer });
      assert.equal(result.stats.aiWritten, 7);
      assert.equal(result.stats.usage.calls, 2);
      assert.ok(result.stats.usage.totalTokens > 0);
      const document = parseLlmsTxt(result.llmsTxt);
      assert.equal(document.title, 'AI Site');
      assert.equal(document.summary, 'An AI-written summary of the site.');
      // The model put everything in "Docs"; the privacy page stays optional.
      assert.deepEqual(document.sections.map((section) => [section.name, section.links.length]), [['Docs', 6], ['Optional', 1]]);
      assert.equal(document.sections[0].links[1].title, 'AI title: Install');
    });

    test('shows the model the site’s own structure: its pages in order, with their current sections', async () => {
      const describer = createLlmDescriber({ provider: 'openai-compatible', baseURL: server.baseURL, model: 'fake', batchSize: 4 });
      const before = server.requests.length;
      await generateLlmsTxt(STRUCTURED_SITE, { siteUrl: 'https://acme.dev/', method: 'enhanced', describer });
      const prompt = server.requests.slice(before).find((request) => request.wantsSite)!.prompt;
      const simple = parseLlmsTxt((await generateLlmsTxt(STRUCTURED_SITE, { siteUrl: 'https://acme.dev/', method: 'simple' })).llmsTxt);
      assert.deepEqual(simple.sections.map((section) => section.name), ['Overview', 'Guides', 'API', 'Operations'], 'the headings above the home page’s lists');
      assert.match(prompt, /- Install \(https:\/\/acme\.dev\/docs\/install\) \[Guides\]\n- Configure \(https:\/\/acme\.dev\/docs\/configure\) \[Guides\]/);
      assert.match(prompt, /Current section: API/);
    });
  });

  test('stops when the job is canceled', async () => {
    const controller = new AbortController();
    controller.abort(new Error('Canceled'));
    await assert.rejects(generateLlmsTxt(SITE, { siteUrl: 'https://acme.dev/', method: 'simple', signal: controller.signal }), /Canceled/);
  });

  test('generates for 1,000 pages quickly and keeps only small results', async () => {
    const sections = ['docs', 'api', 'guides', 'blog', 'examples', 'reference'];
    function* thousandPages(): Generator<PageInput> {
      for (let i = 0; i < 1000; i++) {
        const folder = sections[i % sections.length];
        const paragraphs = Array.from({ length: 6 }, (_, p) => `<p>Paragraph ${p} of page ${i} explains part ${p} of the ${folder} topic in some detail, with <a href="/x/${p}">a link</a>.</p>`).join('');
        yield {
          url: `https://big.dev/${folder}/page-${i}`,
          html: `<html><head><title>Page ${i} | Big Docs</title><script>${'var x = 1;'.repeat(2000)}</script></head><body><nav>${'<a href="/">nav</a>'.repeat(20)}</nav><main><h1>Page ${i}</h1>${paragraphs}<pre><code class="language-js">run(${i})</code></pre></main></body></html>`,
          lastModified: null,
        };
      }
    }
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const result = await generateLlmsTxt(thousandPages(), { siteUrl: 'https://big.dev/', method: 'enhanced', fullText: true });
    const seconds = (performance.now() - started) / 1000;
    const heapGrowthMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6;
    console.log(`1,000 pages: ${seconds.toFixed(1)} s (${(1000 / seconds).toFixed(0)} pages/s), heap +${heapGrowthMb.toFixed(0)} MB, llms-full.txt ${(result.llmsFullTxt!.length / 1e6).toFixed(1)} MB`);
    assert.equal(result.stats.pages, 1000);
    assert.equal(parseLlmsTxt(result.llmsTxt).sections.reduce((sum, section) => sum + section.links.length, 0), 1000);
    assert.ok(seconds < 45, `took ${seconds.toFixed(1)} s`);
    assert.ok(heapGrowthMb < 300, `heap grew ${heapGrowthMb.toFixed(0)} MB`);
  });
});
