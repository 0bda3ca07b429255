import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { demoteHeadings, formatDate, renderLlmsFullTxt, renderLlmsTxt } from './render.ts';
import { parseLlmsTxt } from './testing/llms-txt-parser.ts';
import type { DescribedPage } from './types.ts';

function described(url: string, title: string, description: string, extra: Partial<DescribedPage> = {}): DescribedPage {
  return { url, title, description, markdown: `Content of ${title}.`, lastModified: null, optional: false, source: 'metadata', ...extra };
}

const SITE = { name: 'Acme', summary: 'Acme builds widgets.\nThey snap together.' };
const PAGES: DescribedPage[] = [
  described('https://acme.dev/', 'Acme', 'Widgets that snap together.'),
  described('https://acme.dev/docs/install', 'Install', 'Install the CLI.', { lastModified: '2024-05-01T10:00:00+02:00' }),
  described('https://acme.dev/docs/configure', 'Configure [advanced]', 'Settings\nand flags.'),
  described('https://acme.dev/docs/', 'Docs home', ''),
  described('https://acme.dev/blog/launch', 'We launched', 'The story of the launch.'),
  described('https://acme.dev/blog/tag/news', 'News tag', 'Posts tagged news.', { optional: true }),
  described('https://acme.dev/privacy', 'Privacy policy', 'How we handle data.', { optional: true }),
];

describe('renderLlmsTxt', () => {
  test('renders the llmstxt.org structure that a strict parser reads back', () => {
    const text = renderLlmsTxt(SITE, PAGES);
    const document = parseLlmsTxt(text);
    assert.equal(document.title, 'Acme');
    assert.equal(document.summary, 'Acme builds widgets. They snap together.');
    assert.deepEqual(
      document.sections.map((section) => [section.name, section.links.map((link) => link.url)]),
      [
        ['Overview', ['https://acme.dev/', 'https://acme.dev/blog/launch']],
        ['Docs', ['https://acme.dev/docs/', 'https://acme.dev/docs/install', 'https://acme.dev/docs/configure']],
        ['Optional', ['https://acme.dev/blog/tag/news', 'https://acme.dev/privacy']],
      ],
    );
    const configure = document.sections[1].links[2];
    assert.equal(configure.title, 'Configure [advanced]');
    assert.equal(configure.notes, 'Settings and flags.');
    assert.equal(document.sections[1].links[0].notes, null);
  });

  test('writes exact lines', () => {
    const text = renderLlmsTxt({ name: 'Acme', summary: 'Widgets.' }, [described('https://acme.dev/a (1)', 'A ]b[', 'Notes.')]);
    assert.equal(text, '# Acme\n\n> Widgets.\n\n## Pages\n\n- [A \\]b\\[](https://acme.dev/a%20%281%29): Notes.\n');
  });

  test('appends the sitemap date when asked', () => {
    const text = renderLlmsTxt(SITE, PAGES, { includeModificationDate: true });
    assert.match(text, /- \[Install\]\(https:\/\/acme\.dev\/docs\/install\): Install the CLI\. \(last modified 2024-05-01\)/);
    const withoutDescription = renderLlmsTxt(SITE, [described('https://acme.dev/', 'Home', '', { lastModified: 'Wed, 01 May 2024 10:00:00 GMT' })], { includeModificationDate: true });
    assert.match(withoutDescription, /- \[Home\]\(https:\/\/acme\.dev\/\): Last modified 2024-05-01/);
    assert.doesNotMatch(renderLlmsTxt(SITE, PAGES), /last modified/i);
  });

  test('renders details as paragraphs without headings, and omits an empty summary', () => {
    const text = renderLlmsTxt({ name: 'Acme', summary: '', details: '## Not a heading\nFirst paragraph.\n\nSecond.' }, PAGES.slice(0, 1));
    assert.ok(text.startsWith('# Acme\n\nNot a heading First paragraph.\n\nSecond.\n\n## Pages\n'), text);
    assert.equal(parseLlmsTxt(text).summary, null);
  });

  test('a site without pages is just its header', () => {
    assert.equal(renderLlmsTxt({ name: 'Acme', summary: 'Widgets.' }, []), '# Acme\n\n> Widgets.\n');
  });

  test('stays parseable for a realistic 300-page site with hostile titles', () => {
    const pages: DescribedPage[] = [];
    const folders = ['docs', 'api', 'guides', 'blog', 'examples'];
    for (let i = 0; i < 300; i++) {
      const folder = folders[i % folders.length];
      pages.push(described(`https://acme.dev/${folder}/page-${i}`, `Page ${i} [${folder}] \\ (draft)\n`, `Line one\nline two ] [ ${i}`, { optional: i % 37 === 0 }));
    }
    const document = parseLlmsTxt(renderLlmsTxt(SITE, pages));
    assert.equal(document.sections.reduce((sum, section) => sum + section.links.length, 0), 300);
    assert.equal(document.sections.at(-1)?.name, 'Optional');
    assert.equal(document.sections[1].links.find((link) => link.url.endsWith('/page-1'))?.title, 'Page 1 [api] \\ (draft)');
  });
});

