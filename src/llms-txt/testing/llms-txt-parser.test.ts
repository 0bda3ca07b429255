import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LlmsTxtParseError, parseLlmsTxt } from './llms-txt-parser.ts';

describe('parseLlmsTxt', () => {
  test('parses the llmstxt.org example structure', () => {
    const document = parseLlmsTxt(
      [
        '# FastHTML',
        '',
        '> FastHTML is a python library which brings together Starlette, Uvicorn, HTMX, and fastcore.',
        '',
        'Important notes:',
        '',
        '- Although parts of its API are inspired by FastAPI, it is *not* compatible with FastAPI syntax',
        '',
        '## Docs',
        '',
        '- [FastHTML quick start](https://fastht.ml/docs/tutorials/quickstart_for_web_devs.html.md): A brief overview',
        '- [HTMX reference](https://raw.githubusercontent.com/path/reference.md)',
        '',
        '## Optional',
        '',
        '- [Starlette full documentation](https://gist.githubusercontent.com/path/starlette.md): A subset of the docs',
        '',
      ].join('\n'),
    );
    assert.equal(document.title, 'FastHTML');
    assert.match(document.summary ?? '', /^FastHTML is a python library/);
    assert.match(document.details, /^Important notes:/);
    assert.deepEqual(
      document.sections.map((section) => [section.name, section.links.length]),
      [['Docs', 2], ['Optional', 1]],
    );
    assert.deepEqual(document.sections[0].links[1], { title: 'HTMX reference', url: 'https://raw.githubusercontent.com/path/reference.md', notes: null });
  });

  test('unescapes brackets in link titles', () => {
    const document = parseLlmsTxt('# S\n\n## Docs\n\n- [Arrays \\[\\] and \\\\ slashes](https://s.dev/a): Notes\n');
    assert.equal(document.sections[0].links[0].title, 'Arrays [] and \\ slashes');
  });

  const malformed: [string, string, RegExp][] = [
    ['no H1 first', 'Intro\n# Title\n', /line 1: the first line must be an H1/],
    ['an H2 first', '## Title\n', /line 1/],
    ['a heading in the details', '# S\n\n> x\n\n### Notes\n\n## Docs\n\n- [a](https://s.dev/a)\n', /line 5: details may not contain headings/],
    ['a second H1', '# S\n\n## Docs\n\n- [a](https://s.dev/a)\n\n# Again\n', /line 7: only H2 headings/],
    ['prose inside a section', '# S\n\n## Docs\n\nSome text\n', /line 5: expected "- \[title\]\(url\): notes"/],
    ['a list item that is not a link', '# S\n\n## Docs\n\n- just text\n', /line 5/],
    ['an unescaped bracket in a title', '# S\n\n## Docs\n\n- [a ] b](https://s.dev/a)\n', /line 5/],
    ['a relative URL', '# S\n\n## Docs\n\n- [a](/docs/a)\n', /not an absolute http\(s\) URL/],
    ['a space in the URL', '# S\n\n## Docs\n\n- [a](https://s.dev/a b)\n', /line 5/],
    ['empty notes after the colon', '# S\n\n## Docs\n\n- [a](https://s.dev/a): \n', /line 5/],
    ['an empty section', '# S\n\n## Docs\n\n## More\n\n- [a](https://s.dev/a)\n', /section "Docs" is empty/],
    ['an empty last section', '# S\n\n## Docs\n', /section "Docs" is empty/],
    ['a blockquote after the details', '# S\n\nText\n\n> late quote\n', /blockquote must directly follow/],
  ];
  for (const [name, text, error] of malformed) {
    test(`rejects ${name}`, () => {
      assert.throws(() => parseLlmsTxt(text), (thrown: unknown) => thrown instanceof LlmsTxtParseError && error.test(thrown.message));
    });
  }
});
