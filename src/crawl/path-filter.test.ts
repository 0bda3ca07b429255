import assert from 'node:assert/strict';
import { test } from 'node:test';
import { invalidPathPattern, pathMatcher } from './path-filter.ts';

test('patterns read as .gitignore reads them: anchored with /, any depth without, covering what lies below; exclusions win', () => {
  const matcher = pathMatcher({ includePaths: ['/docs', 'api/*'], excludePaths: ['404.html', '/docs/old/'] });
  const listed = (path: string) => matcher.listed(`https://acme.dev${path}`);
  assert.deepEqual(
    ['/docs', '/docs/', '/docs/a/b', '/v1/api/x', '/api/x/y', '/docs%20x/'].filter(listed),
    ['/docs', '/docs/', '/docs/a/b', '/v1/api/x', '/api/x/y'],
  );
  assert.deepEqual(['/docsx', '/docs/404.html', '/docs/old', '/docs/old/x', '/', '/blog/.hidden'].filter(listed), []);
  // Not included, yet fetchable: the crawler may pass through it to reach included pages.
  assert.equal(matcher.fetchable('https://acme.dev/'), true);
  assert.equal(matcher.fetchable('https://acme.dev/docs/old/x'), false);
  assert.equal(pathMatcher({ includePaths: [], excludePaths: [] }).listed('https://acme.dev/anything'), true);
});

test('invalid patterns are named with their field and position', () => {
  assert.equal(invalidPathPattern('includePaths', ['/{a,b}/**', '*.pdf', '/docs/?']), null);
  assert.equal(invalidPathPattern('excludePaths', ['/ok', '/docs/[a']), 'excludePaths[1] "/docs/[a" is not a valid glob pattern');
  assert.equal(invalidPathPattern('includePaths', ['/a#b']), 'includePaths[0] "/a#b" must be a path pattern, without spaces or a fragment');
});
