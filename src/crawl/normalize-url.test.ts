import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isInScope, normalizeUrl, resolveUrl, scopeMatcher, scopeOf } from './normalize-url.ts';

describe('normalizeUrl', () => {
  test('lowercases scheme and host, drops the fragment and the default port', () => {
    assert.equal(normalizeUrl('HTTP://Example.COM:80/A/b#frag'), 'http://example.com/A/b');
    assert.equal(normalizeUrl('https://example.com:443/'), 'https://example.com/');
    assert.equal(normalizeUrl('http://a.test/p#frag?x=1'), 'http://a.test/p');
    assert.equal(normalizeUrl('http://a.test/p?b=1&a=2#x?y=2&c'), 'http://a.test/p?a=2&b=1');
    assert.equal(normalizeUrl('http://a.test/p#'), 'http://a.test/p');
  });

  test('keeps a non-default port', () => {
    assert.equal(normalizeUrl('https://example.com:8443/x'), 'https://example.com:8443/x');
  });

  test('sorts query parameters by name and keeps their raw encoding', () => {
    assert.equal(normalizeUrl('http://a.test/p?b=2&a=1%20x&c'), 'http://a.test/p?a=1%20x&b=2&c');
    assert.equal(normalizeUrl('http://a.test/p?b=2&a=1'), normalizeUrl('http://a.test/p?a=1&b=2'));
  });

  test('keeps the order of repeated parameters', () => {
    assert.equal(normalizeUrl('http://a.test/?t=2&s=1&t=1'), 'http://a.test/?s=1&t=2&t=1');
  });

  test('drops an empty query and empty pairs', () => {
    assert.equal(normalizeUrl('http://a.test/p?'), 'http://a.test/p');
    assert.equal(normalizeUrl('http://a.test/p?&&a=1&'), 'http://a.test/p?a=1');
  });

  test('resolves relative URLs and dot segments against a base', () => {
    assert.equal(normalizeUrl('../c/d.html?x=1#top', 'http://a.test/a/b/page.html'), 'http://a.test/a/c/d.html?x=1');
    assert.equal(normalizeUrl('//b.test/x', 'https://a.test/'), 'https://b.test/x');
    assert.equal(normalizeUrl('?q=1', 'http://a.test/dir/page'), 'http://a.test/dir/page?q=1');
  });

  test('gives an empty path a slash', () => {
    assert.equal(normalizeUrl('http://a.test'), 'http://a.test/');
  });

  test('refuses schemes other than http(s)', () => {
    for (const url of ['mailto:me@a.test', 'javascript:alert(1)', 'ftp://a.test/', 'data:text/html,hi', 'file:///etc/passwd']) {
      assert.equal(normalizeUrl(url), null, url);
    }
  });

  test('refuses unparsable input and URLs over the length cap', () => {
    assert.equal(normalizeUrl('http://'), null);
    assert.equal(normalizeUrl('not a url'), null);
    assert.equal(normalizeUrl('http://a.test/' + 'x'.repeat(2100)), null);
    assert.equal(normalizeUrl('http://a.test/' + 'x'.repeat(50), undefined, 40), null);
  });

  test('strips credentials', () => {
    assert.equal(normalizeUrl('http://user:pw@a.test/x'), 'http://a.test/x');
  });
});

describe('resolveUrl', () => {
  test('gives the URL as written (resolved, without its fragment) beside the normalized one', () => {
    assert.deepEqual(resolveUrl('../b/page.html?z=1&a=2#part', 'http://a.test/docs/x/'), {
      written: 'http://a.test/docs/b/page.html?z=1&a=2',
      normalized: 'http://a.test/docs/b/page.html?a=2&z=1',
    });
    assert.deepEqual(resolveUrl('http://user:pw@a.test/x#top'), { written: 'http://user:pw@a.test/x', normalized: 'http://a.test/x' });
    assert.deepEqual(resolveUrl('intro.html', 'http://a.test/'), { written: 'http://a.test/intro.html', normalized: 'http://a.test/intro.html' });
  });

  test('refuses what normalizeUrl refuses', () => {
    for (const input of ['mailto:a@b.test', 'not a url', 'http://a.test/' + 'x'.repeat(2100)]) assert.equal(resolveUrl(input), null, input);
  });

  // Links are remembered by the base's folder (see resolutionBase): each link below is resolved
  // against every base in turn, after the others, and must come out as a fresh parse gives it.
  test('resolves every link as the URL parser does, whichever base of the same folder came first', () => {
    const bases = ['http://a.test/docs/a.html', 'http://a.test/docs/b.html', 'http://a.test/docs/..', 'http://a.test/docs/%2E%2e', 'http://a.test/docs/.', 'http://a.test/docs/', 'http://a.test/docs/c?x=/y/z', 'http://a.test/docs/c#f', 'http://u:p@a.test/docs/a.html', 'https://a.test/docs/a.html', 'http://b.test/docs/a.html'];
    const links = ['x.html', '../x.html', './', '', '?q=1', '#top', '/root.html', '//c.test/y', 'http:z.html', '\\x.html', '\u0001?q', ' x.html', 'x\n.html', 'mailto:a@b.test', 'https://d.test/?b=1&a=2#f'];
    for (const link of links) {
      for (const base of bases) {
        const fresh = URL.canParse(link, base) ? new URL(link, base) : null;
        const expected = fresh && /^https?:$/.test(fresh.protocol) ? fresh.href.replace(/#.*$/, '') : null;
        assert.equal(resolveUrl(link, base)?.written ?? null, expected, `${JSON.stringify(link)} against ${base}`);
      }
    }
  });
});

describe('scopeOf / isInScope', () => {
  test('a start URL naming a file covers its folder', () => {
    const scope = scopeOf('http://a.test/docs/index.html');
    assert.ok(isInScope('http://a.test/docs/other.html', scope));
    assert.ok(isInScope('https://a.test/docs/sub/x', scope), 'the scheme does not matter');
    assert.ok(!isInScope('http://a.test/blog/', scope));
    assert.ok(!isInScope('http://b.test/docs/x', scope));
    assert.ok(!isInScope('http://a.test:8080/docs/x', scope), 'another port is another site');
  });

  test('a start URL without extension is read as a folder', () => {
    const scope = scopeOf('http://a.test/docs');
    assert.ok(isInScope('http://a.test/docs', scope));
    assert.ok(isInScope('http://a.test/docs/x', scope));
    assert.ok(!isInScope('http://a.test/docs-old/x', scope));
  });

  test('the root covers the whole host', () => {
    const scope = scopeOf('http://a.test/');
    assert.ok(isInScope('http://a.test/anything/at/all?x=1', scope));
    assert.ok(!isInScope('mailto:x@a.test', scope));
  });
});

describe('scopeMatcher', () => {
  test('agrees with isInScope on normalized URLs', () => {
    const urls = [
      'http://a.test/docs', 'http://a.test/docs?x=1', 'https://a.test/docs/', 'http://a.test/docs/x/y?z',
      'http://a.test/docs-old/', 'http://a.test/', 'http://a.test:81/docs/', 'http://b.test/docs/', 'http://a.test/doc',
    ];
    for (const start of ['http://a.test/docs', 'http://a.test/docs/', 'http://a.test/docs/index.html', 'http://a.test/']) {
      const scope = scopeOf(start);
      const matches = scopeMatcher(scope);
      for (const url of urls) assert.equal(matches(url), isInScope(url, scope), `${start} vs ${url}`);
    }
  });
});
