import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findRepeatedLines, MarkdownLines } from './repeated-lines.ts';

/** Page n of a site: its own lines between a menu and a footer every page repeats. */
const page = (n: number) => ['[Home](/) | [Guide](/guide/)', '', `# Page ${n}`, '', `What page ${n} says.`, '', '| a | b |', '', '© Acme'].join('\n');

const repeatedLinesIn = (markdowns: string[], lines?: MarkdownLines) => {
  const repeatedLinesOf = findRepeatedLines(markdowns, lines);
  return markdowns.map((markdown) => {
    const isRepeated = repeatedLinesOf(markdown);
    return markdown.split('\n').filter((_, i) => isRepeated(i));
  });
};

describe('findRepeatedLines', () => {
  it('finds the lines at least 3 pages and a fifth of them share, never a heading, table row or blank line', () => {
    const pages = [page(1), page(2), page(3), `${page(4)}\n| a | b |\n# Page 1`];
    assert.deepEqual(repeatedLinesIn(pages), pages.map(() => ['[Home](/) | [Guide](/guide/)', '© Acme']));
  });

  it('needs 3 pages: two pages share no furniture', () => {
    assert.deepEqual(repeatedLinesIn([page(1), page(2)]), [[], []]);
  });

  it('reads the same from lines remembered ahead as from lines keyed as it renders', () => {
    const pages = Array.from({ length: 6 }, (_, n) => page(n));
    const lines = new MarkdownLines();
    pages.forEach((markdown) => lines.remember(markdown));
    assert.deepEqual(repeatedLinesIn(pages, lines), repeatedLinesIn(pages));
  });
});
