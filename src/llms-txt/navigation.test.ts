import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateLlmsTxt } from './generate.ts';
import { parseLlmsTxt } from './testing/llms-txt-parser.ts';
import type { PageInput } from './types.ts';

interface SidebarPage {
  path: string;
  title: string;
  text: string;
}

/** A page of acme.dev: the site's sidebar (as `sidebar` draws it for this page), then its content. */
function withSidebar(page: SidebarPage, sidebar: (current: SidebarPage) => string): PageInput {
  return {
    url: `https://acme.dev${page.path}`,
    html: `<html lang="en"><head><title>${page.title} | Acme</title></head><body>
      <header><a href="/">Acme</a></header>
      <aside><nav aria-label="Sidebar">${sidebar(page)}</nav></aside>
      <main><h1>${page.title}</h1><p>${page.text}</p></main></body></html>`,
  };
}

function sectionsOf(llmsTxt: string): Array<[string, string[]]> {
  return parseLlmsTxt(llmsTxt).sections.map((section) => [section.name, section.links.map((link) => link.title)]);
}

describe('sections from the navigation the pages repeat', () => {
  // Captions as headings (VitePress), as a <details> group's <summary> (Starlight), as a list item of text alone (mdBook), as an item's text over its nested list (Hugo).
  const captionStyles: Record<string, (caption: string, entries: string) => string> = {
    heading: (caption, entries) => `<h2>${caption}</h2><ul>${entries}</ul>`,
    summary: (caption, entries) => `<details open><summary>${caption}</summary><ul>${entries}</ul></details>`,
    'text item': (caption, entries) => `<ul><li class="part-title">${caption}</li>${entries}</ul>`,
    // Hugo's book theme: the site's name as a heading that is all link, each group an item of text over its nested list.
    'item text over a nested list': (caption, entries) => `<h2><a href="/">Acme</a></h2><ul><li><span>${caption}</span><ul>${entries}</ul></li></ul>`,
  };
  for (const [style, captioned] of Object.entries(captionStyles)) test(`a sidebar's captioned groups (${style}) name the sections, in its order, though the URLs do not mirror them`, async () => {
    const groups: Array<[string, SidebarPage[]]> = [
      ['Introduction', [
        { path: '/what-is-acme.html', title: 'What is Acme?', text: 'Acme builds shelves from a plan written in a small language.' },
        { path: '/start.html', title: 'Getting Started', text: 'Install Acme and build a first shelf in five minutes.' },
        { path: '/p/3.html', title: 'Concepts', text: 'Shelves, racks and widgets are the three things Acme knows.' },
      ]],
      ['Writing', [
        { path: '/p/4.html', title: 'Plans', text: 'A plan says where each shelf goes and what it holds.' },
        { path: '/w/layouts.html', title: 'Layouts', text: 'Layouts arrange racks along a wall or around a corner.' },
        { path: '/p/6.html', title: 'Widgets', text: 'Widgets are the small parts that hold a shelf in place.' },
        { path: '/x/7.html', title: 'Checking a plan', text: 'The checker finds shelves that would not bear their load.' },
      ]],
      ['Reference', [
        { path: '/p/8.html', title: 'Command line', text: 'The acme command plans, builds and checks shelves.' },
        { path: '/zz/api.html', title: 'API', text: 'The programming interface builds shelves from a program.' },
        { path: '/p/10.html', title: 'Configuration', text: 'Settings change the units, the materials and the output.' },
        { path: '/a/11.html', title: 'Glossary', text: 'Every term Acme uses, from bracket to widget, defined.' },
      ]],
    ];
    const sidebar = () => groups.map(([caption, pages]) => captioned(caption, pages.map((page) => `<li><a href="${page.path}">${page.title}</a></li>`).join(''))).join('');
    const home: PageInput = {
      url: 'https://acme.dev/',
      html: `<html lang="en"><head><title>Acme</title></head><body><main><h1>Acme</h1><p>Shelves built from a plan, checked before they are built.</p>
        <p><a href="/what-is-acme.html">Get started</a></p></main></body></html>`,
    };
    const pages = [home, ...groups.flatMap(([, members]) => members).map((page) => withSidebar(page, sidebar))];
    const result = await generateLlmsTxt(pages, { siteUrl: 'https://acme.dev/', method: 'simple' });
    assert.deepEqual(sectionsOf(result.llmsTxt), [
      ['Overview', ['Acme']],
      ...groups.map(([caption, members]): [string, string[]] => [caption, members.map((page) => page.title)]),
    ]);
  });

  test("a list in the pages' content that many of them repeat (the types an API page uses) is no part of the navigation", async () => {
    const groups: Array<[string, SidebarPage[]]> = ['Guide', 'Stores', 'Plugins'].map((caption, group) => [
      caption,
      [1, 2, 3].map((n) => ({ path: `/${caption.toLowerCase()}/${n}.html`, title: `${caption} ${n}`, text: `Part ${n} of the ${caption.toLowerCase()} explains one more thing in full.` })),
    ]);
    const sidebar = () => groups.map(([caption, pages]) => `<h2>${caption}</h2><ul>${pages.map((page) => `<li><a href="${page.path}">${page.title}</a></li>`).join('')}</ul>`).join('');
    const types = ['StateTree', 'GettersTree'];
    const typeList = `<h2>Type Parameters</h2><ul>${types.map((name) => `<li><a href="/types/${name}.html">${name}</a></li>`).join('')}</ul>`;
    const home: PageInput = {
      url: 'https://acme.dev/',
      html: `<html lang="en"><head><title>Acme</title></head><body><main><h1>Acme</h1><p>Shelves built from a plan, checked before they are built.</p>
        <p><a href="/guide/1.html">Get started</a></p></main></body></html>`,
    };
    const pages = [
      home,
      ...groups.flatMap(([, members]) => members).map((page) => withSidebar({ ...page, text: `${page.text}</p>${typeList}<p>` }, sidebar)),
      ...types.map((name) => withSidebar({ path: `/types/${name}.html`, title: name, text: `The ${name} type describes what a store holds.` }, sidebar)),
    ];
    const result = await generateLlmsTxt(pages, { siteUrl: 'https://acme.dev/', method: 'simple' });
    const names = sectionsOf(result.llmsTxt).map(([name]) => name);
    assert.ok(!names.includes('Type Parameters'), names.join(', '));
    assert.deepEqual(names.filter((name) => ['Guide', 'Stores', 'Plugins'].includes(name)), ['Guide', 'Stores', 'Plugins']);
  });

  test('a sidebar that opens only the group of the page shown, its groups named by links, its links without the slash the pages are served at', async () => {
    const groups: Array<[string, SidebarPage[]]> = [
      ['Guides', [
        { path: '/guide/install/', title: 'Installation', text: 'Acme is installed from the package index with one command.' },
        { path: '/guide/first-shelf/', title: 'A first shelf', text: 'This guide builds one shelf from a plan of three lines.' },
        { path: '/guide/upgrade/', title: 'Upgrading', text: 'Plans written for the previous release need two changes.' },
      ]],
      ['Commands', [
        { path: '/cmd/plan/', title: 'plan', text: 'Writes a plan for the shelves the rack can hold.' },
        { path: '/cmd/build/', title: 'build', text: 'Builds the shelves a plan describes, one rack at a time.' },
        { path: '/cmd/check/', title: 'check', text: 'Checks that every shelf of a plan bears its load.' },
      ]],
      ['Configuration File', [
        { path: '/config/units/', title: 'units', text: 'Sets whether lengths are read in inches or millimetres.' },
        { path: '/config/material/', title: 'material', text: 'Chooses the wood or metal that shelves are cut from.' },
        { path: '/config/output/', title: 'output', text: 'Names the file that the finished drawing is written to.' },
      ]],
    ];
    const sidebar = (current: SidebarPage) =>
      `<ul>${groups
        .map(([caption, members]) => {
          const link = (page: SidebarPage, text: string) => `<a href="${page.path.slice(0, -1)}">${text}</a>`;
          const entries = members.includes(current) ? `<ul>${members.map((page) => `<li>${link(page, page.title)}</li>`).join('')}</ul>` : '';
          return `<li>${link(members[0], caption)}${entries}</li>`;
        })
        .join('')}</ul>`;
    const home: PageInput = {
      url: 'https://acme.dev/',
      html: `<html lang="en"><head><title>Acme</title></head><body><main><h1>Acme</h1><p>Shelves built from a plan, checked before they are built.</p>
        <p><a href="/guide/install">Get started</a> <a href="/cmd/plan">Commands</a> <a href="/config/units">Settings</a></p></main></body></html>`,
    };
    const pages = [home, ...groups.flatMap(([, members]) => members).map((page) => withSidebar(page, sidebar))];
    const result = await generateLlmsTxt(pages, { siteUrl: 'https://acme.dev/', method: 'simple' });
    assert.deepEqual(sectionsOf(result.llmsTxt), [
      ['Overview', ['Acme']],
      ...groups.map(([caption, members]): [string, string[]] => [caption, members.map((page) => page.title)]),
    ]);
  });
  test("a sidebar of two captioned parts: each a section; the larger splits by its own sub-groups only, never by an item without a link", async () => {
    const page = (path: string, title: string, text: string): SidebarPage => ({ path, title, text });
    const userGuide = [
      page('/guide/install.html', 'Installation', 'Acme is installed from the package index with one command.'),
      page('/guide/reading.html', 'Reading a plan', 'A plan lists the shelves of one rack from the floor up.'),
      page('/guide/creating.html', 'Creating a plan', 'The new command writes a plan with one shelf to start from.'),
    ];
    const commands = page('/cli/index.html', 'Command line', 'The acme command plans, builds and checks shelves.');
    const subcommands = [
      page('/cli/plan.html', 'plan', 'Writes a plan for the shelves the rack can hold.'),
      page('/cli/build.html', 'build', 'Builds the shelves a plan describes, one rack at a time.'),
      page('/cli/check.html', 'check', 'Checks that every shelf of a plan bears its load.'),
      page('/cli/clean.html', 'clean', 'Removes the drawings a build left behind in the output folder.'),
    ];
    const format = page('/format/index.html', 'Format', 'The files a plan is written in, and what each line means.');
    const formatPages = [
      page('/format/summary.html', 'Summary file', 'The summary file lists the racks of a plan in their order.'),
      page('/format/config.html', 'Configuration', 'Settings change the units, the materials and the output.'),
    ];
    const plain = [
      page('/ci.html', 'Continuous integration', 'Plans can be checked on every change by a build server.'),
      page('/misc/contributors.html', 'Contributors', 'The people who wrote and improved Acme over the years.'),
    ];
    const item = (entry: SidebarPage) => `<li class="chapter-item"><a href="${entry.path}">${entry.title}</a></li>`;
    // An item without a link (a chapter not yet written) ends its nested list: it captions nothing.
    const sidebar = () =>
      `<ol class="chapter"><li class="part-title">User Guide</li>${userGuide.map(item).join('')}<li class="part-title">Reference Guide</li>` +
      `${item(commands)}<li><ol class="section">${subcommands.map(item).join('')}</ol></li>` +
      `${item(format)}<li><ol class="section">${item(formatPages[0])}<li><ol class="section"><li class="chapter-item"><div>Draft chapter</div></li></ol></li>${item(formatPages[1])}</ol></li>` +
      `${plain.map(item).join('')}</ol>`;
    const home: PageInput = {
      url: 'https://acme.dev/',
      html: `<html lang="en"><head><title>Acme</title></head><body><main><h1>Acme</h1><p>Shelves built from a plan, checked before they are built.</p>
        <p><a href="/guide/install.html">Get started</a></p></main></body></html>`,
    };
    const all = [...userGuide, commands, ...subcommands, format, ...formatPages, ...plain];
    const result = await generateLlmsTxt([home, ...all.map((entry) => withSidebar(entry, sidebar))], { siteUrl: 'https://acme.dev/', method: 'simple' });
    assert.deepEqual(sectionsOf(result.llmsTxt), [
      ['Overview', ['Acme']],
      ['User Guide', userGuide.map((entry) => entry.title)],
      ['Command line', [commands, ...subcommands].map((entry) => entry.title)],
      ['Reference Guide', [format, ...formatPages, plain[0]].map((entry) => entry.title)],
      // A list of the people behind the project is secondary, wherever the sidebar puts it.
      ['Optional', [plain[1].title]],
    ]);
  });
  test("an older version's pages, repeating the current pages' paths under its number, are not chosen over them, nor listed: its entry page repeats the home page", async () => {
    const groups: Array<[string, SidebarPage[]]> = ['Guide', 'Commands', 'Settings'].map((caption) => [
      caption,
      [1, 2, 3].map((n) => ({ path: `/${caption.toLowerCase()}/${n}/`, title: `${caption} ${n}`, text: `Part ${n} of the ${caption.toLowerCase()} explains one more thing in full.` })),
    ]);
    const versions = ['1.0', '1.1'];
    const sidebar = (prefix: string) => () =>
      `<ul>${versions.map((version) => `<li><a href="/${version}/">Acme ${version}</a></li>`).join('')}</ul>` +
      groups.map(([caption, members]) => `<h2>${caption}</h2><ul>${members.map((page) => `<li><a href="${prefix}${page.path}">${page.title}</a></li>`).join('')}</ul>`).join('');
    const homeOf = (prefix: string, text: string): PageInput => ({
      url: `https://acme.dev${prefix}/`,
      html: `<html lang="en"><head><title>Acme</title></head><body><aside><nav>${sidebar(prefix)()}</nav></aside><main><h1>Acme</h1><p>${text}</p></main></body></html>`,
    });
    const current = groups.flatMap(([, members]) => members);
    const older = versions.flatMap((version) => [
      homeOf(`/${version}`, `Acme ${version} built shelves from a plan, as its manual explains.`),
      ...current.map((page) => withSidebar({ ...page, path: `/${version}${page.path}`, text: `${page.text} (Acme ${version})` }, sidebar(`/${version}`))),
    ]);
    // Old versions arrive first, as a crawl that follows the version menu may read them.
    const pages = [homeOf('', 'Shelves built from a plan, checked before they are built.'), ...older, ...current.map((page) => withSidebar(page, sidebar('')))];
    const result = await generateLlmsTxt(pages, { siteUrl: 'https://acme.dev/', method: 'simple', maxPages: 12 });
    const file = parseLlmsTxt(result.llmsTxt);
    const listed = (section: string) => file.sections.filter((each) => (section === 'Optional') === (each.name === 'Optional')).flatMap((each) => each.links.map((link) => new URL(link.url).pathname));
    assert.deepEqual(listed('main').sort(), ['/', ...current.map((page) => page.path)].sort());
    assert.deepEqual(listed('Optional'), []);
  });
  test("where no link block repeats, a page whose content lists most of the site's pages (a sitemap page) is the tree: each of its entries a section", async () => {
    const page = (path: string, title: string): SidebarPage => ({ path, title, text: `The ${title.toLowerCase()} page explains one part of Acme in full detail.` });
    const singles = [page('/install/', 'Installation'), page('/reference/', 'Library Reference'), page('/cli/', 'Command Line')];
    const extensions = page('/extensions/', 'Extensions');
    const builtIn = ['Tables', 'Footnotes', 'Abbreviations', 'Admonition', 'Smarty'].map((title) => page(`/extensions/${title.toLowerCase()}/`, title));
    const after = [page('/extensions/api/', 'Extension API'), page('/test_tools/', 'Test Tools')];
    const item = (entry: SidebarPage) => `<li><a href="${entry.path}">${entry.title}</a></li>`;
    const sitemap: PageInput = {
      url: 'https://acme.dev/sitemap.html',
      html: `<html lang="en"><head><title>Sitemap</title></head><body><div role="main"><h1>Sitemap</h1><ul><li>Acme</li>${singles.map(item).join('')}${item(extensions)}
        <li>Built-in extensions<ul>${builtIn.map(item).join('')}</ul></li>${after.map(item).join('')}</ul></div></body></html>`,
    };
    // Each page's sidebar holds its own headings only; its menu bar's link to the sitemap is chrome.
    const render = (entry: SidebarPage): PageInput => ({
      url: `https://acme.dev${entry.path}`,
      html: `<html lang="en"><head><title>${entry.title}</title></head><body><div class="related" role="navigation"><a href="/sitemap.html">index</a></div>
        <div class="sidebar" role="navigation"><ul><li><a href="#top">${entry.title}</a></li></ul></div>
        <div role="main"><h1>${entry.title}</h1><p>${entry.text}</p></div></body></html>`,
    });
    const home: PageInput = {
      url: 'https://acme.dev/',
      html: `<html lang="en"><head><title>Acme</title></head><body><div class="related" role="navigation"><a href="/sitemap.html">index</a></div><div role="main"><h1>Acme</h1>
        <p>Acme turns plain text into shelves. To get started, see the <a href="/install/">installation</a>, the <a href="/reference/">reference</a> and the <a href="/extensions/">extensions</a>.</p></div></body></html>`,
    };
    const all = [...singles, extensions, ...builtIn, ...after];
    const result = await generateLlmsTxt([home, ...all.map(render), sitemap], { siteUrl: 'https://acme.dev/', method: 'simple' });
    assert.deepEqual(sectionsOf(result.llmsTxt).filter(([name]) => name !== 'Optional'), [
      ['Overview', ['Acme']],
      ...singles.map((entry): [string, string[]] => [entry.title, [entry.title]]),
      ['Extensions', [extensions.title]],
      // An item of text alone over a nested list captions it: those entries are a part of their own.
      ['Built-in extensions', builtIn.map((entry) => entry.title)],
      ...after.map((entry): [string, string[]] => [entry.title, [entry.title]]),
    ]);
  });
  test("a home page whose contents nest (a manual's chapters, each with its sections on its one page): each chapter a section, however short", async () => {
    const chapters = ['Introduction', 'Installing Acme', 'Writing Plans', 'Checking Loads', 'Concluding Remarks'];
    const entry = (title: string, index: number) => {
      const sections = index % 2 === 0 ? `<ul class="toc"><li><a href="/manual_${index + 1}.html#s1">${index + 1}.1 About ${title}</a></li><li><a href="/manual_${index + 1}.html#s2">${index + 1}.2 More on ${title}</a></li></ul>` : '';
      return `<li><a href="/manual_${index + 1}.html#top">${index + 1}. ${title}</a>${sections}</li>`;
    };
    const home: PageInput = {
      url: 'https://acme.dev/',
      html: `<html lang="en"><head><title>Acme manual</title></head><body><h1>Acme manual</h1><p>This manual documents Acme, a planner for shelves of every size.</p>
        <div class="contents"><ul class="toc">${chapters.map(entry).join('')}</ul></div></body></html>`,
    };
    const pages = chapters.map((title, index): PageInput => ({
      url: `https://acme.dev/manual_${index + 1}.html`,
      html: `<html lang="en"><head><title>Acme manual: ${index + 1}. ${title}</title></head><body><h1>${index + 1}. ${title}</h1><p>This chapter explains ${title.toLowerCase()} with Acme in detail.</p></body></html>`,
    }));
    const result = await generateLlmsTxt([home, ...pages], { siteUrl: 'https://acme.dev/', method: 'simple' });
    assert.deepEqual(sectionsOf(result.llmsTxt).map(([name]) => name), ['Overview', ...chapters]);
  });
});

