import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DOMParser } from 'linkedom';
import { elementsOf, hasAncestor, markTest } from './element-marks.ts';

const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html') as unknown as Document;

const page = parse(`<html><body>
  <header id="top"><nav class="menu main"><a href="/">Home</a></nav></header>
  <div role="navigation" aria-label="breadcrumbs"><a class="crumb" href="/docs/">Docs</a></div>
  <main><h1>Title<a class="headerlink" href="#t">¶</a></h1>
    <p class="note headerlink">A paragraph whose class only an anchor's rule names.</p>
    <div class="footer-like">Not a footer.</div><div class="page footer">A footer by its class.</div>
    <span aria-hidden="true">★</span><span aria-hidden="false">☆</span>
  </main>
  <aside><ul><li><a href="/a">A</a></li></ul></aside>
  <div id="footer"><footer role="contentinfo">©</footer></div>
</body></html>`);

const describeElement = (element: Element) => `${element.localName}${element.id ? `#${element.id}` : ''}${element.getAttribute('class') ? `.${element.getAttribute('class')!.split(' ').join('.')}` : ''}`;
const matching = (test: (element: Element) => boolean) => [...elementsOf(page)].filter(test).map(describeElement);
const selected = (selector: string) => [...page.querySelectorAll(selector)].map(describeElement);

describe('element marks', () => {
  it('match what the same simple selectors match, in document order', () => {
    const cases: Array<[Parameters<typeof markTest>, string]> = [
      [[{ tags: ['nav', 'aside', 'footer'], roles: ['navigation', 'contentinfo'] }], 'nav, aside, footer, [role="navigation"], [role="contentinfo"]'],
      [[{ tagClasses: [['a', 'headerlink']], ariaLabels: ['breadcrumbs'] }], 'a.headerlink, [aria-label="breadcrumbs"]'],
      [[{ classes: ['footer', 'menu'], ids: ['footer'] }, { ariaHidden: true }], '.footer, .menu, #footer, [aria-hidden="true"]'],
      [[{ tags: ['header'] }, { roles: ['main'] }], 'header, [role="main"]'],
    ];
    for (const [groups, selector] of cases) assert.deepEqual(matching(markTest(...groups)), selected(selector), selector);
  });

  it('walk the elements within an element, as its querySelectorAll does, not the element itself', () => {
    const main = page.querySelector('main')!;
    assert.deepEqual([...elementsOf(main)].map(describeElement), selected('main *'));
    assert.deepEqual([...elementsOf(parse(''))], []);
  });

  it('tell whether an ancestor has a mark', () => {
    const inNavigation = markTest({ tags: ['nav', 'aside'], roles: ['navigation'] });
    const links = [...page.querySelectorAll('a[href]')];
    const inside = links.filter((link) => hasAncestor(link, inNavigation));
    assert.deepEqual(inside.map((link) => link.getAttribute('href')), ['/', '/docs/', '/a']);
    assert.deepEqual(inside.map(describeElement), selected('nav a[href], aside a[href], [role="navigation"] a[href]'));
  });
});
