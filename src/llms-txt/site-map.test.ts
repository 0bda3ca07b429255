import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readPageFacts } from './page-facts.ts';
import { buildSiteMap, choosePages } from './site-map.ts';

const page = (path: string, body: string) => ({ outline: readPageFacts(`<html><head><title>${path}</title></head><body><main>${body}</main></body></html>`, `https://acme.dev${path}`), secondary: false });
const contents = (names: string[]) => `<ul>${names.map((name) => `<li><a href="/${name}.html">${name}</a></li>`).join('')}</ul>`;

describe('page choice', () => {
  test('a member listed beside its owner ("Shelf.Bracket" beside "Shelf") comes after its owner\'s siblings', () => {
    const names = ['Rack', 'Shelf', 'Shelf.Bracket', 'Shelf.Joint', 'Wall'];
    const map = buildSiteMap('https://acme.dev/', [page('/', contents(names)), ...names.map((name) => page(`/${name}.html`, `<p>${name}.</p>`))]);
    assert.deepEqual(
      choosePages(map, 4).map((node) => node.url.slice('https://acme.dev'.length)),
      ['/', '/Rack.html', '/Shelf.html', '/Wall.html'],
    );
  });

  test('a name that only begins like another page\'s is no member ("Shelving" beside "Shelf")', () => {
    const names = ['Shelf', 'Shelving', 'Wall'];
    const map = buildSiteMap('https://acme.dev/', [page('/', contents(names)), ...names.map((name) => page(`/${name}.html`, `<p>${name}.</p>`))]);
    assert.deepEqual(map.nodes.filter((node) => node.member), []);
  });

  test("a family of pages that open alike, only names changing, is stood for by its first few; the parent's other pages come first", () => {
    const alike = ['Bolt', 'Cleat', 'Hook', 'Nail', 'Peg', 'Pin'];
    const names = [...alike, 'Rack', 'Wall'];
    const pages = [page('/', contents(names)), ...alike.map((name) => page(`/${name}.html`, `<p>A fastener like ${name} that holds a Shelf to the wall.</p>`))];
    pages.push(page('/Rack.html', '<p>Racks stand on the floor and carry shelves.</p>'), page('/Wall.html', '<p>Walls carry the anchors every rack needs.</p>'));
    const map = buildSiteMap('https://acme.dev/', pages);
    assert.deepEqual(
      choosePages(map, 6).map((node) => node.url.slice('https://acme.dev'.length)),
      ['/', '/Bolt.html', '/Cleat.html', '/Hook.html', '/Rack.html', '/Wall.html'],
    );
  });

  test('the same pages in any arrival order give the same choice', () => {
    const names = ['Rack', 'Shelf', 'Shelf.Bracket', 'Wall', 'Anchor'];
    const pages = [page('/', contents(names)), ...names.map((name) => page(`/${name}.html`, `<p>${name}.</p>`))];
    const chosen = (inputs: typeof pages) => choosePages(buildSiteMap('https://acme.dev/', inputs), 4).map((node) => node.url);
    assert.deepEqual(chosen([...pages].reverse()), chosen(pages));
  });
});