describe('a part that would swamp the file', () => {
  test('keeps its navigation entries and most cited pages; its least cited pages below the navigation go to Optional', async () => {
    const guide = ['Install', 'Plans', 'Racks', 'Loads', 'Checks'].map((title): SidebarPage => ({ path: `/guide/${title.toLowerCase()}.html`, title, text: `${title} are one part of working with Acme, explained in full.` }));
    const symbols = Array.from({ length: 20 }, (_, i): SidebarPage => ({ path: `/api/symbol-${i}.html`, title: `symbol${i}()`, text: `The symbol${i} function does one thing of its own for shelves.` }));
    const apiIndex: SidebarPage = { path: '/api/index.html', title: 'API', text: 'Every function of the Acme library, one page each.' };
    const sidebar = () =>
      `<h2>Guide</h2><ul>${guide.map((page) => `<li><a href="${page.path}">${page.title}</a></li>`).join('')}</ul>` +
      `<h2>Reference</h2><ul><li><a href="${apiIndex.path}">${apiIndex.title}</a></li></ul>`;
    // The guide cites the first three symbols on every page; the API index lists all of them.
    const cite = symbols.slice(0, 3).map((symbol) => ` See <a href="${symbol.path}">${symbol.title}</a>.`).join('');
    const pages: PageInput[] = [
      { url: 'https://acme.dev/', html: `<html lang="en"><head><title>Acme</title></head><body><aside><nav>${sidebar()}</nav></aside><main><h1>Acme</h1><p>Acme builds shelves from plans.</p></main></body></html>` },
      ...guide.map((page) => withSidebar({ ...page, text: page.text + cite }, sidebar)),
      withSidebar({ ...apiIndex, text: `${apiIndex.text}</p><ul>${symbols.map((symbol) => `<li><a href="${symbol.path}">${symbol.title}</a></li>`).join('')}</ul><p>` }, sidebar),
      ...symbols.map((symbol) => withSidebar(symbol, sidebar)),
    ];
    const file = parseLlmsTxt((await generateLlmsTxt(pages, { siteUrl: 'https://acme.dev/', method: 'simple' })).llmsTxt);
    const reference = file.sections.find((section) => section.name === 'Reference')!.links.map((link) => link.title);
    const primary = file.sections.filter((section) => section.name !== 'Optional').flatMap((section) => section.links).length;
    assert.ok(reference.length <= 0.4 * primary, `${reference.length} of ${primary}`);
    assert.deepEqual(reference.slice(0, 4), ['API', 'symbol0()', 'symbol1()', 'symbol2()'], 'the entry and the cited symbols stay');
    const optional = file.sections.find((section) => section.name === 'Optional')!.links.map((link) => link.title);
    assert.ok(optional.includes('symbol19()'));
    assert.equal(reference.length + optional.length, symbols.length + 1, 'every symbol is listed');
  });
});

