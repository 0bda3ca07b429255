// The text of an element the page's facts read (a title, a heading, a paragraph, a caption…),
// collected while the parser is inside it, and what a paragraph of it is to its page.
import { LINK_LIST_SHARE, MAX_TRAIL_ITEM_CHARS } from './tuning.ts';

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
  /** The last link that names nothing ("More…"): where its text starts and ends in `parts`, and the link text before it. */
  namelessLink: { from: number; to: number; linkChars: number } | null;
}

export function collecting(kind: CollectedText['kind'], tag: string, level?: number): CollectedText {
  return { kind, tag, parts: [], level, linkChars: 0, switchesLanguage: false, namelessLink: null };
}

/**
 * Drops from the text a link that names nothing ("More…", "Read more") where it ends the text,
 * with its share of the link text: Doxygen ends each brief description with one. Within a
 * sentence, the link's words stay.
 */
export function dropNamelessEnd(text: CollectedText): void {
  const link = text.namelessLink;
  if (!link || text.parts.slice(link.to).some((part) => part.trim() !== '')) return;
  text.parts.length = link.from;
  text.linkChars = link.linkChars;
}

/**
 * What a paragraph of the content is to its page. Only a `lead` says what the page is and is kept
 * (`paragraphs`, `firstParagraph`); an `answer` follows a question heading (a FAQ's), a `synopsis`
 * a usage heading, a `switcher` links to the page in other languages, a `link-list` is mostly
 * links ("See also"), a `trail` is a breadcrumb written as text (see isTrail), an `item` opens
 * with a bullet sign (a list drawn in text: "• T extends object"), a `fragment` is too short to
 * say anything. Paragraphs in asides (notes,
 * warnings, "See also" boxes), navigation, chrome and list items are not read at all.
 */
export type ParagraphRole = 'lead' | 'answer' | 'synopsis' | 'switcher' | 'link-list' | 'trail' | 'item' | 'fragment';

/**
 * Where the paragraph stands: past a question heading (`answering`) or a usage heading
 * (`inSynopsis`), on a page of this title (its <title>, else its <h1>, null before either).
 */
export interface ParagraphPlace {
  answering: boolean;
  inSynopsis: boolean;
  pageTitle: string | null;
}

const BULLET = /^[•◦▪‣]/;
const TRAIL_SEPARATOR = /\s+[/›»>→]\s+/;

/**
 * A breadcrumb trail set as a paragraph ("Guide / Plugins / Writing plugins"): short items between
 * "/", "›", "»", ">" or "→", every one but the last a link, the last one the page's own name (its title
 * holds it). It says where the page stands, not what it says.
 */
function isTrail(paragraph: CollectedText, value: string, pageTitle: string | null): boolean {
  const items = value.split(TRAIL_SEPARATOR);
  if (items.length < 2 || pageTitle === null || items.some((item) => item.length > MAX_TRAIL_ITEM_CHARS)) return false;
  const last = items.pop()!.toLowerCase();
  // Link text is counted without the spaces around its pieces: the items' other characters are a floor.
  const leadingChars = items.reduce((sum, item) => sum + item.replace(/\s+/g, '').length, 0);
  return paragraph.linkChars >= leadingChars && pageTitle.toLowerCase().includes(last);
}

export function paragraphRole(paragraph: CollectedText, value: string, place: ParagraphPlace): ParagraphRole {
  if (place.answering) return 'answer';
  if (place.inSynopsis) return 'synopsis';
  if (paragraph.switchesLanguage) return 'switcher';
  if (value.length < 3) return 'fragment';
  if (isTrail(paragraph, value, place.pageTitle)) return 'trail';
  if (BULLET.test(value)) return 'item';
  // A paragraph that is mostly links lists other pages ("See also"): it states nothing about this one.
  return paragraph.linkChars <= value.length * LINK_LIST_SHARE ? 'lead' : 'link-list';
}

const PERMALINK_SIGNS = new Set(['#', '§', '🔗']);
/** Signs a theme puts before a heading, then a space: a member's "◆ Aloss" (Doxygen); "§ 242" names a section and keeps its sign. */
const LEADING_PERMALINK_SIGNS = new Set(['¶', '◆', '🔗']);
/** The code units either set's signs start or end with ("🔗" is two). */
const SIGN_UNITS = new Set([...PERMALINK_SIGNS, ...LEADING_PERMALINK_SIGNS].flatMap((sign) => [sign.charCodeAt(0), sign.charCodeAt(sign.length - 1)]));

/**
 * "Installation ¶", "Installation #", "◆ Aloss" → "Installation", "Aloss": the permalink sign
 * documentation themes put after a heading, or before it.
 */
export function withoutPilcrow(text: string): string {
  // Most texts have no sign at either end: they are returned before any slicing.
  if (!SIGN_UNITS.has(text.charCodeAt(0)) && !SIGN_UNITS.has(text.charCodeAt(text.length - 1))) return text;
  const first = [...text.slice(0, 2)][0] ?? '';
  if (LEADING_PERMALINK_SIGNS.has(first) && /\s/u.test(text.charAt(first.length))) return withoutPilcrow(text.slice(first.length).trimStart());
  const sign = [...text.slice(-2)].at(-1) ?? '';
  const rest = text.slice(0, text.length - sign.length);
  // "¶" (Sphinx, MkDocs) anywhere; "#", "§", "🔗" after a space only ("C#" keeps its sign).
  if (sign === '¶' || (PERMALINK_SIGNS.has(sign) && rest !== rest.trimEnd())) return rest.trimEnd();
  return text;
}
