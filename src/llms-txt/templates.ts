// Text a generator writes from one template on many pages, only names and numbers changing: an
// API generator's "declaration: package: a.b, class: C" in every class page's meta description.
// Such a line describes no page, though no two pages share it word for word.
import { findRepeatedDescriptions } from './boilerplate.ts';

/** A template shared by this share of the pages is the generator's, not the page's (at least MIN_PAGES, never more than ENOUGH_PAGES). */
const MIN_SHARE = 0.1;
const MIN_PAGES = 5;
const ENOUGH_PAGES = 20;
/** Words a skeleton must keep for it to be a sentence's frame, not a list of names. */
const MIN_KEPT_WORDS = 2;
/** A template's opening is enough to know it: a nested class's line only goes on longer. */
const MAX_PARTS = 5;
const PLAIN_WORD = /^\p{Ll}+[,.;:]?$/u;
const SLOT = '#';

/** A template's text is mostly names: at least one slot for this many plain words, over the whole text (prose that opens alike is not). */
const MAX_WORDS_PER_SLOT = 2;

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
  for (const token of text.split(/\s+/)) {
    if (token === '') continue;
    const isWord = PLAIN_WORD.test(token);
    if (isWord) kept++;
    else if (!previousWasSlot) slots++;
    if (parts.length < MAX_PARTS && (isWord || !previousWasSlot)) parts.push(isWord ? token : SLOT);
    previousWasSlot = !isWord;
  }
  const mostlyNames = slots > 0 && kept <= slots * MAX_WORDS_PER_SLOT;
  return mostlyNames && parts.filter((part) => part !== SLOT).length >= MIN_KEPT_WORDS ? parts.join(' ') : '';
}

/** Whether a text follows a template many pages' texts follow (each page's texts counted once). */
export function findTemplatedTexts(pages: Iterable<readonly string[]>): (text: string) => boolean {
  const skeletons = [...pages].map((texts) => texts.map(skeletonOf));
  const isShared = findRepeatedDescriptions(skeletons, { minShare: MIN_SHARE, minPages: MIN_PAGES, enoughPages: ENOUGH_PAGES });
  return (text) => {
    const skeleton = skeletonOf(text);
    return skeleton !== '' && isShared(skeleton);
  };
}