describe('furniture most pages share', () => {
  test("a beginning or end most titles share is no part of any page's title; it names the site, whose home page's title-only meta description is no summary", async () => {
    const node = (path: string, title: string, text: string): PageInput => ({
      url: `https://acme.dev${path}`,
      html: `<html lang="en"><head><title>${title}</title><meta name="description" content="${title}"></head><body><h1>${title}</h1><p>${text}</p></body></html>`,
    });
    const chapters = ['1. Introduction', '2. Planning a Shelf', '3. Building Racks', '4. Checking Loads', '5. Concluding Remarks'];
    const home = node(
      '/index.html',
      'Acme Shelf Manual: Acme Shelf Manual',
      `This manual documents the Acme shelf tools, version 2.1.</p><ul>${chapters.map((title, index) => `<li><a href="/shelf_${index + 1}.html">${title}</a></li>`).join('')}</ul><p>`,
    );
    const pages = [home, ...chapters.map((title, index) => node(`/shelf_${index + 1}.html`, `Acme Shelf Manual: ${title}`, `Chapter ${index + 1} of the manual explains ${title.slice(3).toLowerCase()} in detail.`))];
    const result = await generateLlmsTxt(pages, { siteUrl: 'https://acme.dev/index.html', method: 'simple' });
    const file = parseLlmsTxt(result.llmsTxt);
    assert.equal(file.title, 'Acme Shelf Manual');
    assert.notEqual(file.summary, 'Acme Shelf Manual: Acme Shelf Manual');
    assert.deepEqual(file.sections.flatMap((section) => section.links.map((link) => link.title)).slice(1), chapters);
  });

  test("a \" | Name\" end that most titles with parts share is dropped, though pages with a bare og:title have no parts", async () => {
    const node = (path: string, title: string, ogTitle: boolean, text: string): PageInput => ({
      url: `https://acme.dev${path}`,
      html: `<html lang="en"><head><title>${title} | Shelf Book</title>${ogTitle ? `<meta property="og:title" content="${title}">` : ''}</head>
        <body><h1>${title}</h1><p>${text}</p></body></html>`,
    });
    const titles = ['Buttons', 'Columns', 'Details', 'Hints', 'Tabs', 'Plans', 'Racks', 'Widgets', 'Loads', 'Walls'];
    // Half the pages carry an og:title: their title is the bare name, no " | Acme Shelves" to count.
    const pages = titles.map((title, index) => node(`/docs/${title.toLowerCase()}/`, title, index % 2 === 0, `The ${title.toLowerCase()} page explains one part of a shelf in full detail.`));
    const home = node('/', 'Introduction', true, `Shelves built from a plan.</p><ul>${titles.map((title) => `<li><a href="/docs/${title.toLowerCase()}/">${title}</a></li>`).join('')}</ul><p>`);
    const result = await generateLlmsTxt([home, ...pages], { siteUrl: 'https://acme.dev/', method: 'simple' });
    const listed = parseLlmsTxt(result.llmsTxt).sections.flatMap((section) => section.links.map((link) => link.title));
    assert.deepEqual(listed.filter((title) => title !== 'Introduction' && title !== 'Shelf Book').sort(), [...titles].sort());
  });

  for (const [kind, notice] of [
    ['a release notice', 'for Acme 2.1.4 The latest version of this documentation can be found on-line at <a href="https://acme.dev/latest/">https://acme.dev/latest/</a>.'],
    ['a byline', 'by Jane Doe and the many people who wrote its chapters'],
  ]) test(`the summary is the site's first descriptive sentence, not ${kind}`, async () => {
    const node = (path: string, title: string, body: string): PageInput => ({
      url: `https://acme.dev${path}`,
      html: `<html lang="en"><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`,
    });
    const chapters = ['Overview', 'Planning', 'Building', 'Checking'];
    const home = node('/index.html', 'Acme Reference Manual', `<p>${notice}</p><ul>${chapters.map((title) => `<li><a href="/${title.toLowerCase()}.html">${title}</a></li>`).join('')}</ul>`);
    const pages = chapters.map((title, index) =>
      node(`/${title.toLowerCase()}.html`, title, index === 0 ? '<p>Acme is a library that plans shelves and checks the loads they bear.</p>' : `<p>The ${title.toLowerCase()} chapter explains one step in full detail.</p>`),
    );
    const result = await generateLlmsTxt([home, ...pages], { siteUrl: 'https://acme.dev/index.html', method: 'simple' });
    const file = parseLlmsTxt(result.llmsTxt);
    assert.equal(file.summary, 'Acme is a library that plans shelves and checks the loads they bear.');
    if (kind === 'a release notice') assert.doesNotMatch(file.sections[0].links[0].notes ?? '', /latest version/);
  });

  test("a parenthesised end most titles share (an API's name and version) is dropped from each title", async () => {
    const classes = ['StringUtils', 'ArrayUtils', 'CharSet', 'Validate'];
    const page = (path: string, title: string, text: string): PageInput => ({
      url: `https://acme.dev/api/${path}`,
      html: `<html lang="en"><head><title>${title} (Acme Lang 3.1 API)</title></head><body><main><h1>${title}</h1><p>${text}</p></main></body></html>`,
    });
    const home = page('index.html', 'Overview', `The Acme Lang library.</p><ul>${classes.map((name) => `<li><a href="${name}.html">${name}</a></li>`).join('')}</ul><p>`);
    const pages = [home, ...classes.map((name) => page(`${name}.html`, name, `The ${name} class holds static helpers for everyday work.`))];
    const result = await generateLlmsTxt(pages, { siteUrl: 'https://acme.dev/api/index.html', method: 'simple' });
    const file = parseLlmsTxt(result.llmsTxt);
    assert.equal(file.title, 'Acme Lang 3.1 API');
    assert.deepEqual(file.sections.flatMap((section) => section.links.map((link) => link.title)).slice(1), classes);
  });

  test("a line every page's generator writes from one template, only names changing, describes none of them", async () => {
    const classes: Array<[string, string]> = [
      ['Shelf', 'A shelf holds widgets at one height.'],
      ['Rack', 'Racks stand against a wall and carry shelves.'],
      ['Widget', 'The smallest part Acme builds with.'],
      ['Bracket', 'Brackets fix a shelf to its rack.'],
      ['Plan', 'Where every shelf of a rack goes.'],
      ['Checker', 'Finds shelves that would not bear their load.'],
    ];
    const page = (name: string, text: string): PageInput => ({
      url: `https://acme.dev/api/acme/lang/${name}.html`,
      html: `<html lang="en"><head><title>${name}</title><meta name="description" content="declaration: package: acme.lang, class: ${name}"></head>
        <body><main><h1>Class ${name}</h1><div class="block">${text}</div></main></body></html>`,
    });
    const home: PageInput = {
      url: 'https://acme.dev/api/',
      html: `<html lang="en"><head><title>Acme API</title></head><body><main><h1>Acme API</h1><p>The classes of the Acme library, one page each.</p>
        <ul>${classes.map(([name]) => `<li><a href="acme/lang/${name}.html">${name}</a></li>`).join('')}</ul></main></body></html>`,
    };
    const result = await generateLlmsTxt([home, ...classes.map(([name, text]) => page(name, text))], { siteUrl: 'https://acme.dev/api/', method: 'simple' });
    const descriptions = parseLlmsTxt(result.llmsTxt).sections.flatMap((section) => section.links.map((link) => link.notes ?? ''));
    assert.deepEqual(descriptions.filter((text) => text.startsWith('declaration:')), []);
    assert.ok(descriptions.includes('Racks stand against a wall and carry shelves.'), result.llmsTxt);
  });

  test("headings most pages share (a generator's \"Method Summary\") are none of a page's parts", async () => {
    const topics: Array<[string, string[]]> = [['Shelf', ['Loading', 'Levelling']], ['Rack', ['Anchoring', 'Spacing']], ['Widget', ['Sizing', 'Painting']], ['Bracket', ['Fixing', 'Bending']], ['Plan', ['Drawing', 'Checking']]];
    const page = (name: string, own: string[]): PageInput => ({
      url: `https://acme.dev/api/${name}.html`,
      html: `<html lang="en"><head><title>${name}</title></head><body><main><h1>${name}</h1><h2>Method Summary</h2><h2>Method Details</h2>${own.map((heading) => `<h3>${heading}</h3>`).join('')}</main></body></html>`,
    });
    const home: PageInput = {
      url: 'https://acme.dev/api/',
      html: `<html lang="en"><head><title>Acme API</title></head><body><main><h1>Acme API</h1><p>The classes of the Acme library, one page each.</p>
        <ul>${topics.map(([name]) => `<li><a href="${name}.html">${name}</a></li>`).join('')}</ul></main></body></html>`,
    };
    const result = await generateLlmsTxt([home, ...topics.map(([name, own]) => page(name, own))], { siteUrl: 'https://acme.dev/api/', method: 'simple' });
    const notes = new Map(parseLlmsTxt(result.llmsTxt).sections.flatMap((section) => section.links.map((link) => [link.title, link.notes ?? ''])));
    assert.equal(notes.get('Rack'), 'Covers Anchoring and Spacing.', result.llmsTxt);
  });

  test('on a site not in English, a page is described by its parts without English words', async () => {
    const page = (path: string, title: string, body: string): PageInput => ({
      url: `https://acme.de${path}`,
      html: `<html lang="de"><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`,
    });
    const parts: Array<[string, string, string]> = [
      ['/handbuch/installation.html', 'Installation', 'Acme wird mit einem einzigen Befehl aus dem Paketverzeichnis installiert.'],
      ['/handbuch/konfiguration.html', 'Konfiguration', 'Die Einstellungen legen Maßeinheiten, Werkstoffe und Ausgabe fest.'],
      ['/handbuch/betrieb.html', 'Betrieb', 'Im Betrieb prüft Acme jedes Regal, bevor es gebaut wird.'],
    ];
    const pages = [
      page('/', 'Acme', '<p>Acme baut Regale nach einem Plan und prüft sie, bevor sie gebaut werden.</p><ul><li><a href="/handbuch/">Handbuch</a></li></ul>'),
      page('/handbuch/', 'Handbuch', `<ul>${parts.map(([path, title]) => `<li><a href="${path}">${title}</a></li>`).join('')}</ul>`),
      ...parts.map(([path, title, text]) => page(path, title, `<p>${text}</p>`)),
    ];
    const result = await generateLlmsTxt(pages, { siteUrl: 'https://acme.de/', method: 'simple' });
    const manual = parseLlmsTxt(result.llmsTxt).sections.flatMap((section) => section.links).find((link) => link.title === 'Handbuch');
    assert.equal(manual?.notes, 'Installation, Konfiguration, Betrieb.');
  });
});
