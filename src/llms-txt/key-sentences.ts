// Picking a page's key sentence without a model: a word-frequency ranking of its sentences
// (Luhn's classic method), favouring words of the title and sentences near the top.
import { isBoilerplateDescription } from './boilerplate.ts';
import type { Phrases } from './phrases.ts';
import { normalizeWhitespace, replaceMarkdownLinks, splitSentences, summarizeToSentences, tokenize } from './text.ts';

const STOPWORDS = new Set(
  ('a about above after again all also am an and any are as at be because been before being below between both but by can could did do does doing down during each few for from further had has have having he her here hers him his how i if in into is it its itself just me more most my no nor not now of off on once only or other our out over own same she should so some such than that the their them then there these they this those through to too under until up very was we were what when where which while who whom why will with would you your yours ' +
    'der die das und ist ein eine le la les et est un une el los las es y del de en du des il lo per con non se')
    .split(' '),
);

// A copyright sign, in any language (the words of such notices are the page language's: Phrases.serviceNotice).
const COPYRIGHT_SIGN = /©/;

/** Markdown reduced to its prose: no code, tables, headings, images, link targets or emphasis marks. */
export function markdownToProse(markdown: string): string[] {
  const withoutCode = markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '\n');
  const paragraphs: string[] = [];
  for (const block of withoutCode.split(/\n\s*\n/)) {
    const lines = block
      .split('\n')
      .filter((line) => !/^\s*(?:#{1,6}\s|\||(?:>\s*)?!\[|-{3,}\s*$|\s{4})/.test(line))
      .map((line) => line.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').replace(/^>\s?/, ''));
    const text = normalizeWhitespace(
      replaceMarkdownLinks(replaceMarkdownLinks(lines.join(' '), () => '', { image: true }), (text) => text)
        .replace(/(\*\*|__|`)/g, '')
        .replace(/(^|\s)[_*]([^_*]+)[_*](?=\s|[.,;:!?]|$)/g, '$1$2')
        .replace(/\\([\\`*_{}[\]()#+\-.!|])/g, '$1'),
    );
    if (text) paragraphs.push(text);
  }
  return paragraphs;
}

// Chinese, Japanese and Korean sentences are short in characters and not split into words.
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

interface Candidate {
  text: string;
  position: number;
  words: string[];
}

/**
 * The page's most representative sentence (plus the next one when both fit in `maxChars`),
 * or '' when the content has no usable sentence; `phrases`, those of the site's language.
 */
export function keySentences(markdown: string, title: string, phrases: Phrases, maxChars = 200): string {
  const candidates: Candidate[] = [];
  for (const paragraph of markdownToProse(markdown)) {
    for (const text of splitSentences(paragraph)) {
      const words = contentWords(text);
      const cjk = CJK.test(text);
      if (text.length < (cjk ? 15 : 40) || (!cjk && words.length < 4) || !/[.!?。！？]$/.test(text)) continue;
      candidates.push({ text, position: candidates.length, words });
    }
    if (candidates.length >= 200) break; // the top of a page says what it is about
  }
  if (candidates.length === 0) return '';

  const frequency = new Map<string, number>();
  for (const candidate of candidates) for (const word of new Set(candidate.words)) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  const maxFrequency = Math.max(...frequency.values());
  const titleWords = new Set(contentWords(title));

  let best: Candidate | null = null;
  let bestScore = -Infinity;
  for (const candidate of candidates) {
    const distinct = new Set(candidate.words);
    let score = 0;
    for (const word of distinct) score += (frequency.get(word) ?? 0) / maxFrequency + (titleWords.has(word) ? 1 : 0);
    score /= Math.sqrt(distinct.size + 2);
    score += 0.6 / (1 + candidate.position * 0.5); // lead sentences summarize
    if (candidate.text.length > 260) score *= 0.6;
    if (phrases.serviceNotice.test(candidate.text) || COPYRIGHT_SIGN.test(candidate.text) || candidate.text.endsWith('?')) score *= 0.4;
    if (isBoilerplateDescription(candidate.text, phrases)) score *= 0.1;
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  if (!best) return '';
  const next = candidates[best.position + 1];
  const text = best.text.length < 90 && next && best.text.length + next.text.length + 1 <= maxChars ? `${best.text} ${next.text}` : best.text;
  return summarizeToSentences(text, maxChars);
}

function contentWords(text: string): string[] {
  return tokenize(text).filter((word) => word.length >= 3 && !STOPWORDS.has(word) && !/^\d+$/.test(word));
}
