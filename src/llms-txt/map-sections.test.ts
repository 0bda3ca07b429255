import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateLlmsTxt } from './generate.ts';
import { parseLlmsTxt } from './testing/llms-txt-parser.ts';
import { mergeByName, type Part } from './section-parts.ts';

/** A site whose every page repeats a sidebar of captioned groups, each a flat list of pages. */
function sidebarSite(groups: Record<string, number>) {
  const entries = Object.entries(groups).map(([caption, count]) => ({
    caption,
    pages: Array.from({ length: count }, (_, index) => ({ path: `/${caption.toLowerCase()}/page-${index + 1}/`, title: `${caption} page ${index + 1}` })),
  }));
  const sidebar = `<nav><ul>${entries
    .map(({ caption, pages }) => `<li><span>${caption}</span><ul>${pages.map((page) => `<li><a href="${page.path}">${page.title}</a></li>`).join('')}</ul></li>`)
    .join('')}</ul></nav>`;
  const page = (path: string, title: string, text: string) => ({
    url: `https://acme.dev${path}`,
    html: `<html lang="en"><head><title>${title} | Acme</title></head><body>${sidebar}<main><h1>${title}</h1><p>${text}</p></main></body></html>`,
  });
  return [
    page('/', 'Acme', 'Acme builds shelves from widgets that snap together without tools.'),
    ...entries.flatMap(({ pages }) => pages.map(({ path, title }) => page(path, title, `What ${title.toLowerCase()} explains about shelves, step by step, with examples.`))),
  ];
}

async function sections(groups: Record<string, number>): Promise<[string, string[]][]> {
  const result = await generateLlmsTxt(sidebarSite(groups), { siteUrl: 'https://acme.dev/', method: 'simple' });
  return parseLlmsTxt(result.llmsTxt).sections.map((section) => [section.name, section.links.map((link) => link.title)]);
}

describe('section names', () => {
  const named = (...names: string[]) => mergeByName(names.map((name, index): Part => ({ id: `home:${index}`, name, depth: 0, nodes: [], splittable: true })), false).map((section) => section.name);

  test("a number without a stop is dropped where most parts carry one (Texinfo's chapters), and kept where few do", () => {
    assert.deepEqual(named('1 A Brief Introduction', '2 Getting Started', '15 Plotting', 'Appendix A External Code', 'Concept Index'), ['A Brief Introduction', 'Getting Started', 'Plotting', 'External Code', 'Concept Index']);
    assert.deepEqual(named('3D Printing', '2 Shelves', 'Widgets', 'Racks', 'Tools'), ['3D Printing', '2 Shelves', 'Widgets', 'Racks', 'Tools']);
  });
});

