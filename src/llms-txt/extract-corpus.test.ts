// Reading quality on Mozilla Readability's 130 test pages: the title and description a page gets
// from its facts (and, where they say nothing of it, its main content) against the metadata
// Readability itself produces for them (`expected-metadata.json`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { sharedCorpus } from '../testing/shared-corpora.ts';
import { join } from 'node:path';
import { isBoilerplateDescription } from './boilerplate.ts';
import { describePage } from './self-description.ts';
import { readContentFacts } from './extract.ts';
import { readPageFacts } from './page-facts.ts';
import { phrasesFor } from './phrases.ts';
import { factsDescribe } from './html-wanted.ts';
import { pageText } from './page-text.ts';
import { normalizeWhitespace, tokenOverlap } from './text.ts';

const ENGLISH = phrasesFor('en');

const { path: CORPUS, skip: corpusMissing } = sharedCorpus('readability-test-pages');

// Scores measured when this test was written: title 117/130 (+8 that differ only by the site name
// we trim; 4 more are pages titled "" or "Document", which we title from the URL), description
// 117/130 (88/94 real excerpts; 7 of the lorem-ipsum test pages are described by their headings,
// "Covers Foo."). Floors sit a few below.
const TITLE_FLOOR = 114;
const DESCRIPTION_FLOOR = 114;
const REAL_DESCRIPTION_FLOOR = 85;

interface Expected {
  title: string | null;
  excerpt: string | null;
}

test('extraction corpus: titles and descriptions stay close to Readability’s metadata', { skip: corpusMissing }, () => {
  const cases = readdirSync(CORPUS)
    .filter((name) => existsSync(join(CORPUS, name, 'source.html')))
    .sort()
    .map((name) => ({
      name,
      html: readFileSync(join(CORPUS, name, 'source.html'), 'utf8'),
      expected: JSON.parse(readFileSync(join(CORPUS, name, 'expected-metadata.json'), 'utf8')) as Expected,
    }));

  let titles = 0;
  let titlesWithoutSiteName = 0;
  let descriptions = 0;
  let placeholders = 0;
  let placeholdersRejected = 0;
  const misses: string[] = [];
  const started = performance.now();
  for (const { name, html, expected } of cases) {
    // The corpus pages were saved from http://fakehost/test/page.html.
    const url = 'http://fakehost/test/page.html';
    const facts = readPageFacts(html, url);
    const page = pageText(facts, factsDescribe(facts) ? null : readContentFacts(html, url));
    const signals = { ...page, purposeLine: facts.purposeLine, paragraphs: [...facts.paragraphs, page.firstParagraph], childTitles: [], terms: facts.terms, linkTexts: [] };

    const expectedTitle = normalizeWhitespace(expected.title);
    const title = normalizeWhitespace(page.title);
    if (title === expectedTitle) titles++;
    // We drop a trailing " | Site name" on purpose where Readability keeps it.
    else if (title && /^\s+[|\-–—·•»]\s+\S/.test(expectedTitle.slice(title.length)) && expectedTitle.startsWith(title)) titlesWithoutSiteName++;
    else misses.push(`title ${name}: ${JSON.stringify(title)} vs ${JSON.stringify(expectedTitle)}`);

    const expectedDescription = normalizeWhitespace(expected.excerpt);
    const description = normalizeWhitespace(describePage(signals, () => false)).replace(/…$/, '');
    if (isBoilerplateDescription(expectedDescription, ENGLISH, expected.title)) {
      // Readability's excerpt is boilerplate here (lorem ipsum, "Contents", "When"): we must not
      // echo it, and either give no description or a real one from the page.
      placeholders++;
      if (!description || !isBoilerplateDescription(description, ENGLISH, page.title)) {
        placeholdersRejected++;
        descriptions++;
      } else {
        misses.push(`description ${name}: kept boilerplate ${JSON.stringify(description.slice(0, 60))}`);
      }
    } else if (
      description === expectedDescription ||
      // We cut long descriptions to whole sentences: a prefix of the expected text is a match.
      (description.length > 0 && expectedDescription.startsWith(description)) ||
      tokenOverlap(description, expectedDescription) >= 0.8
    ) {
      descriptions++;
    } else {
      misses.push(`description ${name}: ${JSON.stringify(description.slice(0, 80))} vs ${JSON.stringify(expectedDescription.slice(0, 80))}`);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const total = cases.length;
  console.log(
    `extraction corpus: title ${titles}/${total} (+${titlesWithoutSiteName} differing only by the site name we trim), ` +
      `description ${descriptions}/${total} (${descriptions - placeholdersRejected}/${total - placeholders} where Readability's excerpt is real text, ` +
      `${placeholdersRejected}/${placeholders} where it is boilerplate such as lorem ipsum), ${(total / seconds).toFixed(1)} pages/s`,
  );
  if (process.env.VERBOSE) console.log(misses.join('\n'));
  assert.equal(total, 130);
  assert.ok(titles >= TITLE_FLOOR, `title score ${titles} fell below ${TITLE_FLOOR}:\n${misses.join('\n')}`);
  assert.ok(descriptions >= DESCRIPTION_FLOOR, `description score ${descriptions} fell below ${DESCRIPTION_FLOOR}:\n${misses.join('\n')}`);
  const real = descriptions - placeholdersRejected;
  assert.ok(real >= REAL_DESCRIPTION_FLOOR, `real-excerpt description score ${real} fell below ${REAL_DESCRIPTION_FLOOR}:\n${misses.join('\n')}`);
});
