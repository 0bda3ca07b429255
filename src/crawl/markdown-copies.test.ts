import assert from 'node:assert/strict';
import { test } from 'node:test';
import { markdownCandidates, stripFrontMatter } from './markdown-copies.ts';

test("the llmstxt.org proposal's markdown URLs of a page, most likely first", () => {
  assert.deepEqual(markdownCandidates('https://s.example/guide/'), ['https://s.example/guide/index.html.md', 'https://s.example/guide/index.md']);
  assert.deepEqual(markdownCandidates('https://s.example/guide/setup.html'), ['https://s.example/guide/setup.html.md', 'https://s.example/guide/setup.md']);
  assert.deepEqual(markdownCandidates('https://s.example/guide/setup'), ['https://s.example/guide/setup.md']);
  assert.deepEqual(markdownCandidates('https://s.example/search?q=x'), []);
  assert.deepEqual(markdownCandidates('https://s.example/notes.md'), []);
});

test('front matter (YAML or TOML) is removed; a rule later in the text is not front matter', () => {
  assert.equal(stripFrontMatter('---\ntitle: A\n---\n# A\n\ntext'), '# A\n\ntext');
  assert.equal(stripFrontMatter('\uFEFF+++\ndraft = false\n+++\r\n# B'), '# B');
  assert.equal(stripFrontMatter('# C\n\n---\n\nmore\n---\n'), '# C\n\n---\n\nmore\n---');
  assert.equal(stripFrontMatter('---\nnever closed\n# D'), '---\nnever closed\n# D');
});
