// Every rule that reads a page's text answers in time proportional to the text, whatever the page
// holds: each entry point reads crafted texts (long runs of a template's openers, brackets,
// blanks, words a rule strips…) no slower than a generous factor times the same function on an
// ordinary text of the same length, measured here.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseRobotsTxt } from '../crawl/robots.ts';
import { readCrawledPage } from '../generation/crawled-page-reading.ts';
import { isBoilerplateDescription, isMeaningfulParagraph } from './boilerplate.ts';
import { phrasesFor } from './phrases.ts';
import { extractPage } from './extract.ts';
import { generateLlmsTxt } from './generate.ts';
import { keySentences } from './key-sentences.ts';
import { tidyMarkdown } from './markdown.ts';
import { readHtml } from './reading.ts';
import { renderLlmsFullTxt, renderLlmsTxt } from './render.ts';
import { sectionName } from './section-parts.ts';
import { cleanSectionName } from './sections.ts';
import { shorten } from './shorten.ts';
import type { DescribedPage } from './types.ts';

/** Characters of each crafted text: the reported page held 40,000 `{{` (80,000 characters). */
const LENGTH = 100_000;
/**
 * How many times slower than the ordinary text a crafted one may be: some take a slower linear
 * path (a text node per entity, a copy to collapse blanks), while a rule that reads the text again
 * from each character takes thousands of times longer at this length.
 */
const FACTOR = 200;

/** What a rule reads from every start when it backtracks: openers without closers, runs of one character, words it strips. */
const UNITS = ['{{', '${', '<%', '[', '![', '](', ' ', '\t', '\n', ' \n', '\n\n ', '`', '*', '_', '-', ' -', '.', ':', '/', '#', '|', '>', ' a', ' and', '\\', '&'];

// Words around the run, so that a rule's early exits (too few words, ends on a blank) do not skip it.
const crafted = (unit: string) => `Some words of a page ${unit.repeat(Math.ceil((LENGTH - 40) / unit.length))} and its end`;
const ordinary = () => 'The quick brown fox jumps over the lazy dog, twice. '.repeat(Math.ceil(LENGTH / 52)).slice(0, LENGTH);

async function millis(work: () => unknown): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** The function on each crafted text against the same function on an ordinary text (median of 3); a crafted text's best of 2 runs. */
async function assertLinear(name: string, read: (text: string) => unknown, units: readonly string[] = UNITS) {
  const baselines = [];
  for (let run = 0; run < 4; run++) baselines.push(await millis(() => read(ordinary())));
  const baseline = baselines.slice(1).sort((a, b) => a - b)[1];
  const slow: string[] = [];
  for (const unit of units) {
    const text = crafted(unit);
    const ms = Math.min(await millis(() => read(text)), await millis(() => read(text)));
    if (ms > FACTOR * baseline) slow.push(`${JSON.stringify(unit)}: ${ms.toFixed(0)} ms`);
  }
  assert.deepEqual(slow, [], `${name} on an ordinary text: ${baseline.toFixed(1)} ms`);
}

const page = (head: string, body: string) => `<!doctype html><html><head>${head}</head><body><main>${body}</main></body></html>`;
const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** The text in each place a page's candidates come from. */
const PLACES: Record<string, (text: string) => string> = {
  'meta description': (text) => page(`<title>Guide</title><meta name="description" content="${escaped(text)}">`, '<h1>Guide</h1><p>A short page.</p>'),
  title: (text) => page(`<title>${escaped(text)}</title>`, '<h1>Guide</h1><p>A short page.</p>'),
  heading: (text) => page('<title>Guide</title>', `<h1>${escaped(text)}</h1><h2>${escaped(text)}</h2><p>A short page.</p>`),
  paragraph: (text) => page('<title>Guide</title>', `<h1>Guide</h1><p>${escaped(text)}</p><ul><li><a href="/a">${escaped(text)}</a></li></ul>`),
  'code block': (text) => page('<title>Guide</title>', `<h1>Guide</h1><p>A short page about code.</p><pre>${escaped(text)}</pre>`),
  'meta refresh': (text) => page(`<title>Guide</title><meta http-equiv="refresh" content="${escaped(text)}">`, '<h1>Guide</h1>'),
};
const HTML_UNITS = ['{{', '${', '<%', '[', ' ', '\t', '\n', ' and', '-', '.'];

const described = (text: string): DescribedPage => ({
  url: 'https://docs.example/guide',
  title: text,
  description: text,
  markdown: text,
  lastModified: null,
  optional: false,
  source: 'metadata',
});

describe('linear time on crafted page text', () => {
  test('boilerplate rules', async () => {
    await assertLinear('isBoilerplateDescription', (text) => isBoilerplateDescription(text, phrasesFor('en'), 'Guide'));
    await assertLinear('isMeaningfulParagraph', (text) => isMeaningfulParagraph(text, 0, phrasesFor('en')));
  });

  test('descriptions and section names', async () => {
    await assertLinear('shorten', shorten);
    await assertLinear('keySentences', (text) => keySentences(text, 'Guide', phrasesFor('en')));
    await assertLinear('sectionName', sectionName);
    await assertLinear('cleanSectionName', cleanSectionName);
  });

  test('markdown and rendering', async () => {
    await assertLinear('tidyMarkdown', (text) => tidyMarkdown(text, Infinity));
    await assertLinear('renderLlmsTxt', (text) => renderLlmsTxt({ name: 'Docs', summary: text }, [described(text)]));
    await assertLinear('renderLlmsFullTxt', (text) => renderLlmsFullTxt({ name: 'Docs', summary: 'Docs.' }, [described(text)]));
  });

  test('robots.txt', async () => {
    await assertLinear('parseRobotsTxt', (text) => parseRobotsTxt(`User-agent: *\nDisallow: /a${text}\n${text}\nAllow: /b`));
  });

  for (const [place, html] of Object.entries(PLACES)) {
    test(`a page with the text in its ${place}: read, extracted and generated from`, async () => {
      await assertLinear('readCrawledPage', (text) => readCrawledPage(html(text), 'https://docs.example/guide', {}), HTML_UNITS);
      await assertLinear('readHtml', (text) => readHtml(html(text), 'https://docs.example/guide'), HTML_UNITS);
      await assertLinear('extractPage', (text) => extractPage(html(text), 'https://docs.example/guide'), HTML_UNITS);
      const home = { url: 'https://docs.example/', html: page('<title>Docs</title>', '<h1>Docs</h1><p>The docs.</p><a href="/guide">Guide</a>') };
      for (const method of ['simple', 'enhanced'] as const) {
        await assertLinear(
          `generateLlmsTxt (${method}, full text)`,
          (text) => generateLlmsTxt([home, { url: 'https://docs.example/guide', html: html(text) }], { siteUrl: 'https://docs.example/', method, fullText: true }),
          HTML_UNITS,
        );
      }
    });
  }
});
