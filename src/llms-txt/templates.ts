// Text a generator writes from one template on many pages, only names and numbers changing: an
// API generator's "declaration: package: a.b, class: C" in every class page's meta description.
// Such a line describes no page, though no two pages share it word for word.
import { repeatedAmong } from './boilerplate.ts';
import { TEMPLATE_ENOUGH_PAGES as ENOUGH_PAGES, TEMPLATE_MAX_PARTS as MAX_PARTS, TEMPLATE_MAX_WORDS_PER_SLOT as MAX_WORDS_PER_SLOT, TEMPLATE_MIN_KEPT_WORDS as MIN_KEPT_WORDS, TEMPLATE_MIN_PAGES as MIN_PAGES, TEMPLATE_SHARE as MIN_SHARE } from './tuning.ts';

const PLAIN_WORD = /^\p{Ll}+[,.;:]?$/u;
const OPENING_WORD = /^\p{Lu}\p{Ll}*$/u;
const SLOT = '#';

/**
 * The text with each name or number (anything but a plain lower-case word) as one slot, runs of
 * slots as one, up to its first MAX_PARTS parts: "declaration: package: a.b, class: C" →
 * "declaration: package: # class: #". Empty when nothing varies, when too little is left to be a
 * frame, or when the whole text is mostly plain words (sentences that merely open alike).
 */
export function skeletonOf(text: string): string {
  const parts: string[] = [];
  let kept = 0;
  let slots = 0;
  let previousWasSlot = false;
  const tokens = text.split(/\s+/);
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    if (token === '') continue;
    // A sentence's capitalised first word ("A functional interface like …") is a word, not a name.
    const isWord = PLAIN_WORD.test(token) || (parts.length === 0 && OPENING_WORD.test(token));
    if (isWord) kept++;
    else if (!previousWasSlot) slots++;
    if (parts.length < MAX_PARTS && (isWord || !previousWasSlot)) parts.push(isWord ? token : SLOT);
    previousWasSlot = !isWord;
    // Prose: too many words for the slots the rest could still add, were it all names.
    if (kept > (slots + tokens.length - 1 - index) * MAX_WORDS_PER_SLOT) return '';
  }
  const mostlyNames = slots > 0 && kept <= slots * MAX_WORDS_PER_SLOT;
  return mostlyNames && parts.filter((part) => part !== SLOT).length >= MIN_KEPT_WORDS ? parts.join(' ') : '';
}

/**
 * Whether a text follows a template many pages' texts follow (each page's texts counted once),
 * from each page's skeletons' keys (`textKeys` of their skeletonOf), read beforehand;
 * `skeletonOfText`: skeletonOf, or the job's (see TextKeys), which makes each once.
 */
export function templatedAmong(pageKeys: Iterable<Iterable<number>>, skeletonOfText: (text: string) => string): (text: string) => boolean {
  const isShared = repeatedAmong(pageKeys, { minShare: MIN_SHARE, minPages: MIN_PAGES, enoughPages: ENOUGH_PAGES });
  return (text) => {
    const skeleton = skeletonOfText(text);
    return skeleton !== '' && isShared(skeleton);
  };
}

/**
 * A text's frame once every name is gone: its plain lower-case words, in order ("A functional
 * interface like BiConsumer that declares a Throwable." → "a functional interface like that
 * declares a"). Empty when no more than TEMPLATE_MIN_KEPT_WORDS are left.
 */
export function frameOf(text: string): string {
  const words: string[] = [];
  for (const token of text.split(/\s+/)) {
    if (token === '') continue;
    const word = token.replace(/[,.;:!?]$/, '');
    if (PLAIN_WORD.test(word) || (words.length === 0 && OPENING_WORD.test(word))) words.push(word.toLowerCase());
  }
  return words.length > MIN_KEPT_WORDS ? words.join(' ') : '';
}
