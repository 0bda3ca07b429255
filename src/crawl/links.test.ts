import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { extractLinks, headerRobotsDirectives, robotsDirectives } from './links.ts';

const PAGE = 'https://a.test/docs/guide/page.html';

describe('extractLinks', () => {
  test('resolves, normalizes and de-duplicates <a> and <area> links in document order', () => {
    const html = `<html><body>
      <a href="intro.html">Intro</a>
      <a href="../api/?b=2&amp;a=1#section">API</a>
      <a href="intro.html#again">Intro again</a>
      <A HREF="HTTPS://A.TEST/Upper">Upper</A>
      <map><area href="/area-target" alt=""></map>
      <a href="https://other.test/x">elsewhere</a>
    </body></html>`;
    assert.deepEqual(extractLinks(html, PAGE).links, [
      'https://a.test/docs/guide/intro.html',
      'https://a.test/docs/api/?a=1&b=2',
      'https://a.test/Upper',
      'https://a.test/area-target',
      'https://other.test/x',
    ]);
  });

  test('skips fragments, javascript:, mailto:, tel: and rel=nofollow links', () => {
    const html = `<a href="#top">top</a><a href="javascript:void(0)">js</a><a href="mailto:x@a.test">m</a>
      <a href="tel:+123">t</a><a href="/paid" rel="sponsored nofollow">ad</a><a href="/kept" rel="noopener">ok</a><a>no href</a>`;
    assert.deepEqual(extractLinks(html, PAGE).links, ['https://a.test/kept']);
  });

  test('resolves every link against <base href>, even links before it', () => {
    const html = `<a href="early">e</a><head><base href="https://a.test/root/"></head><a href="late">l</a>`;
    assert.deepEqual(extractLinks(html, PAGE).links, ['https://a.test/root/early', 'https://a.test/root/late']);
  });

  test('reads the canonical URL', () => {
    const html = `<head><link rel="Canonical" href="/docs/guide/page.html?utm=1#x"></head>`;
    assert.equal(extractLinks(html, PAGE).canonical, 'https://a.test/docs/guide/page.html?utm=1');
    assert.equal(extractLinks('<p>no canonical</p>', PAGE).canonical, null);
  });

  test('reads robots meta directives, for robots and for our own agent name', () => {
    assert.deepEqual(pick(extractLinks('<meta name="robots" content="noindex, follow">', PAGE)), { noindex: true, nofollow: false });
    assert.deepEqual(pick(extractLinks('<meta name="ROBOTS" content="NOFOLLOW">', PAGE)), { noindex: false, nofollow: true });
    assert.deepEqual(pick(extractLinks('<meta name="llmstxt-bot" content="none">', PAGE)), { noindex: true, nofollow: true });
    assert.deepEqual(pick(extractLinks('<meta name="googlebot" content="noindex">', PAGE)), { noindex: false, nofollow: false });
  });

  test('reads the first title, with entities decoded and whitespace collapsed', () => {
    const html = '<head><title>\n  Caf&eacute; &amp; more\n</title></head><svg><title>icon</title></svg>';
    assert.equal(extractLinks(html, PAGE).title, 'Café & more');
    assert.equal(extractLinks('<p>untitled</p>', PAGE).title, null);
  });

  test('keeps at most maxLinks links from a page with 10,000', () => {
    const html = Array.from({ length: 10_000 }, (_, i) => `<a href="/p/${i}">${i}</a>`).join('');
    const { links } = extractLinks(html, PAGE);
    assert.equal(links.length, 2000);
    assert.equal(links[1999], 'https://a.test/p/1999');
    assert.equal(extractLinks(html, PAGE, { maxLinks: 10 }).links.length, 10);
  });

  test('drops links over the URL length cap', () => {
    const html = `<a href="/${'x'.repeat(3000)}">long</a><a href="/short">short</a>`;
    assert.deepEqual(extractLinks(html, PAGE).links, ['https://a.test/short']);
  });

  test('survives broken markup, reading it as browsers would', () => {
    // `<a href="/one"<a` is one tag with a stray attribute; the unterminated last tag is dropped.
    const html = '<a href="/one"<a href=/two>two</a><div><a href=\'/three\'>3</p></span><a href="/four';
    assert.deepEqual(extractLinks(html, PAGE).links, ['https://a.test/one', 'https://a.test/three']);
  });
});

describe('robots directives', () => {
  test('reads meta content values', () => {
    assert.deepEqual(robotsDirectives('noindex,nofollow'), { noindex: true, nofollow: true });
    assert.deepEqual(robotsDirectives('all'), { noindex: false, nofollow: false });
  });

  test('applies X-Robots-Tag values that are untargeted or name our agent, and ignores other crawlers', () => {
    assert.deepEqual(headerRobotsDirectives('noindex'), { noindex: true, nofollow: false });
    assert.deepEqual(headerRobotsDirectives(['googlebot: noindex', 'llmstxt-bot: nofollow']), { noindex: false, nofollow: true });
    assert.deepEqual(headerRobotsDirectives('unavailable_after: 25 Jun 2010 15:00:00 PST, noindex'), { noindex: true, nofollow: false });
    assert.deepEqual(headerRobotsDirectives(undefined), { noindex: false, nofollow: false });
  });
});

function pick(links: { noindex: boolean; nofollow: boolean }) {
  return { noindex: links.noindex, nofollow: links.nofollow };
}