describe('sections from the site map', () => {
  test('past 25 sections the smallest join "More" at the end; the overview, with the home page, stays first', async () => {
    const groups = Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`Chapter${String(index + 1).padStart(2, '0')}`, index % 3 === 0 ? 2 : 3]));
    const listed = await sections(groups);
    assert.equal(listed.length, 25);
    assert.deepEqual(listed[0], ['Overview', ['Acme']]);
    assert.equal(listed.at(-1)![0], 'More');
    assert.deepEqual(listed.at(-1)![1].slice(0, 2), ['Chapter10 page 1', 'Chapter10 page 2'], 'the smallest sections (of equal ones, the later), in reading order');
  });

  test('a flat group of navigation entries past 40% of the links stays whole: its entries are the site\'s own part, not Optional', async () => {
    for (const groups of [{ Start: 5, Guide: 8, More: 5 }, { Start: 2, Guide: 10, More: 2 }]) {
      const listed = await sections(groups);
      assert.equal(listed.find(([name]) => name === 'Guide')![1].length, groups.Guide);
      assert.ok(!listed.some(([name]) => name === 'Optional'));
    }
  });

  test("a small site's home page with two headed groups of links (one of a single page) gives them as sections, named without their decoration", async () => {
    const page = (path: string, title: string) => ({
      url: `https://acme.dev${path}`,
      html: `<html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1><p>What ${title.toLowerCase()} says about shelves, with the steps it takes.</p></main></body></html>`,
    });
    const home = {
      url: 'https://acme.dev/',
      html: `<html lang="en"><head><title>Acme</title></head><body><main><h1>Choose a shelf</h1><p>Acme shelves hold anything, from books to bicycles.</p>
        <h2><span>{</span> Which fits you? <span>}</span></h2><ul>
        <li><a href="/wall/"><h3>I have a wall.</h3></a></li><li><a href="/floor/"><h3>I have a floor.</h3></a></li></ul>
        <h2>{ None of these? }</h2><ul><li><h3>I have neither.</h3><p><a href="/ceiling/">Hang it from the ceiling</a>.</p></li></ul></main></body></html>`,
    };
    const result = await generateLlmsTxt([home, page('/wall/', 'Wall shelves'), page('/floor/', 'Floor shelves'), page('/ceiling/', 'Ceiling shelves')], { siteUrl: 'https://acme.dev/', method: 'simple' });
    const listed = parseLlmsTxt(result.llmsTxt).sections.map((section) => [section.name, section.links.map((link) => link.title)]);
    assert.deepEqual(listed, [
      ['Overview', ['Acme']],
      ['Which fits you?', ['Wall shelves', 'Floor shelves']],
      ['None of these?', ['Ceiling shelves']],
    ]);
  });

  test("parts the home page names only in running text are named by their pages' titles, not the sentence's words", async () => {
    const page = (path: string, title: string, children: string[] = []) => ({
      url: `https://acme.dev${path}`,
      html: `<html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1><p>What ${title.toLowerCase()} says about shelves, with the steps it takes.</p>
        <ul>${children.map((child) => `<li><a href="${path}${child}/">${child} of ${title.toLowerCase()}</a></li>`).join('')}</ul></main></body></html>`,
    });
    const parts = { '/tutorial/': 'Tutorial', '/guides/': 'Task guides', '/api/': 'API reference' };
    const home = {
      url: 'https://acme.dev/',
      html: `<html lang="en"><head><title>Acme</title></head><body><main><h1>Acme</h1><p>Acme shelves hold anything, from books to bicycles.</p>
        <p>Start with the <a href="/tutorial/">getting started tutorial</a>, read the <a href="/guides/">guides</a> for each task,
        and look functions up in the <a href="/api/">reference documentation</a>.</p></main></body></html>`,
    };
    const pages = Object.entries(parts).flatMap(([path, title]) => [page(path, title, ['first', 'second']), page(`${path}first/`, `First of ${title}`), page(`${path}second/`, `Second of ${title}`)]);
    const result = await generateLlmsTxt([home, ...pages], { siteUrl: 'https://acme.dev/', method: 'simple' });
    const names = parseLlmsTxt(result.llmsTxt).sections.map((section) => section.name);
    assert.deepEqual(names, ['Overview', 'Tutorial', 'Task guides', 'API reference']);
  });

  /** Pages that all repeat `sidebar`, each with a paragraph of its own and, for some, links in their content. */
  function siteWithSidebar(sidebar: string, pages: Array<{ path: string; title: string; content?: string }>) {
    return pages.map(({ path, title, content = '' }) => ({
      url: `https://acme.dev${path}`,
      html: `<html lang="en"><head><title>${title}</title></head><body><nav>${sidebar}</nav><main><h1>${title}</h1><p>What ${title.toLowerCase()} says about shelves, with the steps it takes.</p>${content}</main></body></html>`,
    }));
  }
  const listOf = (items: Array<[string, string, string?]>) => `<ul>${items.map(([href, text, nested = '']) => `<li><a href="${href}">${text}</a>${nested}</li>`).join('')}</ul>`;

  test("a sidebar whose root is the home page, with every entry under it, gives the parts below the root as sections", async () => {
    const parts = { Guide: ['install', 'usage', 'tuning'], API: ['shelf', 'bracket', 'widget'], Help: ['faq', 'support'] };
    const partPages = Object.entries(parts).flatMap(([part, names]) => [
      { path: `/${part.toLowerCase()}/`, title: part },
      ...names.map((name) => ({ path: `/${part.toLowerCase()}/${name}.html`, title: `${part} ${name}` })),
    ]);
    const tree = Object.entries(parts).map(([part, names]): [string, string, string] => [`/${part.toLowerCase()}/`, part, listOf(names.map((name) => [`/${part.toLowerCase()}/${name}.html`, `${part} ${name}`]))]);
    const sidebar = listOf([['/', 'Acme', listOf(tree)]]);
    const result = await generateLlmsTxt(siteWithSidebar(sidebar, [{ path: '/', title: 'Acme' }, ...partPages]), { siteUrl: 'https://acme.dev/', method: 'simple' });
    const listed = parseLlmsTxt(result.llmsTxt).sections.map((section) => [section.name, section.links.length]);
    assert.deepEqual(listed, [['Overview', 1], ['Guide', 4], ['API', 4], ['Help', 3]]);
  });

  test('a page the navigation does not list is not placed by a folder whose entries belong to different parts (hashed folders)', async () => {
    // Entries of two parts share the folder /d1/; the struct page is reached from the reference's own page, at the top.
    const help = ['faq', 'support', 'contact'];
    const sidebar = listOf([
      ['/d1/a1/guide.html', 'Guide', listOf([['/d1/a2/install.html', 'Install'], ['/d1/a3/usage.html', 'Usage'], ['/d1/a4/tuning.html', 'Tuning']])],
      ['/reference.html', 'Reference', listOf([['/d1/b2/shelf.html', 'Shelf'], ['/d1/b3/bracket.html', 'Bracket']])],
      ['/d3/help.html', 'Help', listOf(help.map((name) => [`/d3/${name}.html`, name]))],
    ]);
    const pages = [
      { path: '/', title: 'Acme' },
      { path: '/d1/a1/guide.html', title: 'Guide' },
      { path: '/d1/a2/install.html', title: 'Install' },
      { path: '/d1/a3/usage.html', title: 'Usage' },
      { path: '/d1/a4/tuning.html', title: 'Tuning' },
      { path: '/d3/help.html', title: 'Help' },
      ...help.map((name) => ({ path: `/d3/${name}.html`, title: name })),
      { path: '/reference.html', title: 'Reference', content: listOf([['/d1/c4/widget.html', 'Widget struct']]) },
      { path: '/d1/b2/shelf.html', title: 'Shelf' },
      { path: '/d1/b3/bracket.html', title: 'Bracket' },
      { path: '/d1/c4/widget.html', title: 'Widget struct' },
    ];
    const result = await generateLlmsTxt(siteWithSidebar(sidebar, pages), { siteUrl: 'https://acme.dev/', method: 'simple' });
    const sections = parseLlmsTxt(result.llmsTxt).sections;
    const sectionOf = (title: string) => sections.find((section) => section.links.some((link) => link.title === title))?.name;
    assert.equal(sectionOf('Widget struct'), 'Reference');
    assert.equal(sectionOf('Install'), 'Guide');
  });
});
