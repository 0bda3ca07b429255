import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compactKey, compactKeyPrefix, decodeEntities, hashOf, NOT_ASCII, normalizeWhitespace, splitSentences, summarizeToSentences, tokenOverlap, truncateAtWord, withoutBuildStamps } from './text.ts';

describe('splitSentences', () => {
  test('splits prose at sentence ends', () => {
    assert.deepEqual(splitSentences('First one. Second one! Third? Yes.'), ['First one.', 'Second one!', 'Third?', 'Yes.']);
  });

  test('keeps abbreviations, initials and version numbers inside their sentence', () => {
    assert.deepEqual(splitSentences('Use tools, e.g. Make or Ninja. Written by J. R. Smith in v3.11 days. Done.'), [
      'Use tools, e.g. Make or Ninja.',
      'Written by J. R. Smith in v3.11 days.',
      'Done.',
    ]);
  });

  test('splits at Chinese and Japanese full stops', () => {
    assert.deepEqual(splitSentences('犬が橋を渡った。川に犬がいた。'), ['犬が橋を渡った。', '川に犬がいた。']);
  });
});

describe('summarizeToSentences', () => {
  test('leaves short text alone', () => {
    assert.equal(summarizeToSentences('  A short  text. '), 'A short text.');
  });

  test('keeps whole sentences that fit', () => {
    const text = `${'A first sentence that is fairly long. '.repeat(1)}A second one. ${'Then a third sentence that would not fit anymore. '.repeat(5)}`;
    assert.equal(summarizeToSentences(text, 60), 'A first sentence that is fairly long. A second one.');
  });

  test('cuts one long sentence at a word boundary with an ellipsis', () => {
    const result = summarizeToSentences('word '.repeat(100), 50);
    assert.ok(result.length <= 50, result);
    assert.match(result, /^word( word)*…$/);
  });
});

test('truncateAtWord never cuts a word in half', () => {
  assert.equal(truncateAtWord('alpha beta gamma delta', 15), 'alpha beta…');
  assert.equal(truncateAtWord('short', 15), 'short');
});

test('decodeEntities decodes what a site escaped twice', () => {
  assert.equal(decodeEntities('Tom &amp; Jerry &#8212; &#x41;&quot;'), 'Tom & Jerry — A"');
  assert.equal(decodeEntities('&unknown; stays'), '&unknown; stays');
});

test('tokenOverlap is 1 for the same words and 0 for none shared', () => {
  assert.equal(tokenOverlap('The cat sat', 'the CAT sat'), 1);
  assert.equal(tokenOverlap('alpha', 'beta'), 0);
  assert.ok(tokenOverlap('one two three four', 'one two three five') === 0.75);
});

test('normalizeWhitespace collapses newlines and tabs', () => {
  assert.equal(normalizeWhitespace('\n a\t\tb \n c '), 'a b c');
  assert.equal(normalizeWhitespace(null), '');
  // Each kind of untidy space on its own, and texts already tidy, which come back as they are.
  for (const [text, tidy] of [[' a', 'a'], ['a ', 'a'], ['a  b', 'a b'], ['a\nb', 'a b'], ['a\u00a0b', 'a b'], ['\u2003a', 'a'], ['a b c', 'a b c'], ['\t', ''], ['abc', 'abc'], ['Installation \u200b', 'Installation']]) {
    assert.equal(normalizeWhitespace(text), tidy, JSON.stringify(text));
  }
});

test('withoutBuildStamps drops when a page was built, and keeps a date the text is about', () => {
  assert.equal(
    withoutBuildStamps('This Debian Reference (version 2.100) (2023-02-04 11:59:01 UTC) is intended to provide a broad overview of the Debian system.'),
    'This Debian Reference (version 2.100) is intended to provide a broad overview of the Debian system.',
  );
  const dated = 'This document describes the foreign key support introduced in SQLite version 3.6.19 (2009-10-14).';
  assert.equal(withoutBuildStamps(dated), dated);
  assert.equal(summarizeToSentences('Generated (2024-05-01T08:30:00Z) from the sources: the whole manual.'), 'Generated from the sources: the whole manual.');
});

test("compactKeyPrefix is compactKey's beginning, a final sigma at a cut included", () => {
  const texts = [
    '',
    'Short text.',
    'GitHub Docs — the opening of a paragraph that runs on well past the forty letters compared, and further still.',
    // Σ before a space is a final ς; cut between Σ and the letter after it, it would be one too.
    `${'ΑΒΓΔ '.repeat(20)}ΟΔΟΣ ΑΣ${'Λ'.repeat(200)} και άλλα`,
    `${'x'.repeat(90)}Σ${'.'.repeat(30)} ΑΒ ${'word '.repeat(50)}`,
    `${'-- '.repeat(100)}Wörter über Straßen, İstanbul ${'und mehr '.repeat(30)}`,
  ];
  for (const text of texts) for (const chars of [1, 5, 40, 120]) assert.equal(compactKeyPrefix(text, chars), compactKey(text).slice(0, chars), `${chars}: ${text.slice(0, 30)}`);
});

test('compactKey keeps letters and digits of any script, lowercased, and nothing else', () => {
  assert.equal(compactKey('GitHub Docs (v2.0)'), 'githubdocsv20');
  assert.equal(compactKey('Wörter über Straßen, İstanbul'), 'wörterüberstraßenistanbul');
  assert.equal(compactKey('“Quoted” — text…'), 'quotedtext');
  assert.equal(compactKey('ΟΔΟΣ ΑΣ'), 'οδοςας');
});

test("hashOf reads a text as its compact key: other scripts' punctuation left out, their letters and digits as NOT_ASCII", () => {
  const asKey = (text: string) => hashOf(text, true);
  assert.equal(asKey('“Quoted” — text…\u00a0here'), hashOf('quotedtexthere'));
  assert.equal(asKey('Plain text, here.'), hashOf('plaintexthere'));
  assert.equal(asKey('— …'), null);
  for (const text of ['Wörter über', 'ΑΣ', 'Löwe', '١٢٣ digits', 'Ⅻ chapters', 'math 𝐀', 'emoji 😀 here']) assert.equal(asKey(text), NOT_ASCII, text);
});
