import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readArrivals } from './arrival.ts';
import { createDomPass } from './dom-pass.ts';
import { TextKeys } from './text-keys.ts';

const OPTIONS = { siteUrl: 'https://acme.dev/book/index.html', method: 'simple' as const };

async function candidates(pages: Array<{ url: string; html: string }>) {
  const arrived = await readArrivals(pages, { ...OPTIONS, yieldEachPage: false, keys: new TextKeys() }, createDomPass(OPTIONS));
  return arrived.map((candidate) => [new URL(candidate.outline.url).pathname, candidate.aliases.map((alias) => new URL(alias).pathname)]);
}

// mdBook serves its first chapter twice, as index.html and title-page.html: the same text, the
// sidebar marking the open entry on one of them only.
const chapter = (file: string, active: string, text: string) => ({
  url: `https://acme.dev/book/${file}`,
  html: `<html><head><title>Acme Book</title></head><body><nav class="sidebar"><ol><li><a href="title-page.html"${active === 'title-page' ? ' class="active"' : ''}>Acme Book</a></li>
    <li><a href="intro.html"${active === 'intro' ? ' class="active"' : ''}>Introduction</a></li></ol></nav><main><h1>Acme Book</h1>${text}</main></body></html>`,
});
const PROSE = '<p>This book teaches how the shelves, racks and widgets of the Acme system fit together, one chapter at a time, with examples of each.</p>'.repeat(4);

describe('canonical pages', () => {
  test('two URLs whose pages say the same (their navigation apart) are one page, the second an alias of the first', async () => {
    assert.deepEqual(await candidates([chapter('index.html', 'title-page', PROSE), chapter('title-page.html', 'title-page-open', PROSE)]), [['/book/index.html', ['/book/title-page.html']]]);
  });

  test('pages with too little text of their own to tell them apart stay two', async () => {
    const stub = '<p>Coming soon.</p>';
    assert.deepEqual(await candidates([chapter('index.html', 'title-page', stub), chapter('todo.html', 'intro', stub)]), [
      ['/book/index.html', []],
      ['/book/todo.html', []],
    ]);
  });
});
