// A description cut to about 25 words: whole sentences when they fit, never ending on a word
// that leaves it hanging ("and", "of") or on the colon of a lead-in.
import { phrasesFor, type Phrases } from './phrases.ts';
import { splitSentences, trimEndOf, withoutBuildStamps, wordCount } from './text.ts';
import { DESCRIPTION_MAX_WORDS as MAX_WORDS } from './tuning.ts';

// Words a cut text must not end on. Dropped by hand (see withoutDanglingWords): /(?:\s+(?:and|…))+$/
// read to the end of the text from every space before one of them.
const DANGLING_WORDS = new Set(['and', 'or', 'the', 'a', 'an', 'of', 'to', 'for', 'with', 'in', 'on', 'by', 'as', 'at', 'from', 'that', 'which', 'is', 'are', 'between', 'namely']);

/**
 * At most about 25 words: whole sentences when they fit, else cut at a word, never ending in ":".
 * A greeting or a sentence saying where the page resumes ("This tutorial begins where Tutorial 1
 * left off.") is left out when more follow. A sentence that announces what follows it ("The key
 * differences are:") says nothing without it: after another sentence it is left out; alone, it
 * ends where it breaks off ("… you can access it…"), or with a period when it is whole ("The
 * INSERT statement is used to populate a table with rows."). A sentence the text says twice is
 * kept once (an API comment's "For internal use only. For internal use only").
 */
export function shorten(text: string, phrases: Phrases = phrasesFor(null)): string {
  const sentences = splitSentences(withoutBuildStamps(text));
  if (sentences.length > 1 && (phrases.greeting.test(sentences[0]) || phrases.resumes.test(sentences[0]))) sentences.shift();
  const kept: string[] = [];
  const said = new Set<string>();
  let words = 0;
  for (const sentence of sentences) {
    // A text of one sentence has none to say twice.
    const key = sentences.length > 1 ? sentenceKey(sentence) : '';
    if (said.has(key)) continue;
    words += wordCount(sentence);
    if (words > MAX_WORDS) break;
    kept.push(sentence);
    said.add(key);
  }
  if (kept.length > 1 && kept[kept.length - 1].endsWith(':')) kept.pop();
  if (kept.length === 0) return `${withoutDanglingEnd((sentences[0] ?? text).split(/\s+/).slice(0, MAX_WORDS).join(' '))}…`;
  const result = kept.join(' ');
  if (!result.endsWith(':')) return result;
  const whole = result.slice(0, -1).trimEnd();
  return withoutDanglingWords(whole) !== whole ? `${withoutDanglingEnd(whole)}…` : `${whole}.`;
}

/** A sentence as said, whatever its case, spacing or closing stop ("C" and "C++" stay apart). */
function sentenceKey(sentence: string): string {
  return trimEndOf(sentence.toLowerCase().replace(/\s+/g, ' '), '.!?…', { orSpace: true });
}

function withoutDanglingEnd(words: string): string {
  return withoutDanglingWords(trimEndOf(words, ',;:(–—-', { orSpace: true }));
}

/** The text without the DANGLING_WORDS it ends in, each after whitespace. */
function withoutDanglingWords(text: string): string {
  let end = text.length;
  for (;;) {
    let start = end;
    while (start > 0 && !isSpace(text[start - 1])) start--;
    let gap = start;
    while (gap > 0 && isSpace(text[gap - 1])) gap--;
    if (gap === start || !DANGLING_WORDS.has(text.slice(start, end).toLowerCase())) return text.slice(0, end);
    end = gap;
  }
}

const isSpace = (char: string) => /\s/.test(char);
