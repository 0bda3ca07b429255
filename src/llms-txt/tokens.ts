/**
 * Sizes of the generated files in bytes and in tokens, counted with the o200k_base encoding
 * (OpenAI's GPT-4o, GPT-4.1 and o-series models; other models' tokenizers land within about 10%
 * on English text) by gpt-tokenizer. Its tables (about 60 MB in memory) load on the first count.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { hashOf } from './text.ts';

export const TOKEN_ENCODING = 'o200k_base';

/** Below this, llms-full.txt could not hold its header and one page. */
export const MIN_FULL_TEXT_TOKENS = 100;

export interface TokenCounter {
  (text: string): number;
  /** Lets go of the texts counted so far (see MERGE_CACHE_WORDS); a counter that keeps none has no `forget`. */
  forget?(): void;
}

/**
 * The tokenizer remembers the tokens of the words it met: 100,000 of them by default, about 8 MB kept
 * between jobs. Counting the PostgreSQL manual's text is as fast with this many, and a third
 * slower with none. Each remembered word of 13 characters or more is a slice of the counted text
 * that keeps all of it alive (V8's sliced strings): a finished count forgets them, or the last
 * job's llms-full.txt (13 MB for the PostgreSQL manual) stayed in memory until the next job's.
 */
const MERGE_CACHE_WORDS = 5_000;

export interface FileSize {
  bytes: number;
  tokens: number;
}

/**
 * Words counted at most between two `forget`s (see loadTokenCounter), about 7 MB; the first
 * remembered make room for new ones. 1,000 pages of the PostgreSQL manual have about 60,000.
 */
const MAX_COUNTED_WORDS = 100_000;

/**
 * A file is text to the model that reads it: a special token's spelling in a page (`<|endoftext|>`
 * in a page about tokenizers) is counted as the ordinary text it is, where the tokenizer's
 * default refuses it with an error.
 *
 * Each word (o200k_base's pre-token: a word with the space or mark before it, a number of up to
 * three digits, a run of punctuation or of white space) is counted once until `forget`: the
 * tokenizer counts each pre-token apart from the others, and a pre-token split again is itself,
 * so a text's count is the sum of its words'. A 1,000-page llms-full.txt says most of its words
 * many times, and is counted a fifth faster than by the tokenizer whole (docs/decisions/tokens.md).
 */
export async function loadTokenCounter(): Promise<TokenCounter> {
  const { countTokens, setMergeCacheSize, clearMergeCache } = await import('gpt-tokenizer/encoding/o200k_base');
  const { O200K_TOKEN_SPLIT_REGEX } = await import('gpt-tokenizer/encodingParams/constants');
  setMergeCacheSize(MERGE_CACHE_WORDS);
  const asText = { disallowedSpecial: new Set<string>() };
  const countText = (text: string) => countTokens(text, asText);
  // Sticky: each word starts where the last one ended. The tokenizer would skip what matches no
  // word (the expression leaves nothing out today): from there, the rest of the text is its own.
  const nextWord = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'uy');
  const words = new Map<string, number>();
  const countWord = (word: string) => {
    let tokens = words.get(word);
    if (tokens === undefined) {
      tokens = countText(word);
      if (words.size >= MAX_COUNTED_WORDS) words.delete(words.keys().next().value!);
      words.set(word, tokens);
    }
    return tokens;
  };
  const count = (text: string) => {
    let tokens = 0;
    let start = 0;
    nextWord.lastIndex = 0;
    while (start < text.length && nextWord.test(text)) {
      tokens += countWord(text.slice(start, nextWord.lastIndex));
      start = nextWord.lastIndex;
    }
    return start < text.length ? tokens + countText(text.slice(start)) : tokens;
  };
  // Each remembered word is a slice of the text it came from, which it keeps alive (see MERGE_CACHE_WORDS).
  return Object.assign(count, { forget: () => (words.clear(), clearMergeCache()) });
}

/**
 * A file's size, its tokens counted a piece at a time with a turn of the event loop between
 * pieces: a 1,000-page llms-full.txt takes about a second to count, and API requests would wait.
 */
export async function fileSize(content: string, countTokens: TokenCounter, pieceChars = PIECE_CHARS): Promise<FileSize> {
  let tokens = 0;
  try {
    for (const piece of tokenPieces(content, pieceChars)) {
      tokens += countTokens(piece);
      if (piece.length < content.length) await yieldToEventLoop();
    }
  } finally {
    countTokens.forget?.();
  }
  return { bytes: Buffer.byteLength(content, 'utf8'), tokens };
}

const PIECE_CHARS = 64 * 1024;

/**
 * Cuts a text where no token can span the cut, so the pieces' counts add up to the whole's: at the
 * start of a line that starts with neither white space nor a slash. o200k_base's pre-tokenizer
 * keeps a newline only in tokens of white space, or at the end of a run of punctuation, where only
 * more newlines and slashes may follow it; byte-pair merges never cross a pre-token. Each piece is
 * at least `pieceChars` long but for the last.
 */
export function* tokenPieces(text: string, pieceChars: number): Generator<string> {
  let start = 0;
  while (text.length - start > pieceChars) {
    LINE_START.lastIndex = start + pieceChars;
    const cut = LINE_START.exec(text);
    if (!cut) break;
    yield text.slice(start, cut.index + 1);
    start = cut.index + 1;
  }
  yield text.slice(start);
}

const LINE_START = /\n(?=[^\s/])/gu;

/**
 * Lines remembered at most, about 10 MB of a generation thread's heap when full: 1,000 pages of the
 * PostgreSQL manual have about 52,000 (38,600 different); 1,000 pages of 100 kB of markdown each
 * could have a million. The lines remembered first make room for new ones.
 */
const MAX_REMEMBERED_LINES = 200_000;

/**
 * Token counts of lines, by a 53-bit hash of their text (hashOf; a line's count depends on its text
 * alone): a number keeps no part of the text alive, so the counts can outlive the job whose text
 * they came from. Two lines of a thread's 200,000 share a hash with odds of about one in five
 * hundred thousand; the file's count is then off by the difference of their counts.
 */
export class LineCounts {
  private readonly counts = new Map<number, number>();
  private readonly maxLines: number;

  constructor(maxLines = MAX_REMEMBERED_LINES) {
    this.maxLines = maxLines;
  }

  get size(): number {
    return this.counts.size;
  }

  /** The line's count, counted now unless known. */
  count(line: string, countTokens: TokenCounter): number {
    const key = hashOf(line);
    if (key === null) return 0;
    const known = this.counts.get(key);
    if (known !== undefined) return known;
    const tokens = countTokens(line);
    if (this.counts.size >= this.maxLines) this.counts.delete(this.counts.keys().next().value!);
    this.counts.set(key, tokens);
    return tokens;
  }
}

/**
 * Counts a line at a time (each line, with the lines after it that start with white space or a
 * slash: see tokenPieces), each line's count kept in `lines`. A generation thread keeps `lines`
 * from job to job: a site generated again finds its unchanged lines counted. A first job counts
 * its files after the render, while the event loop stores them: counted ahead, as each page's
 * markdown came back, the count took a core from the extraction that then paced the job
 * (docs/decisions/tokens.md).
 */
export function rememberingCounter(countTokens: TokenCounter, lines = new LineCounts()): TokenCounter {
  const count = (text: string) => {
    let tokens = 0;
    for (const line of tokenPieces(text, 0)) tokens += lines.count(line, countTokens);
    return tokens;
  };
  return Object.assign(count, { forget: () => countTokens.forget?.() });
}
