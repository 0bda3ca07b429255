import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileSize, LineCounts, loadTokenCounter, rememberingCounter, tokenPieces } from './tokens.ts';

// Texts where a newline sits beside what the pre-tokenizer could join to it: slashes after
// punctuation, CRLF, runs of blank lines and spaces, digits, marks, special-token spellings.
const TRICKY = [
  'See the docs.\n/usr/share/doc\nint x;\n//comment\nfoo\n\n/bar',
  'Windows lines\r\nend here\r\n\r\n  indented\r\nnext',
  'a\n\n\n   \n\tb\n 1\n22\n333\n4444',
  'Résumé\n\u0301accent\nnaïve\n日本語の文章\n한국어\nemoji 🎉\n🎉x',
  '```sql\nSELECT 1;\n```\n| a | b |\n|---|---|\n| 1 | 2 |\n- item\n* item\n# Heading\n',
  "don't\nDON'T\n'quoted'\nit's <|endoftext|>\n<|endoftext|>word\n",
];

describe('token counts in pieces', () => {
  it('count a file line by line to the same total as counted whole, each line of the same text once', async () => {
    const countTokens = await loadTokenCounter();
    const pages = [...TRICKY, readFileSync(new URL('./README.md', import.meta.url), 'utf8')];
    // As llms-full.txt holds pages: under headings of its own, one page twice.
    const file = [...pages, TRICKY[0]].map((page, n) => `## Page ${n}\n\nSource: https://example.com/${n}\n\n${page.replace(/^# /gm, '### ')}`).join('\n\n') + '\n';
    const counted: string[] = [];
    const counter = rememberingCounter(Object.assign((text: string) => (counted.push(text), countTokens(text)), { forget() {} }));
    assert.deepEqual(await fileSize(file, counter, 1024), { bytes: Buffer.byteLength(file), tokens: countTokens(file) });
    assert.equal(new Set(counted).size, counted.length, 'no line counted twice');
    assert.equal(counted.filter((line) => line.startsWith('int x;')).length, 1, 'the page met twice is counted once');
  });

  it('count a file again from the lines an earlier counter counted, counting only the lines that changed', async () => {
    const countTokens = await loadTokenCounter();
    const counted: string[] = [];
    const spy = Object.assign((text: string) => (counted.push(text), countTokens(text)), { forget() {} });
    const lines = new LineCounts();
    const first = TRICKY.join('\n\n');
    assert.equal(await fileSize(first, rememberingCounter(spy, lines)).then((size) => size.tokens), countTokens(first));
    counted.length = 0;
    // A later job's file: the same lines, one of them changed.
    const second = first.replace('Windows lines', 'Linux lines');
    assert.equal(await fileSize(second, rememberingCounter(spy, lines)).then((size) => size.tokens), countTokens(second));
    assert.deepEqual(counted, ['Linux lines\r\n']);
  });

  it('remember at most so many lines, making room by forgetting the first ones', async () => {
    const countTokens = await loadTokenCounter();
    const counted: string[] = [];
    const spy = Object.assign((text: string) => (counted.push(text), countTokens(text)), { forget() {} });
    const lines = new LineCounts(3);
    const counter = rememberingCounter(spy, lines);
    counter('one\ntwo\nthree\nfour\n');
    assert.equal(lines.size, 3);
    counted.length = 0;
    assert.equal(counter('four\nthree\ntwo\none\n'), countTokens('four\nthree\ntwo\none\n'));
    assert.deepEqual(counted, ['one\n'], 'the first line counted made room for the fourth');
  });

  it('cut only where a line starts with neither white space nor a slash, and join back to the text', () => {
    const text = TRICKY.join('\n');
    const pieces = [...tokenPieces(text, 8)];
    assert.ok(pieces.length > 5);
    assert.equal(pieces.join(''), text);
    for (const piece of pieces.slice(0, -1)) {
      assert.ok(piece.length >= 8);
      assert.ok(piece.endsWith('\n'));
    }
    for (const piece of pieces.slice(1)) assert.match(piece, /^[^\s/]/u);
    assert.deepEqual([...tokenPieces('short', 8)], ['short']);
  });

  it('add up to the count of the whole text', async () => {
    const countTokens = await loadTokenCounter();
    const texts = [...TRICKY, TRICKY.join('\n'), readFileSync(new URL('./README.md', import.meta.url), 'utf8').repeat(3)];
    for (const text of texts) {
      for (const pieceChars of [1, 7, 64, 1024]) {
        const size = await fileSize(text, countTokens, pieceChars);
        assert.deepEqual(size, { bytes: Buffer.byteLength(text), tokens: countTokens(text) }, `${JSON.stringify(text.slice(0, 30))} in pieces of ${pieceChars}`);
      }
    }
  });

  it("count word by word to the tokenizer's own count of the whole text, special tokens as text", async () => {
    const { countTokens: tokenizer } = await import('gpt-tokenizer/encoding/o200k_base');
    const counter = await loadTokenCounter();
    const readme = readFileSync(new URL('./README.md', import.meta.url), 'utf8');
    const texts = [...TRICKY, TRICKY.join('\n'), readme, readme.repeat(2), 'A', '   ', '\r', '', '\ud800 a lone surrogate', 'x'.repeat(500)];
    for (const text of texts) assert.equal(counter(text), tokenizer(text, { disallowedSpecial: new Set() }), JSON.stringify(text.slice(0, 40)));
    counter.forget!();
  });

  it('let the event loop run between the pieces of a long file', async () => {
    const countTokens = await loadTokenCounter();
    const text = 'A line of prose about tables and indexes.\n'.repeat(20_000);
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    const size = await fileSize(text, countTokens, 4096);
    assert.equal(timerRan, true, 'a timer due during the count ran before it ended');
    assert.equal(size.tokens, countTokens(text));
  });

  it('forget the text once it is counted, even when counting fails', async () => {
    // The tokenizer remembers words as slices of the counted text: remembered, they would keep the text in memory.
    const counter = await loadTokenCounter();
    assert.equal(typeof counter.forget, 'function');
    const calls: string[] = [];
    const spy = Object.assign((text: string) => (calls.push('count'), counter(text)), { forget: () => (calls.push('forget'), counter.forget!()) });
    await fileSize('One line.\nAnother line.\nThird.', spy, 5);
    assert.deepEqual(calls, ['count', 'count', 'count', 'forget']);

    calls.length = 0;
    const failing = Object.assign((): number => { calls.push('count'); throw new Error('tokenizer broke'); }, { forget: () => calls.push('forget') });
    await assert.rejects(fileSize('text', failing), /tokenizer broke/);
    assert.deepEqual(calls, ['count', 'forget']);
  });
});
