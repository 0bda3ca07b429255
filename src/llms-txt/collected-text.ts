// The text of an element the page's facts read (a title, a heading, a paragraph, a caption…),
// collected while the parser is inside it, and what a paragraph of it is to its page.
import { LINK_LIST_SHARE } from './tuning.ts';

/** Text being collected for the element that asked for it. */
export interface CollectedText {
  kind: 'title' | 'heading' | 'paragraph' | 'caption' | 'purpose' | 'label' | 'term' | 'item';
  tag: string;
  parts: string[];
  level?: number;
  /** How much of the text is link text. */
  linkChars: number;
  /** Whether it links to the page in another language (`hreflang`): a language switcher ("Available Languages: en | ko"). */
  switchesLanguage: boolean;
}

export function collecting(kind: CollectedText['kind'], tag: string, level?: number): CollectedText {
  return { kind, tag, parts: [], level, linkChars: 0, switchesLanguage: false };
}

/**
 * What a paragraph of the content is to its page. Only a `lead` says what the page is and is kept
 * (`paragraphs`, `firstParagraph`); an `answer` follows a question heading (a FAQ's), a `synopsis`
 * a usage heading, a `switcher` links to the page in other languages, a `link-list` is mostly
 * links ("See also"), a `fragment` is too short to say anything. Paragraphs in asides (notes,
 * warnings, "See also" boxes), navigation, chrome and list items are not read at all.
 */
export type ParagraphRole = 'lead' | 'answer' | 'synopsis' | 'switcher' | 'link-list' | 'fragment';

/** Where the paragraph stands: past a question heading (`answering`) or a usage heading (`inSynopsis`). */
export interface ParagraphPlace {
  answering: boolean;
  inSynopsis: boolean;
}

export function paragraphRole(paragraph: CollectedText, value: string, place: ParagraphPlace): ParagraphRole {
  if (place.answering) return 'answer';
  if (place.inSynopsis) return 'synopsis';
  if (paragraph.switchesLanguage) return 'switcher';
  if (value.length < 3) return 'fragment';
  // A paragraph that is mostly links lists other pages ("See also"): it states nothing about this one.
  return paragraph.linkChars <= value.length * LINK_LIST_SHARE ? 'lead' : 'link-list';
}

const PERMALINK_SIGNS = new Set(['#', '§', '🔗']);

/** "Installation ¶", "Installation #" → "Installation": the permalink sign documentation themes put after a heading. */
export function withoutPilcrow(text: string): string {
  const sign = [...text.slice(-2)].at(-1) ?? '';
  const rest = text.slice(0, text.length - sign.length);
  // "¶" (Sphinx, MkDocs) anywhere; "#", "§", "🔗" after a space only ("C#" keeps its sign).
  if (sign === '¶' || (PERMALINK_SIGNS.has(sign) && rest !== rest.trimEnd())) return rest.trimEnd();
  return text;
}
