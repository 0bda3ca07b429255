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
  test('a flat group of entries a little past 40% of the links gives its last, least cited entries to Optional', async () => {
    const listed = await sections({ Start: 5, Guide: 8, More: 5 });
    const guide = listed.find(([name]) => name === 'Guide')![1];
    assert.deepEqual(guide, ['Guide page 1', 'Guide page 2', 'Guide page 3', 'Guide page 4', 'Guide page 5', 'Guide page 6', 'Guide page 7']);
    assert.deepEqual(listed.at(-1), ['Optional', ['Guide page 8']]);
  });

  test('a flat group far past 40% (the site’s main body) stays whole: Optional would hide most of it', async () => {
    const listed = await sections({ Start: 2, Guide: 10, More: 2 });
    assert.equal(listed.find(([name]) => name === 'Guide')![1].length, 10);
    assert.ok(!listed.some(([name]) => name === 'Optional'));
  });
});
