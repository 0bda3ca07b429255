import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createExtractiveDescriber } from './extractive-describer.ts';
import { findHomePage } from './site.ts';
import { keySentences, markdownToProse } from './key-sentences.ts';
import { phrasesFor } from './phrases.ts';

const ENGLISH = phrasesFor('en');

const INSTALL_PAGE = `# Installing the Acme CLI

> Note: you need an account first.

The Acme CLI installs with one command on Linux, macOS and Windows, and updates itself afterwards.

\`\`\`bash
curl -fsSL https://acme.dev/install.sh | sh
\`\`\`

| OS | Command |
| --- | --- |
| Linux | curl |

After the install, the CLI asks you to log in with your Acme account in the browser.
Subscribe to our newsletter to get news about the CLI and other Acme products!
Cookies help us deliver our services.`;

describe('keySentences', () => {
  test('picks the sentence that best represents the page', () => {
    assert.equal(
      keySentences(INSTALL_PAGE, 'Installing the Acme CLI', ENGLISH),
      'The Acme CLI installs with one command on Linux, macOS and Windows, and updates itself afterwards.',
    );
  });

  test('gives nothing for a page without prose', () => {
    assert.equal(keySentences('```js\nconsole.log(1)\n```\n\n| a | b |\n| --- | --- |', 'Code', ENGLISH), '');
  });

  test('stays within the length limit', () => {
    const long = `${'Widgets and gadgets and sprockets and gears are all described here in great detail, '.repeat(6)}finally.`;
    assert.ok(keySentences(long, 'Widgets', ENGLISH, 120).length <= 120);
  });

  test('markdownToProse drops code, tables, headings, images and link targets', () => {
    assert.deepEqual(markdownToProse('# Title\n\nSee [the guide](https://x.dev/g) and **bold** `code`.\n\n```\nx = 1\n```\n\n![img](a.png)\n\n- A list item.'), [
      'See the guide and bold code.',
      'A list item.',
    ]);
  });
});

describe('createExtractiveDescriber', () => {
  test('keeps each page’s own one-liner, and writes key sentences only where it has none', async () => {
    const describer = createExtractiveDescriber();
    const result = await describer.describe({ url: 'https://acme.dev/', name: 'Acme', summary: '' }, [
      { url: 'https://acme.dev/', title: 'Acme', description: '', markdown: 'Acme makes widgets that snap together into shelves, racks and whole rooms.' },
      { url: 'https://acme.dev/docs/install', title: 'Installing the Acme CLI', description: 'Install the CLI on any OS.', markdown: INSTALL_PAGE },
      { url: 'https://acme.dev/code', title: 'Code', description: '', markdown: '```js\nx()\n```' },
    ]);
    assert.equal(describer.kind, 'extractive');
    assert.deepEqual(
      result.pages.map((page) => [page.source, page.description]),
      [
        ['extractive', 'Acme makes widgets that snap together into shelves, racks and whole rooms.'],
        ['extractive', 'Install the CLI on any OS.'],
        ['fallback', ''],
      ],
    );
    assert.deepEqual(result.site, { name: 'Acme', summary: 'Acme makes widgets that snap together into shelves, racks and whole rooms.', source: 'extractive' });
    assert.equal(result.usage.totalTokens, 0);
  });

  test('stops when the job is canceled', async () => {
    const controller = new AbortController();
    controller.abort(new Error('Canceled'));
    await assert.rejects(
      createExtractiveDescriber().describe({ url: 'https://a.dev/', name: 'A', summary: '' }, [{ url: 'https://a.dev/', title: 'A', description: '', markdown: '' }], { signal: controller.signal }),
      /Canceled/,
    );
  });
});

test('findHomePage prefers the site URL, else the shortest path', () => {
  const pages = [{ url: 'https://a.dev/docs/x' }, { url: 'https://a.dev/index.html' }, { url: 'https://a.dev/docs/' }];
  assert.equal(findHomePage('https://a.dev/', pages)?.url, 'https://a.dev/index.html');
  assert.equal(findHomePage('https://a.dev/docs', pages)?.url, 'https://a.dev/docs/');
});
