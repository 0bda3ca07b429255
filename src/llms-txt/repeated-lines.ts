// Lines of page markdown that many pages repeat (navigation, footers), which llms-full.txt leaves
// out: each page's lines keyed once, as the page's markdown arrives, rather than all of them while
// the file is rendered.
import { hashedKey, repeatedKeys } from './boilerplate.ts';
import { REPEATED_LINE_MIN_PAGES } from './tuning.ts';

/** A line that decides nothing alone: a code fence, a heading, a table row. */
const STRUCTURE_LINE = /^\s*(?:`{3,}|~{3,}|#|\|)/;

/** A page's lines' keys: `keys[i]` is line i's (hashedKey; NaN for a line without letters or digits). */
interface PageLines {
  keys: Float64Array;
  /** The distinct keys of the lines that count toward a line's pages (not structure lines). */
  counted: Float64Array;
}

/**
 * The keys of pages' markdown lines, by markdown text. A generation thread remembers each page's
 * markdown as its extraction comes back, while it waits for the rest; rendering llms-full.txt then
 * finds them keyed (hashing the lines of 1,000 pages of the PostgreSQL manual took 0.4 s of the
 * render, on one core while the other idled).
 */
export class MarkdownLines {
  private readonly byMarkdown = new Map<string, PageLines>();

  remember(markdown: string): void {
    this.of(markdown);
  }

  of(markdown: string): PageLines {
    let lines = this.byMarkdown.get(markdown);
    if (!lines) {
      lines = keyLines(markdown);
      this.byMarkdown.set(markdown, lines);
    }
    return lines;
  }
}

function keyLines(markdown: string): PageLines {
  const lines = markdown.split('\n');
  const keys = new Float64Array(lines.length);
  const counted = new Set<number>();
  lines.forEach((line, i) => {
    keys[i] = (line.trim() ? hashedKey(line) : null) ?? NaN;
    if (!Number.isNaN(keys[i]) && !STRUCTURE_LINE.test(line)) counted.add(keys[i]);
  });
  return { keys, counted: Float64Array.from(counted) };
}

/**
 * A test for line `i` of a page's markdown: is it a line (outside code and tables) that at least 3
 * pages and a fifth of them share?
 */
export function findRepeatedLines(markdowns: readonly string[], lines = new MarkdownLines()): (markdown: string) => (lineIndex: number) => boolean {
  const repeated = repeatedKeys(
    markdowns.map((markdown) => lines.of(markdown).counted),
    { minPages: REPEATED_LINE_MIN_PAGES, enoughPages: Infinity },
  );
  return (markdown) => {
    const { keys } = lines.of(markdown);
    return (lineIndex) => repeated.has(keys[lineIndex]);
  };
}