describe('renderLlmsFullTxt', () => {
  test('puts each page under its title with its source, headings nested below', async () => {
    const pages = [
      described('https://acme.dev/', 'Acme', '', { markdown: '# Acme\n\nWelcome.\n\n## Start\n\n```md\n# not a heading\n```' }),
      described('https://acme.dev/docs/a', 'A', 'Fallback text.', { markdown: '' }),
    ];
    const text = await renderLlmsFullTxt({ name: 'Acme', summary: 'Widgets.' }, pages);
    assert.equal(
      text,
      '# Acme\n\n> Widgets.\n\n---\n\n## Acme\n\nSource: https://acme.dev/\n\nWelcome.\n\n#### Start\n\n```md\n# not a heading\n```\n\n---\n\n## A\n\nSource: https://acme.dev/docs/a\n\nFallback text.\n',
    );
  });

  test("a page's own rule at its start or end does not double the separator between pages", async () => {
    const pages = [
      described('https://acme.dev/', 'Acme', '', { markdown: '---\n\nWelcome.\n\n* * *\n\nMore.\n\n---\n' }),
      described('https://acme.dev/docs/a', 'A', '', { markdown: 'Text of A.\n\n___' }),
    ];
    const text = await renderLlmsFullTxt({ name: 'Acme', summary: 'Widgets.' }, pages);
    assert.equal(
      text,
      '# Acme\n\n> Widgets.\n\n---\n\n## Acme\n\nSource: https://acme.dev/\n\nWelcome.\n\n* * *\n\nMore.\n\n---\n\n## A\n\nSource: https://acme.dev/docs/a\n\nText of A.\n',
    );
  });

  test("drops a back-to-top link: an arrow in any language, its words only in the site's", async () => {
    const pages = [described('https://acme.dev/docs/a', 'A', '', { markdown: 'Text of A.\n\n[↑](#top)\n\n[Back to top](#top)\n\n[Nach oben](#top)' })];
    const [english, german] = await Promise.all(['en', 'de'].map((language) => renderLlmsFullTxt({ name: 'Acme', summary: '' }, pages, { language })));
    assert.match(english, /Text of A\.\n\n\[Nach oben\]\(#top\)\n$/);
    // "Back to top" is no phrase of a German site's: there it is a link like any other.
    assert.match(german, /Text of A\.\n\n\[Back to top\]\(#top\)\n\n\[Nach oben\]\(#top\)\n$/);
  });

  test('lets the event loop run between pages', async () => {
    const pages = Array.from({ length: 200 }, (_, i) => described(`https://acme.dev/docs/${i}`, `Page ${i}`, '', { markdown: `Text of page ${i}.\n\n## Part\n\nMore.` }));
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    const text = await renderLlmsFullTxt({ name: 'Acme', summary: '' }, pages);
    assert.equal(timerRan, true, 'a timer due during the render ran before it ended');
    assert.equal(text.split('\n---\n').length, 201);
  });
});

test('demoteHeadings caps at six levels and leaves code alone', () => {
  assert.equal(demoteHeadings('##### Deep\n~~~\n# code\n~~~\n# Top', 2), '###### Deep\n~~~\n# code\n~~~\n### Top');
});

test('formatDate reads W3C and HTTP dates and rejects garbage', () => {
  assert.equal(formatDate('2024-05-01'), '2024-05-01');
  assert.equal(formatDate('2024-05-01T23:59:00Z'), '2024-05-01');
  assert.equal(formatDate('Wed, 01 May 2024 10:00:00 GMT'), '2024-05-01');
  assert.equal(formatDate('yesterday'), null);
  assert.equal(formatDate(null), null);
});

describe('renderLlmsFullTxt with a token budget', () => {
  // One "token" per word keeps the arithmetic readable.
  const countWords = (text: string) => text.split(/\s+/).filter(Boolean).length;
  const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
  const pages = [
    described('https://acme.dev/', 'Acme', '', { rank: 0, markdown: words(10) }),
    described('https://acme.dev/docs/big', 'Big', '', { rank: 1, markdown: words(100) }),
    described('https://acme.dev/docs/small', 'Small', '', { rank: 2, markdown: words(10) }),
    described('https://acme.dev/docs/last', 'Last', '', { rank: 3, markdown: words(30) }),
  ];

  test('keeps the most important pages whole, skips one that does not fit and goes on with smaller ones, in listing order', async () => {
    let leftOut: number | undefined;
    const text = await renderLlmsFullTxt(SITE, pages, { maxTokens: 60, countTokens: countWords, onLeftOut: (n) => (leftOut = n) });
    assert.ok(countWords(text) <= 60);
    assert.deepEqual([...text.matchAll(/^Source: (\S+)$/gm)].map((m) => m[1]), ['https://acme.dev/', 'https://acme.dev/docs/small']);
    // The reader is told, below the header, and so is the caller.
    assert.match(text, /^> Acme builds widgets\. They snap together\.\n\n2 of the 4 pages listed in llms\.txt are left out of this file to keep it within its token budget\.\n\n---\n/m);
    assert.equal(leftOut, 2);
    assert.match(text, new RegExp(`## Small\\n\\nSource: https://acme.dev/docs/small\\n\\n${words(10)}\\n$`));
  });

  test('without a budget, or with room for all, every page is there', async () => {
    const unlimited = await renderLlmsFullTxt(SITE, pages);
    let leftOut: number | undefined;
    assert.equal(await renderLlmsFullTxt(SITE, pages, { maxTokens: 10_000, countTokens: countWords, onLeftOut: (n) => (leftOut = n) }), unlimited);
    assert.equal(leftOut, 0);
    assert.doesNotMatch(unlimited, /left out/);
    assert.equal([...unlimited.matchAll(/^Source: /gm)].length, 4);
  });

  test('lets the counter forget the pages once they are counted', async () => {
    let forgotten = 0;
    await renderLlmsFullTxt(SITE, pages, { maxTokens: 60, countTokens: Object.assign((text: string) => countWords(text), { forget: () => forgotten++ }) });
    assert.equal(forgotten, 1);
  });
});
