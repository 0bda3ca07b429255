import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateLlmsTxt } from './generate.ts';
import { parseLlmsTxt } from './testing/llms-txt-parser.ts';

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

describe('sections from the site map', () => {
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
});
